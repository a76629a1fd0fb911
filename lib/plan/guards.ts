// The guards of the moves (§6.2) and the claim's order (§3.5), as pure functions of the derived
// plan and its records. lib/repo/transition.ts applies them inside the lock and writes.
import { notFound } from "./errors";
import { SEALED_FROM } from "./constants";
import { derivePlan } from "./derive";
import { missingEvidence } from "./evidence-coverage";
import { priorityRank } from "./next-issue";
import type { PlanRecords } from "./records";
import { MOVES, sealOf, type Move } from "./seal";
import type { Plan, PlanIssue } from "./shapes";
import { compareBytes } from "./text";

export function findIssue(plan: Plan, id: string): PlanIssue {
  const issue = plan.issues.find((i) => i.id === id);
  if (!issue) throw notFound(`no issue '${id}'; cockpit plan issues lists every one`);
  return issue;
}

/** The derived plan as it would be with one issue's record changed in memory (`Plan::after`). */
export function planAfter(records: PlanRecords, id: string, move: Move, at: string, derive: (records: PlanRecords) => Plan): Plan {
  const { field, seal, event } = MOVES[move];
  return derive({
    ...records,
    issues: records.issues.map((r) => (r.id === id ? { ...r, [field]: at, [seal]: sealOf(event, id, at) } : r)),
  });
}

/** The guards of §6.2, first failure wins; undefined when the move is allowed. `at` is the move's stamp (the caller reads the clock). */
export function guardMove(
  plan: Plan,
  records: PlanRecords,
  issue: PlanIssue,
  move: Move,
  at: string,
  derive: (records: PlanRecords) => Plan = derivePlan,
): string | undefined {
  const problem = statusProblem(issue, move);
  if (problem !== undefined || move !== "done") return problem;
  return evidenceProblem(issue, records, planAfter(records, issue.id, "done", at, derive));
}

/** The guards that the issue's derived status decides: all of §6.2 but DONE's evidence. */
export function statusProblem(issue: PlanIssue, move: Move): string | undefined {
  const id = issue.id;
  if (move === "start") {
    if (issue.status === "READY") return undefined;
    const waiting = issue.blocked_by.length ? ` (waiting on ${issue.blocked_by.join(" ")})` : "";
    return `${id} is ${issue.status}, not READY${waiting}`;
  }
  if (move === "verify") {
    if (issue.status === "ACTIVE" || issue.status === "VERIFY") return undefined;
    return `${id} is ${issue.status}; only an ACTIVE issue can move to VERIFY`;
  }
  if (issue.blocked_by.length > 0) return `${id} cannot be DONE while ${issue.blocked_by.join(" ")} is not DONE`;
  if (issue.status !== "ACTIVE" && issue.status !== "VERIFY") {
    return `${id} is ${issue.status}; only an ACTIVE or VERIFY issue can move to DONE`;
  }
  return undefined;
}

/** DONE's last guard: the plan after the stamp says DONE (its evidence is complete). */
export function evidenceProblem(issue: PlanIssue, records: PlanRecords, after: Plan): string | undefined {
  const id = issue.id;
  if (after.issues.find((i) => i.id === id)?.status === "DONE") return undefined;
  const record = records.issues.find((r) => r.id === id);
  const missing = record ? missingEvidence(record) : [];
  if (missing.length > 0) return `${id} still needs evidence for: ${missing.join(", ")} (record it: cockpit plan evidence ${id} --covers ${missing[0]} …)`;
  return `${id} has evidence for ${issue.evidence_have} of ${issue.evidence_need} requirement(s) (record it: cockpit plan evidence ${id} --covers <token> …)`;
}

/** Every READY issue a claim may take, best first: the scope's (§3.5), then the rest of the plan. */
export function claimOrder(plan: Plan, milestone: string | undefined, status: "READY" | "ACTIVE" = "READY"): PlanIssue[] {
  const byChoice = (a: PlanIssue, b: PlanIssue) =>
    a.wave - b.wave || priorityRank(a.priority) - priorityRank(b.priority) || compareBytes(a.id, b.id);
  const ready = plan.issues.filter((i) => i.status === status);
  const scope = milestone ?? plan.project.active_milestone;
  const inScope = ready.filter((i) => scope === "" || i.milestone === scope).sort(byChoice);
  if (milestone !== undefined || scope === "") return inScope;
  return [...inScope, ...ready.filter((i) => i.milestone !== scope).sort(byChoice)];
}

export const CANONICAL_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const SEALED_FROM_MS = Date.parse(SEALED_FROM);

/** Whether a stamp provably predates seals: it reads as a time, and both that time and its text are earlier. */
export function predatesSeals(stamp: string): boolean {
  const at = Date.parse(stamp);
  return Number.isFinite(at) && at < SEALED_FROM_MS && compareBytes(stamp, SEALED_FROM) < 0;
}

