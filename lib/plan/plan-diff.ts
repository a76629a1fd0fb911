import { diffPlans as changesBetween } from "./changes";
import type { PlanDiff as PlanChangesDiff } from "./history-shapes";
import type { Plan, PlanFinding } from "./shapes";

// What an edit changes in the derived plan: plan.changes's own diff of the two plans (the same
// issue, milestone, findings, next and roadmap members, by the same function), with what only a
// preview says: the scope conflicts among the new findings, and whether nothing changes.

export type PlanDiff = PlanChangesDiff & {
  /** The scope conflicts among the new findings. */
  scope_conflicts: PlanFinding[];
  /** Whether nothing derived changes. */
  is_empty: boolean;
};

export function diffPlans(before: Plan, after: Plan): PlanDiff {
  const d = changesBetween(before, after);
  const moved = (c: { from: unknown; to: unknown }) => c.from !== c.to;
  const is_empty =
    d.issues.length + d.milestones.length + d.findings.new.length + d.findings.resolved.length === 0 && !moved(d.next) && !moved(d.roadmap.now) && !moved(d.roadmap.next);
  return { ...d, scope_conflicts: d.findings.new.filter((f) => f.code === "scope_conflict"), is_empty };
}
