/** Stamps recorded at or after this instant count only when sealed (ADR 0097). Compared as text. */
export const SEALED_FROM = "2026-10-01T00:00:00Z";

/** Issue statuses, in derivation order. */
export const ISSUE_STATUSES = ["READY", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED"] as const;
/** Milestone statuses, in derivation order. */
export const MILESTONE_STATUSES = ["PLANNED", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED", "SUPERSEDED"] as const;

/** Every finding code the derivation (plan-semantics §4) and the code links (code-links.md) raise. */
export const FINDING_CODES = [
  "unreadable_record",
  "schema",
  "self_dependency",
  "unknown_dependency",
  "duplicate_dependency",
  "no_milestone",
  "unknown_milestone",
  "no_acceptance",
  "no_validation",
  "no_evidence_required",
  "stamp_without_event",
  "evidence_missing",
  "cycle",
  "premature_execution",
  "milestone_self_dependency",
  "milestone_unknown_dependency",
  "milestone_duplicate_dependency",
  "milestone_cycle",
  "milestone_evidence_missing",
  "milestone_premature",
  "empty_milestone",
  "scope_conflict",
  "undeclared_status",
  "work_without_start",
  "merged_not_verified",
  "merged_not_done",
  "done_with_open_branch",
  "stalled",
  "too_many_refs",
  "too_many_branches",
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

/** Where the plan lives inside a repository. */
export const PROJECT_DIR = ".ai/repo/project";
export const MILESTONES_DIR = `${PROJECT_DIR}/milestones`;
export const ISSUES_DIR = `${PROJECT_DIR}/issues`;
export const PROJECT_FILE = `${PROJECT_DIR}/project.yaml`;
/** The checkout-local, untracked ledger of moves. */
export const LEDGER_FILE = ".ai/local/state/ledger.jsonl";
