import { currentPlan } from "@/lib/surfaces/context";
import { settingsFromEnv } from "@/lib/surfaces/http";
import { planStatus } from "@/lib/plan/queries";

export const dynamic = "force-dynamic";

export default function OverviewPage() {
  const status = planStatus(currentPlan(settingsFromEnv().repo));
  return (
    <main className="mx-auto max-w-5xl p-8">
      <h1 className="text-2xl font-semibold">{status.project.name || "Cockpit"}</h1>
      <p className="text-slate-600 dark:text-slate-400">
        Active milestone: {status.project.active_milestone || "none"} · next issue: {status.next_ready?.id ?? "none"}
      </p>
    </main>
  );
}
