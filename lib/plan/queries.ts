import { invalidInput, notFound } from "./errors";
import { requireMilestone } from "./nearest";
import { countStatuses } from "./derive";
import { pickNextIssue } from "./next-issue";
import { deriveRoadmap } from "./roadmap";
import type {
  PlanIssue,
  Plan,
  PlanIssueList,
  PlanNextIssue,
  PlanRecord,
  PlanRoadmap,
  PlanStatusReport,
  PlanValidation,
  PlanWaveReport,
} from "./shapes";

// The read capabilities of §7 as plain functions over a derived plan. Output field order is the
// contract's: callers serialise these objects as they are.

export interface MilestoneFilter {
  milestone?: string;
}

export interface IssueFilter {
  milestone?: string;
  status?: string;
  wave?: number;
}

export function planModel(plan: Plan): Plan {
  return plan;
}

export function planStatus(plan: Plan, input: MilestoneFilter = {}): PlanStatusReport {
  const only = input.milestone;
  requireMilestone(plan, only);
  const counts = countStatuses(plan.issues.filter((i) => only === undefined || i.milestone === only).map((i) => i.status));
  const next = pickNextIssue(plan, only);
  return {
    project: plan.project,
    statuses: plan.statuses,
    milestones: plan.milestones
      .filter((m) => only === undefined || m.id === only)
      .map((m) => ({ id: m.id, status: m.status, title: m.title, counts: m.counts })),
    ...(next ? { next_ready: next } : {}),
    counts,
  };
}

export function planIssues(plan: Plan, input: IssueFilter = {}): PlanIssueList {
  const { milestone, status, wave } = input;
  requireMilestone(plan, milestone);
  if (status !== undefined && !(plan.statuses.issue as readonly string[]).includes(status)) {
    throw invalidInput(`'${status}' is not an issue status; the vocabulary is ${plan.statuses.issue.join(", ")}`);
  }
  const issues = plan.issues.filter(
    (i) =>
      (milestone === undefined || i.milestone === milestone) &&
      (status === undefined || i.status === status) &&
      (wave === undefined || i.wave === wave),
  );
  return { issues, total: issues.length, statuses: plan.statuses };
}

export function planWaves(plan: Plan, input: MilestoneFilter = {}): PlanWaveReport {
  const only = input.milestone;
  requireMilestone(plan, only);
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const waves = plan.waves
    .map((w) => ({
      wave: w.wave,
      issues: w.issues.map((id) => byId.get(id)!).filter((i) => only === undefined || i.milestone === only),
    }))
    .filter((w) => w.issues.length > 0);
  return { waves, serialised_by_scope: plan.findings.filter((f) => f.code === "scope_conflict") };
}

export const NOTHING_READY = "no issue is READY; every one of them waits on a dependency or on its milestone's gate";
export const NOTHING_DECLARED = "the plan declares no issue to hand out";

/**
 * Why a claim finds nothing to hand out among `issues` (a milestone's, or the plan's), kind by kind:
 * taken (started, ACTIVE or VERIFY), blocked by an unfinished dependency, gated by a milestone.
 */
export function nothingToClaim(issues: readonly PlanIssue[]): string {
  if (issues.length === 0) return NOTHING_DECLARED;
  const some = (list: readonly PlanIssue[]) => list.slice(0, 5).map((i) => i.id).join(", ") + (list.length > 5 ? ", …" : "");
  const taken = issues.filter((i) => i.status === "ACTIVE" || i.status === "VERIFY");
  const blocked = issues.filter((i) => i.status === "BLOCKED");
  const gated = blocked.filter((i) => i.blocked_by.some((b) => b.startsWith("milestone:")));
  const waiting = blocked.filter((i) => !gated.includes(i));
  const gates = [...new Set(gated.flatMap((i) => i.blocked_by.filter((b) => b.startsWith("milestone:")).map((b) => b.slice("milestone:".length))))];
  const why = [
    taken.length ? `${taken.length} taken, started and not done (${some(taken)})` : "",
    waiting.length ? `${waiting.length} blocked by an unfinished dependency (${some(waiting)})` : "",
    gated.length ? `${gated.length} gated: milestone ${gates.join(", ")} waits on an unfinished milestone (${some(gated)})` : "",
  ].filter(Boolean);
  return `no issue is READY: ${why.length ? why.join("; ") : "every one is DONE or CANCELLED"}`;
}

export function planNext(plan: Plan, input: MilestoneFilter = {}): PlanNextIssue {
  const issue = pickNextIssue(plan, input.milestone);
  const active = input.milestone ?? plan.project.active_milestone;
  // The one read that does not refuse an unknown milestone: it widens to the whole plan, and says so.
  if (issue) return active !== "" && issue.milestone !== active ? { issue, active_milestone: active, widened: true } : { issue, active_milestone: active };
  const declared = plan.issues.some((i) => input.milestone === undefined || i.milestone === input.milestone);
  return { active_milestone: active, reason: declared ? NOTHING_READY : NOTHING_DECLARED };
}

export function planRoadmap(plan: Plan): PlanRoadmap {
  return deriveRoadmap(plan);
}

export function planValidate(plan: Plan): PlanValidation {
  let failures = 0;
  let warnings = 0;
  for (const f of plan.findings) {
    if (f.level === "FAIL") failures++;
    else warnings++;
  }
  return {
    valid: failures === 0,
    milestones: plan.milestones.length,
    issues: plan.issues.length,
    failures,
    warnings,
    findings: plan.findings,
  };
}

export function planRecord(plan: Plan, input: { id: string }): PlanRecord {
  const milestone = plan.milestones.find((m) => m.id === input.id);
  if (milestone) {
    return { milestone, issues: plan.issues.filter((i) => i.milestone === milestone.id) };
  }
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const issue = byId.get(input.id);
  if (issue) {
    const depends_on = issue.depends_on.flatMap((d) => {
      const dep = byId.get(d);
      return dep ? [dep] : [];
    });
    return { issue, depends_on };
  }
  throw notFound(`no milestone or issue '${input.id}'`);
}
