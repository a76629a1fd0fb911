import { planModelCapability } from "@/lib/capabilities/plan-model";
import { plansListCapability } from "@/lib/capabilities/plans-list";
import Link from "@/components/Link";
import { Card } from "@/components/Card";
import { CreatePlanForm } from "@/components/PlanActions";
import { call } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Execution plans" };

export default async function PlansPage() {
  const [{ plans }, plan] = await Promise.all([call(plansListCapability), call(planModelCapability)]);
  const open = plan.milestones.filter((m) => m.counts.total > m.counts.by_status.DONE + m.counts.by_status.CANCELLED);
  return (
    <main className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Execution plans</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
        An execution plan carries out a milestone: a root plan with one child per unfinished issue, run wave by wave. A child is claimed only when
        its issue&apos;s dependencies are DONE, the concurrency limit allows it, and no running sibling shares its scope.
      </p>
      <Card title="Decompose a milestone">
        {open.length ? <CreatePlanForm milestones={open.map((m) => ({ id: m.id, title: m.title }))} /> : <p className="text-sm">Every milestone is finished.</p>}
      </Card>
      <Card title={`Plans (${plans.length})`}>
        {plans.length === 0 ? (
          <p className="text-sm">No execution plan yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800" data-testid="plan-list">
            {plans.map((p) => (
              <li key={p.plan_id} className="flex items-center gap-4 py-2">
                <Link href={`/plans/${p.plan_id}`} className="font-mono text-blue-700 underline dark:text-blue-300">
                  {p.plan_id}
                </Link>
                <span>{p.title}</span>
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  {p.phase} · {p.processing_state} ·{" "}
                  {Object.entries(p.children_by_state)
                    .filter(([, n]) => n > 0)
                    .map(([s, n]) => `${n} ${s}`)
                    .join(", ")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  );
}
