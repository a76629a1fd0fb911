// Plan records in memory for the unit tests (records as the loader gives them), the plan derived
// from them, and the findings and entries a test looks for.
import { derivePlan } from "../../lib/plan/derive";
import { EMPTY_HEADER, type IssueRecord, type MilestoneRecord, type PlanRecords, type ProjectHeader } from "../../lib/plan/records";
import { sealOf } from "../../lib/plan/seal";
import type { Plan, PlanFinding, PlanIssue, PlanMilestone } from "../../lib/plan/shapes";

/** A canonical stamp after SEALED_FROM (only a seal makes it count). */
export const T1 = "2026-10-05T10:00:00Z";
export const T2 = "2026-10-05T11:00:00Z";
export const T3 = "2026-10-05T12:00:00Z";
/** A canonical stamp before SEALED_FROM (may be excused by `unsealed_stamps`). */
export const OLD = "2026-09-05T02:06:00Z";

/**
 * A complete issue record: milestone `M1`, one acceptance criterion, one validation,
 * `evidence_required: [proof]`, scope `src/<id>`, no stamps.
 */
export function makeIssue(over: Partial<IssueRecord> & { id: string }): IssueRecord {
  const id = over.id;
  return {
    milestone: "M1",
    title: `Issue ${id}`,
    slug: id.toLowerCase(),
    priority: "p1",
    profile: "implementation",
    objective: `Objective of ${id}`,
    parallel_safe: true,
    cancelled: false,
    depends_on: [],
    scope: [`src/${id}`],
    serves: [],
    acceptance_count: 1,
    validation_count: 1,
    evidence_required: ["proof"],
    covers: [],
    started_at: "",
    verified_at: "",
    completed_at: "",
    started_event: "",
    verified_event: "",
    completed_event: "",
    unsealed_stamps: [],
    ...over,
    id,
  };
}

/** A complete milestone record: order 0, priority p1, no evidence required, no dependencies. */
export function makeMilestone(over: Partial<MilestoneRecord> & { id: string }): MilestoneRecord {
  const id = over.id;
  return {
    title: `Milestone ${id}`,
    slug: id.toLowerCase(),
    order: 0,
    priority: "p1",
    version: "",
    cancelled: false,
    superseded_by: "",
    outcome: `Outcome of ${id}`,
    evidence_required: [],
    depends_on: [],
    claims: [],
    covers: [],
    ...over,
    id,
  };
}

export function records(input: {
  milestones?: MilestoneRecord[];
  issues?: IssueRecord[];
  project?: ProjectHeader;
  loadFindings?: PlanFinding[];
}): PlanRecords {
  return {
    project: input.project ?? { ...EMPTY_HEADER },
    milestones: input.milestones ?? [],
    issues: input.issues ?? [],
    loadFindings: input.loadFindings ?? [],
  };
}

/** Stamp fields with their seals (§1.7), ready to spread into `makeIssue`. */
export function sealedStamps(
  id: string,
  stamps: { start?: string; verify?: string; done?: string },
): Partial<IssueRecord> {
  const out: Partial<IssueRecord> = {};
  if (stamps.start !== undefined) {
    out.started_at = stamps.start;
    out.started_event = sealOf("plan_start", id, stamps.start);
  }
  if (stamps.verify !== undefined) {
    out.verified_at = stamps.verify;
    out.verified_event = sealOf("plan_verify", id, stamps.verify);
  }
  if (stamps.done !== undefined) {
    out.completed_at = stamps.done;
    out.completed_event = sealOf("plan_done", id, stamps.done);
  }
  return out;
}

/** An ACTIVE issue: sealed `started_at`. */
export function activeIssue(over: Partial<IssueRecord> & { id: string }): IssueRecord {
  return makeIssue({ ...sealedStamps(over.id, { start: T1 }), ...over });
}

/** A VERIFY issue: sealed `started_at` and `verified_at`. */
export function verifyIssue(over: Partial<IssueRecord> & { id: string }): IssueRecord {
  return makeIssue({ ...sealedStamps(over.id, { start: T1, verify: T2 }), ...over });
}

/** A DONE issue: sealed stamps and evidence covering `proof`. */
export function doneIssue(over: Partial<IssueRecord> & { id: string }): IssueRecord {
  return makeIssue({ ...sealedStamps(over.id, { start: T1, verify: T2, done: T3 }), covers: ["proof"], ...over });
}

/** Derive a plan from milestones and issues. */
export function planOf(milestones: MilestoneRecord[], issues: IssueRecord[]): Plan {
  return derivePlan(records({ milestones, issues }));
}

export function issueIn(plan: Plan, id: string): PlanIssue {
  const found = plan.issues.find((i) => i.id === id);
  if (!found) throw new Error(`no issue ${id} in the plan`);
  return found;
}

export function milestoneIn(plan: Plan, id: string): PlanMilestone {
  const found = plan.milestones.find((m) => m.id === id);
  if (!found) throw new Error(`no milestone ${id} in the plan`);
  return found;
}

export const fail = (code: PlanFinding["code"], subject: string, message: string): PlanFinding => ({
  level: "FAIL",
  code,
  subject,
  message,
});
export const warn = (code: PlanFinding["code"], subject: string, message: string): PlanFinding => ({
  level: "WARN",
  code,
  subject,
  message,
});

/** Findings with one code. */
export function findingsOf(plan: Plan, code: string): PlanFinding[] {
  return plan.findings.filter((f) => f.code === code);
}
