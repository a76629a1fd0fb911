// The coordinator: execution plans meet the roadmap (docs/execution-plans.md "How it meets the roadmap").
// Every decision is an event with its reason; every decision re-reads the stored state inside a
// write transaction of the store (SQLite's BEGIN IMMEDIATE, or the project's lock on PostgreSQL),
// so several processes, on one machine or many, can drive one plan at once. Issue moves go through
// lib/repo's transitions (their own lock, records and ledger), which are asynchronous: a report
// that moves an issue checks the child in one transaction, moves the issue, and records the
// outcome in a second transaction that re-reads the child (a `report_lock` keeps two reports for
// one child from interleaving).
//
// One file per operation (create, claim, advance, complete, fail, tick, read) over the shared
// views (views.ts), the settling of a root's children (settle.ts) and the reports' lock (report.ts).

export { advance } from "./advance";
export { claimNext } from "./claim";
export { complete } from "./complete";
export { createExecutionPlan, type DecomposePreview } from "./create";
export { deleteExecutionPlan, type DeleteResult } from "./delete";
export { fail } from "./fail";
export { getPlan, listPlans } from "./read";
export { integrationBranchName } from "./shared";
export { tick } from "./tick";
export { type ExecutionTarget, type CoordinatorOptions, type CreateOptions, type AdvanceOptions, type EvidenceEntry, type EventView, type PlanView, type PlanDetail, type PlanSummary, type ClaimResult, type FailResult, type AdvanceResult, type CompleteResult } from "./views";
