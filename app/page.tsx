import { issueCodeOf, planCodeOf } from "@/lib/code/shapes";
import { planChangesCapability } from "@/lib/capabilities/plan-changes";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planRoadmapCapability } from "@/lib/capabilities/plan-roadmap";
import { planStatusCapability } from "@/lib/capabilities/plan-status";
import { planValidateCapability } from "@/lib/capabilities/plan-validate";
import Link from "@/components/Link";
import { Card } from "@/components/Card";
import { MilestoneLink } from "@/components/IssueLink";
import { SegmentBar, StatusLegend } from "@/components/SegmentBar";
import { StatusBadge } from "@/components/StatusBadge";
import { SinceYesterday } from "@/components/standup/SinceYesterday";
import { NextIssueCard } from "@/components/NextIssueCard";
import { UnsealedNote } from "@/components/UnsealedNote";
import { unsealedWarning } from "@/lib/plan/unsealed";
import { CapabilityError } from "@/lib/plan/errors";
import { defaultSince, type PlanChanges } from "@/lib/standup/standup";
import { call, servedState } from "@/lib/surfaces/pages";
import { pageText } from "@/lib/surfaces/page-text";
import { whyActiveIsNotNow } from "@/lib/plan/active-why";
import { missingEvidence } from "@/lib/plan/evidence-coverage";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const [status, validation, roadmap, changes, served, code] = await Promise.all([
    call(planStatusCapability),
    call(planValidateCapability),
    call(planRoadmapCapability),
    sinceYesterday(),
    servedState(),
    call(planCodeCapability).then(planCodeOf),
  ]);
  // Counted as /findings and the standup count them: what the code says is a finding too.
  const codeFindings = code.findings.length;
  const why = whyActiveIsNotNow(served.plan, roadmap, (id) => {
    const m = served.records.milestones.find((r) => r.id === id);
    return m ? missingEvidence(m) : [];
  });
  const { project, next_ready: next, counts } = status;
  // The records may change between two reads (a file removed under the served plan): no code then.
  const nextCode = next
    ? await call(planCodeCapability, { id: next.id })
        .then(issueCodeOf)
        .catch((error: unknown) => {
          if (error instanceof CapabilityError && error.code === "not_found") return undefined;
          throw error;
        })
    : undefined;
  const someoneOnIt = nextCode?.findings.find((f) => f.code === "work_without_start");
  const order = new Map(roadmap.milestones.map((m, i) => [m.id, i]));
  const milestones = [...status.milestones].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const active = status.milestones.find((m) => m.id === project.active_milestone);
  const warnings = validation.warnings;
  return (
    <main className="flex flex-col gap-6">
      <div id="project">
        <h1 className="text-2xl font-semibold">{project.name || "Unnamed project"}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {project.repository || "no repository named"}
          {project.default_branch ? ` · ${project.default_branch}` : ""} · {counts.total} issues in {status.milestones.length} milestones
        </p>
      </div>

      <div className="grid gap-6 md:grid-cols-3">
        <Card title="Active milestone">
          {active ? (
            <div className="flex flex-col gap-2">
              <MilestoneLink id={active.id}>
                <span className="font-medium">{active.title || active.id}</span>
              </MilestoneLink>
              <div className="flex items-center gap-2 text-sm">
                <StatusBadge status={active.status} kind="milestone" />
                <span>
                  {active.counts.by_status.DONE ?? 0} of {active.counts.required} done
                </span>
              </div>
              <SegmentBar counts={active.counts} />
              {why && (
                <p role="note" className="text-xs text-slate-700 dark:text-slate-300" data-testid="active-why">
                  Roadmap: {pageText(why)}.
                </p>
              )}
            </div>
          ) : (
            <p className="text-sm">No milestone is open.</p>
          )}
        </Card>

        <Card title="Next issue">
          {next ? (
            <NextIssueCard next={{ id: next.id, title: next.title, status: next.status, wave: next.wave, priority: next.priority, milestone: next.milestone }}>
              {someoneOnIt && (
                <p role="note" className="rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50" data-testid="next-issue-code-warning">
                  <strong>Someone is already on it.</strong> {someoneOnIt.message}
                </p>
              )}
              <UnsealedNote warning={pageText(unsealedWarning(served.plan, next.id))} />
            </NextIssueCard>
          ) : (
            <p className="text-sm" data-testid="next-issue">
              No issue is ready: every one waits on a dependency or on its milestone&apos;s gate.
            </p>
          )}
        </Card>

        <Card title="Validation">
          <div className="flex flex-col gap-2 text-sm">
            <Link href="/findings#FAIL" className="flex items-center justify-between rounded border border-red-300 px-3 py-2 hover:bg-red-50 dark:border-red-800 dark:hover:bg-red-950">
              <span>Failures</span>
              <span className="font-semibold text-red-700 dark:text-red-400" data-testid="fail-count">{validation.failures}</span>
            </Link>
            <Link href="/findings#WARN" className="flex items-center justify-between rounded border border-amber-300 px-3 py-2 hover:bg-amber-50 dark:border-amber-800 dark:hover:bg-amber-950">
              <span>Warnings</span>
              <span className="font-semibold text-amber-800 dark:text-amber-400" data-testid="warn-count">{warnings}</span>
            </Link>
            <Link href="/findings#code" className="flex items-center justify-between rounded border border-slate-300 px-3 py-2 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900">
              <span>What the code says</span>
              <span className="font-semibold" data-testid="code-finding-count">{codeFindings}</span>
            </Link>
            <p className="text-xs text-slate-600 dark:text-slate-400">{validation.valid ? "The model is valid." : "The model is invalid: read the failures."}</p>
          </div>
        </Card>
      </div>

      {changes && <SinceYesterday changes={changes} href={changes.since.commit ? `/standup?since=${changes.since.commit}&view=change` : "/standup?view=change"} />}

      <Card title="Milestones, in roadmap order">
        <div className="mb-3">
          <StatusLegend />
        </div>
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-slate-600 dark:text-slate-400">
            <tr>
              <th className="py-1 pr-3 font-medium">Milestone</th>
              <th className="py-1 pr-3 font-medium">Status</th>
              <th className="py-1 pr-3 font-medium">Done</th>
              <th className="w-2/5 py-1 font-medium">Issues by status</th>
            </tr>
          </thead>
          <tbody>
            {milestones.map((m) => {
              const full = roadmap.milestones.find((x) => x.id === m.id);
              return (
                <tr key={m.id} className="border-t border-slate-100 dark:border-slate-800" data-testid={`milestone-row-${m.id}`}>
                  <td className="py-2 pr-3">
                    <MilestoneLink id={m.id}>{m.title || m.id}</MilestoneLink>
                    {full && full.blocked_by.length > 0 && (
                      <div className="text-xs text-slate-600 dark:text-slate-400">
                        waits on {full.blocked_by.map((b, i) => (
                          <span key={`${b}-${i}`}>
                            {i > 0 && ", "}
                            <MilestoneLink id={b} />
                          </span>
                        ))}
                      </div>
                    )}
                  </td>
                  <td className="py-2 pr-3">
                    <StatusBadge status={m.status} kind="milestone" />
                  </td>
                  <td className="py-2 pr-3 tabular-nums">
                    {m.counts.by_status.DONE ?? 0}/{m.counts.required}
                  </td>
                  <td className="py-2">
                    <SegmentBar counts={m.counts} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>
    </main>
  );
}

/** What changed since the start of the previous working day; none in a folder without git history. */
async function sinceYesterday(): Promise<PlanChanges | undefined> {
  try {
    return await call(planChangesCapability, { since: defaultSince(new Date().toISOString().slice(0, 10)) });
  } catch (error) {
    if (error instanceof CapabilityError && error.code !== "internal") return undefined;
    throw error;
  }
}
