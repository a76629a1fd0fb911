import { pickNextIssue } from "./next-issue";
import { deriveRoadmap } from "./roadmap";
import type { Plan, PlanFinding } from "./shapes";
import { compareBytes } from "./text";

// What changes in the derived plan between two plans (before and after an edit, or two revisions):
// a pure function of the two, so the preview of an edit and a history of changes read alike.
// Findings are identified by (level, code, subject, message).

export interface Change<T> {
  from: T;
  to: T;
}

export interface IssueChange {
  id: string;
  /** "added" or "removed" when the issue appears or disappears; absent when it is in both. */
  presence?: "added" | "removed";
  status?: Change<string>;
  wave?: Change<number>;
  milestone?: Change<string>;
}

export interface MilestoneChange {
  id: string;
  presence?: "added" | "removed";
  status?: Change<string>;
}

export interface PlanDiff {
  issues: IssueChange[];
  milestones: MilestoneChange[];
  findings: { added: PlanFinding[]; resolved: PlanFinding[] };
  /** The scope conflicts among the added findings. */
  scope_conflicts: PlanFinding[];
  /** The issue to take next, by id ("" when none), when it changes. */
  next_issue?: Change<string>;
  roadmap: { now?: Change<string>; next?: Change<string> };
  /** Whether nothing derived changes. */
  is_empty: boolean;
}

const findingKey = (f: PlanFinding) => JSON.stringify([f.level, f.code, f.subject, f.message]);

function change<T>(from: T, to: T): Change<T> | undefined {
  return from === to ? undefined : { from, to };
}

/** The findings of `a` that `b` does not have, each as often as it is missing. */
function missingFrom(a: readonly PlanFinding[], b: readonly PlanFinding[]): PlanFinding[] {
  const counts = new Map<string, number>();
  for (const f of b) counts.set(findingKey(f), (counts.get(findingKey(f)) ?? 0) + 1);
  const out: PlanFinding[] = [];
  for (const f of a) {
    const k = findingKey(f);
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else out.push(f);
  }
  return out;
}

const byFinding = (x: PlanFinding, y: PlanFinding) => compareBytes(findingKey(x), findingKey(y));

export function diffPlans(before: Plan, after: Plan): PlanDiff {
  const issues: IssueChange[] = [];
  const beforeIssues = new Map(before.issues.map((i) => [i.id, i]));
  const afterIssues = new Map(after.issues.map((i) => [i.id, i]));
  for (const id of [...new Set([...beforeIssues.keys(), ...afterIssues.keys()])].sort(compareBytes)) {
    const a = beforeIssues.get(id);
    const b = afterIssues.get(id);
    if (!a || !b) {
      // A new issue's status, wave and milestone come from nothing ("" and -1).
      const shown = b ? { status: { from: "", to: b.status }, wave: { from: -1, to: b.wave }, milestone: { from: "", to: b.milestone } } : {};
      issues.push({ id, presence: a ? "removed" : "added", ...shown });
      continue;
    }
    const c: IssueChange = { id };
    const status = change(a.status, b.status);
    const wave = change(a.wave, b.wave);
    const milestone = change(a.milestone, b.milestone);
    if (status) c.status = status;
    if (wave) c.wave = wave;
    if (milestone) c.milestone = milestone;
    if (status || wave || milestone) issues.push(c);
  }

  const milestones: MilestoneChange[] = [];
  const beforeMs = new Map(before.milestones.map((m) => [m.id, m]));
  const afterMs = new Map(after.milestones.map((m) => [m.id, m]));
  for (const id of [...new Set([...beforeMs.keys(), ...afterMs.keys()])].sort(compareBytes)) {
    const a = beforeMs.get(id);
    const b = afterMs.get(id);
    if (!a || !b) {
      milestones.push({ id, presence: a ? "removed" : "added", ...(b ? { status: { from: "", to: b.status } } : {}) });
      continue;
    }
    const status = change(a.status, b.status);
    if (status) milestones.push({ id, status });
  }

  const added = missingFrom(after.findings, before.findings).sort(byFinding);
  const resolved = missingFrom(before.findings, after.findings).sort(byFinding);
  const next_issue = change(pickNextIssue(before)?.id ?? "", pickNextIssue(after)?.id ?? "");
  const ra = deriveRoadmap(before);
  const rb = deriveRoadmap(after);
  const now = change(ra.now ?? "", rb.now ?? "");
  const next = change(ra.next ?? "", rb.next ?? "");
  const roadmap = { ...(now ? { now } : {}), ...(next ? { next } : {}) };
  return {
    issues,
    milestones,
    findings: { added, resolved },
    scope_conflicts: added.filter((f) => f.code === "scope_conflict"),
    ...(next_issue ? { next_issue } : {}),
    roadmap,
    is_empty: issues.length + milestones.length + added.length + resolved.length === 0 && !next_issue && !now && !next,
  };
}
