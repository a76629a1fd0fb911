import { planModelCapability } from "@/lib/capabilities/plan-model";
import { planRoadmapCapability } from "@/lib/capabilities/plan-roadmap";
import { Card } from "@/components/Card";
import { MilestoneLink } from "@/components/IssueLink";
import { MilestoneGraph } from "@/components/MilestoneGraph";
import { SegmentBar } from "@/components/SegmentBar";
import { StatusBadge } from "@/components/StatusBadge";
import { call, servedState } from "@/lib/surfaces/pages";
import { whyActiveIsNotNow } from "@/lib/plan/active-why";
import { missingEvidence } from "@/lib/plan/evidence-coverage";
import { pageText } from "@/lib/surfaces/page-text";

const missingOf = (m: Parameters<typeof missingEvidence>[0] | undefined) => (m ? missingEvidence(m) : []);

export const dynamic = "force-dynamic";
export const metadata = { title: "Roadmap" };

export default async function RoadmapPage() {
  const [roadmap, plan, { records }] = await Promise.all([call(planRoadmapCapability), call(planModelCapability), servedState()]);
  const why = whyActiveIsNotNow(plan, roadmap, (id) => missingOf(records.milestones.find((m) => m.id === id)));
  const mark = (id: string) => (id === roadmap.now ? ("now" as const) : id === roadmap.next ? ("next" as const) : undefined);
  return (
    <main className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Roadmap</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Milestones in derived order: by rank in the milestone graph, then order, then id. Now:{" "}
        <strong data-testid="roadmap-now">{roadmap.now ?? "none"}</strong> · next: <strong data-testid="roadmap-next">{roadmap.next ?? "none"}</strong>
      </p>
      {why && (
        <p role="note" className="text-sm text-slate-700 dark:text-slate-300" data-testid="active-why">
          Active milestone: <strong>{plan.project.active_milestone || "none"}</strong>. {pageText(why)}.
        </p>
      )}
      <Card>
        <ol className="flex flex-col divide-y divide-slate-100 dark:divide-slate-800">
          {roadmap.milestones.map((m) => (
            <li key={m.id} className="grid grid-cols-[3rem_minmax(0,1fr)] items-center gap-x-4 gap-y-1 py-2 sm:grid-cols-[4rem_minmax(0,1fr)_16rem]" data-testid={`roadmap-${m.id}`}>
              <div className="flex flex-col items-start gap-1">
                {mark(m.id) && (
                  <span className="rounded bg-emerald-700 px-1.5 text-xs font-semibold text-white">{mark(m.id)!.toUpperCase()}</span>
                )}
                <span className="text-xs text-slate-600 dark:text-slate-400">{m.version ? `v${m.version}` : ""}</span>
              </div>
              <div>
                <div className="flex items-center gap-2">
                  <StatusBadge status={m.status} kind="milestone" />
                  <MilestoneLink id={m.id}>
                    <span className="font-medium">{m.title || m.id}</span>
                  </MilestoneLink>
                </div>
                <div className="text-xs text-slate-600 dark:text-slate-400">
                  rank {m.rank} · order {m.order}
                  {m.blocked_by.length > 0 && <> · blocked by {m.blocked_by.join(", ")}</>}
                </div>
              </div>
              <div className="col-span-2 flex flex-col gap-1 sm:col-span-1">
                <SegmentBar counts={m.counts} />
                <span className="text-right text-xs tabular-nums text-slate-600 dark:text-slate-400">
                  {m.counts.by_status.DONE ?? 0}/{m.counts.required} done
                </span>
              </div>
            </li>
          ))}
        </ol>
      </Card>
      <Card title="Milestone dependencies">
        <MilestoneGraph
          milestones={roadmap.milestones.map((m) => ({ id: m.id, title: m.title, status: m.status, rank: m.rank, mark: mark(m.id) }))}
          edges={plan.milestone_edges}
        />
      </Card>
    </main>
  );
}
