/** Stamps recorded at or after this instant count only when sealed (ADR 0097). Compared as text. */
export const SEALED_FROM = "2026-10-01T00:00:00Z";

/** Issue statuses, in derivation order. */
export const ISSUE_STATUSES = ["READY", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED"] as const;
/** Milestone statuses, in derivation order. */
export const MILESTONE_STATUSES = ["PLANNED", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED", "SUPERSEDED"] as const;

export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

/** Where the plan lives inside a repository. */
export const PROJECT_DIR = ".ai/repo/project";
export const MILESTONES_DIR = `${PROJECT_DIR}/milestones`;
export const ISSUES_DIR = `${PROJECT_DIR}/issues`;
export const PROJECT_FILE = `${PROJECT_DIR}/project.yaml`;
/** The checkout-local, untracked ledger of moves. */
export const LEDGER_FILE = ".ai/local/state/ledger.jsonl";
