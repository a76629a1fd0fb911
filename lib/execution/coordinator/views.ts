// What the coordinator answers: the views of a plan, its events and each operation's result.
import type { CockpitConfig } from "../../config";
import { type EvidenceInput } from "../../repo/transition";
import type { EventView, PlanDetail, PlanView } from "../shapes";
import { toCliDict } from "../cli-dict";
import { lastError, type EventRow, type PlanRow, type PlanTx } from "../store";

export type ExecutionTarget = { milestone: string } | { issues: string[] };

export interface CoordinatorOptions {
  /** The clock, in ms since the epoch (tests move it to trigger timeouts). */
  now?: () => number;
  /** Where the store lives (the configured database, else the clone's SQLite file); absent: the environment's. */
  config?: CockpitConfig;
}

export interface CreateOptions extends CoordinatorOptions {
  automation_profile?: string | null;
}

export interface AdvanceOptions extends CoordinatorOptions {
  /** The branch holding the child's result, merged into the root's integration branch on `apply`. */
  branch?: string;
}

export type EvidenceEntry = Omit<EvidenceInput, "record">;

// The views and results are inferred from the capabilities' schemas (../shapes.ts), declared once.
export type { AdvanceResult, ClaimResult, CompleteResult, EventView, FailResult, PlanDetail, PlanSummary, PlanView } from "../shapes";

// ---- small helpers -----------------------------------------------------------------------------

export async function view(tx: PlanTx, row: PlanRow, depth?: number): Promise<PlanView> {
  const d = depth ?? (await tx.depthOf(row.plan_id));
  const children: PlanView[] = [];
  for (const c of await tx.children(row.plan_id)) children.push(await view(tx, c, d + 1)); // one query at a time on a connection
  return {
    ...toCliDict(await tx.model(row.plan_id)),
    title: row.title,
    depth: d,
    issue: row.issue_id,
    wave: row.wave,
    branch: row.branch,
    integration_branch: row.integration_branch,
    base_commit: row.base_commit,
    last_error: lastError(row),
    cancel_reason: row.cancel_reason,
    retry_of: row.retry_of,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processing_started_at: row.processing_started_at,
    finished_at: row.finished_at,
    children,
  };
}

const eventView = (e: EventRow): EventView => ({ id: e.id, at: e.at, plan_id: e.plan_id, kind: e.kind, reason: e.reason, data: e.data });

// ---- the failure path, inside a transaction ----------------------------------------------------

export async function detail(tx: PlanTx, planId: string): Promise<PlanDetail> {
  const row = (await tx.plan(planId))!;
  const events = row.parent_plan_id === null ? await tx.events({ root: planId }) : await tx.events({ plan: planId });
  return { ...(await view(tx, row)), events: events.map(eventView) };
}

// Reads answer as if every call ticked first (children past their timeout show as timed out), but
// write nothing: the tick runs in a transaction that is rolled back, and the next command keeps it.
