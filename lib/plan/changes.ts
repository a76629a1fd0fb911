import { knowsMilestone, unknownMilestone } from "./nearest";
import { pickNextIssue } from "./next-issue";
import { deriveRoadmap } from "./roadmap";
import type { Plan, PlanFinding, PlanIssue } from "./shapes";
import { compareBytes } from "./text";
import type { IssueCause, IssueChange, PlanDiff } from "./history-shapes";

// What changed between two derived plans: the issues whose status, wave or milestone differ (with
// what caused a status change), the milestones whose status changed, the findings that appeared
// or went, and the change of the next issue and of the roadmap's now and next.

const MOVES = [
  { move: "done", field: "completed_at" },
  { move: "verify", field: "verified_at" },
  { move: "start", field: "started_at" },
] as const;

/** The move a status change shows: the one whose stamp appeared and that leads to the new status. */
function moveCause(from: PlanIssue, to: PlanIssue): IssueCause | undefined {
  const appeared = MOVES.filter((m) => to[m.field] !== "" && to[m.field] !== from[m.field]);
  const wanted = to.status === "DONE" ? ["done"] : to.status === "VERIFY" ? ["verify", "done"] : to.status === "ACTIVE" ? ["start"] : [];
  for (const w of wanted) {
    const m = appeared.find((a) => a.move === w);
    if (m) return { kind: "move", move: m.move, field: m.field, stamp: to[m.field] };
  }
  return undefined;
}

const minus = (a: readonly string[], b: readonly string[]) => [...new Set(a.filter((x) => !b.includes(x)))];

/** Why an issue's status changed between two plans (both sides exist and differ). */
export function causeOf(from: PlanIssue, to: PlanIssue): IssueCause {
  if (to.status === "CANCELLED") return { kind: "cancelled" };
  const move = moveCause(from, to);
  if (move) return move;
  if (to.status === "DONE" && from.status === "VERIFY" && to.evidence_have > from.evidence_have) return { kind: "evidence" };
  if (to.status === "READY" && from.status === "BLOCKED") {
    // What stopped blocking: a dependency still declared finished; one no longer declared was dropped.
    const gone = minus(from.blocked_by, to.blocked_by);
    const finished = gone.filter((d) => d.startsWith("milestone:") || to.depends_on.includes(d));
    const dropped = gone.filter((d) => !finished.includes(d));
    return { kind: "unblocked", dependencies: finished, ...(dropped.length > 0 ? { dropped } : {}) };
  }
  if (to.status === "BLOCKED") {
    const added = minus(to.blocked_by, from.blocked_by);
    return { kind: "blocked", dependencies: added.length > 0 ? added : [...new Set(to.blocked_by)] };
  }
  return { kind: "other" };
}

const findingKey = (f: PlanFinding) => `${f.level}\u0000${f.code}\u0000${f.subject}\u0000${f.message}`;

/** The findings of `a` that `b` does not have, each once, in `a`'s order. */
function findingsOnlyIn(a: readonly PlanFinding[], b: readonly PlanFinding[], keep: (f: PlanFinding) => boolean): PlanFinding[] {
  const inB = new Set(b.map(findingKey));
  const seen = new Set<string>();
  const out: PlanFinding[] = [];
  for (const f of a) {
    const key = findingKey(f);
    if (inB.has(key) || seen.has(key) || !keep(f)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/** The difference of two derived plans; `milestone` keeps the issues, milestones and findings of one milestone. */
export function diffPlans(from: Plan, to: Plan, milestone?: string): PlanDiff {
  if (milestone !== undefined && !knowsMilestone(from, milestone) && !knowsMilestone(to, milestone)) {
    throw unknownMilestone(milestone, [...to.milestones, ...from.milestones].map((m) => m.id));
  }
  const before = new Map(from.issues.map((i) => [i.id, i]));
  const after = new Map(to.issues.map((i) => [i.id, i]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort(compareBytes);
  const ofMilestone = new Set<string>();
  const issues: IssueChange[] = [];
  for (const id of ids) {
    const a = before.get(id);
    const b = after.get(id);
    if (milestone !== undefined && a?.milestone !== milestone && b?.milestone !== milestone) continue;
    ofMilestone.add(id);
    if (a && b && a.status === b.status && a.wave === b.wave && a.milestone === b.milestone) continue;
    const now = (b ?? a)!;
    const change: IssueChange = {
      id,
      title: now.title,
      milestone: now.milestone,
      from: a?.status ?? null,
      to: b?.status ?? null,
      wave: { from: a?.wave ?? null, to: b?.wave ?? null },
      milestone_from: a?.milestone ?? null,
    };
    if (a && b && a.status !== b.status) change.cause = causeOf(a, b);
    issues.push(change);
  }

  const mBefore = new Map(from.milestones.map((m) => [m.id, m.status]));
  const mAfter = new Map(to.milestones.map((m) => [m.id, m.status]));
  const milestones = [...new Set([...mBefore.keys(), ...mAfter.keys()])]
    .sort(compareBytes)
    .filter((id) => (milestone === undefined || id === milestone) && mBefore.get(id) !== mAfter.get(id))
    .map((id) => ({ id, from: mBefore.get(id) ?? null, to: mAfter.get(id) ?? null }));

  const keep = (f: PlanFinding) => milestone === undefined || f.subject === milestone || ofMilestone.has(f.subject);
  const nextOf = (plan: Plan) => pickNextIssue(plan, milestone)?.id ?? null;
  const rFrom = deriveRoadmap(from);
  const rTo = deriveRoadmap(to);
  return {
    issues,
    milestones,
    findings: { new: findingsOnlyIn(to.findings, from.findings, keep), resolved: findingsOnlyIn(from.findings, to.findings, keep) },
    next: { from: nextOf(from), to: nextOf(to) },
    roadmap: { now: { from: rFrom.now ?? null, to: rTo.now ?? null }, next: { from: rFrom.next ?? null, to: rTo.next ?? null } },
  };
}
