import type { Plan, PlanIssue } from "./shapes";
import { compareBytes } from "./text";

/** `p0`→0, `p1`→1, `p2`→2, anything else→3 (§3.5). */
export function priorityRank(priority: string): number {
  return priority === "p0" ? 0 : priority === "p1" ? 1 : priority === "p2" ? 2 : 3;
}

function isBefore(a: PlanIssue, b: PlanIssue): boolean {
  if (a.wave !== b.wave) return a.wave < b.wave;
  const pa = priorityRank(a.priority);
  const pb = priorityRank(b.priority);
  if (pa !== pb) return pa < pb;
  return compareBytes(a.id, b.id) < 0;
}

function bestReady(issues: readonly PlanIssue[], milestone: string): PlanIssue | undefined {
  let best: PlanIssue | undefined;
  for (const issue of issues) {
    if (issue.status !== "READY") continue;
    if (issue.lease) continue; // taken in another clone (the coordination database says so)
    if (milestone !== "" && issue.milestone !== milestone) continue;
    if (!best || isBefore(issue, best)) best = issue;
  }
  return best;
}

/**
 * The one issue to take (§3.5): the lowest (wave, priority, id) READY issue of the given milestone,
 * else of the active one; when that has none, the same choice over the whole plan. An issue with
 * a live lease is taken and skipped.
 */
export function pickNextIssue(plan: Plan, milestone?: string): PlanIssue | undefined {
  const scope = milestone ?? plan.project.active_milestone;
  return bestReady(plan.issues, scope) ?? (scope === "" ? undefined : bestReady(plan.issues, ""));
}
