import { WavesGraph } from "@/components/WavesGraph";
import type { Plan } from "@/lib/plan/shapes";
import { call } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Waves" };

export default async function WavesPage() {
  const plan = await call<Plan>("plan.model");
  return (
    <main className="flex flex-col gap-3">
      <h1 className="text-2xl font-semibold">Waves</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        One column per wave: an issue enters a wave once everything it depends on has left the earlier ones. Select an issue to see what it
        waits on and what finishing it unblocks. Keyboard: Tab and the arrow keys move between issues, Space selects, Enter opens, / searches.
      </p>
      <WavesGraph initialPlan={plan} />
    </main>
  );
}
