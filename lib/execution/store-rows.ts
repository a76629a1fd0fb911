import { parseSubplanConfig, type SubplanConfig } from "./config";
import type { ErrorCategory } from "./failure";
import { createPlan, type EventKind, type ExecutionPlan, type Phase, type PlanError, type ProcessingState, type SubplanStatus } from "./model";

// The rows of the execution store and what a transaction can do with them, shared by both backends.

/** One row of `plans`, with JSON columns parsed. */
export interface PlanRow {
  seq: number;
  plan_id: string;
  parent_plan_id: string | null;
  root_plan_id: string;
  phase: Phase;
  processing_state: ProcessingState;
  automation_profile: string | null;
  attempt: number;
  subplan_config: SubplanConfig | null;
  title: string;
  target: unknown;
  issue_id: string | null;
  wave: number | null;
  branch: string | null;
  integration_branch: string | null;
  base_commit: string | null;
  /** Written by the coordinator alone: a failure's category, or cancelled for a root whose children were all cancelled. */
  error_category: ErrorCategory | "cancelled" | null;
  error_message: string | null;
  cancel_reason: string | null;
  retry_of: string | null;
  report_lock: string | null;
  created_at: string;
  updated_at: string;
  processing_started_at: string | null;
  finished_at: string | null;
}

export type NewPlanRow = Omit<PlanRow, "seq" | "updated_at" | "report_lock"> & { report_lock?: string | null };

/** A plan as it starts: queued in strategize, attempt 1, nothing set; `fields` says what differs. */
export function newPlanRow(
  fields: Pick<NewPlanRow, "plan_id" | "parent_plan_id" | "root_plan_id" | "title" | "created_at"> & Partial<NewPlanRow>,
): NewPlanRow {
  return {
    phase: "strategize",
    processing_state: "queued",
    automation_profile: null,
    attempt: 1,
    subplan_config: null,
    target: null,
    issue_id: null,
    wave: null,
    branch: null,
    integration_branch: null,
    base_commit: null,
    error_category: null,
    error_message: null,
    cancel_reason: null,
    retry_of: null,
    processing_started_at: null,
    finished_at: null,
    ...fields,
  };
}

export type PlanPatch = Partial<Omit<PlanRow, "seq" | "plan_id" | "parent_plan_id" | "root_plan_id" | "created_at">>;

export interface EventRow {
  id: number;
  plan_id: string;
  root_plan_id: string;
  at: string;
  kind: EventKind;
  reason: string;
  data: Record<string, unknown>;
}

export type NewEvent = Omit<EventRow, "id" | "data"> & { data?: Record<string, unknown> };

/** The plan columns a backend writes, in table order (seq is the backend's). */
export const PLAN_COLUMNS = [
  "plan_id",
  "parent_plan_id",
  "root_plan_id",
  "phase",
  "processing_state",
  "automation_profile",
  "attempt",
  "subplan_config",
  "title",
  "target",
  "issue_id",
  "wave",
  "branch",
  "integration_branch",
  "base_commit",
  "error_category",
  "error_message",
  "cancel_reason",
  "retry_of",
  "report_lock",
  "created_at",
  "updated_at",
  "processing_started_at",
  "finished_at",
] as const;

const JSON_COLUMNS = new Set(["subplan_config", "target"]);

type RawRow = Record<string, unknown>;

/** A stored row as the model reads it: JSON texts parsed. Both backends store the same texts. */
export function toRow(raw: RawRow): PlanRow {
  return {
    ...(raw as unknown as PlanRow),
    subplan_config: raw.subplan_config == null ? null : parseSubplanConfig(JSON.parse(String(raw.subplan_config))),
    target: raw.target == null ? null : JSON.parse(String(raw.target)),
  };
}

export function toEvent(raw: RawRow): EventRow {
  return { ...(raw as unknown as EventRow), data: JSON.parse(String(raw.data)) };
}

export function toColumn(key: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (JSON_COLUMNS.has(key)) return value === null ? null : JSON.stringify(value);
  return value;
}

/** The values of a new row, in PLAN_COLUMNS order. */
export function insertValues(row: NewPlanRow): unknown[] {
  return PLAN_COLUMNS.map((c) => (c === "updated_at" ? row.created_at : toColumn(c, (row as Record<string, unknown>)[c])));
}

/** The columns and values a patch changes, `updated_at` included. */
export function patchEntries(patch: PlanPatch, at: string): [string, unknown][] {
  return Object.entries({ ...patch, updated_at: at })
    .filter(([k]) => (PLAN_COLUMNS as readonly string[]).includes(k))
    .map(([k, v]) => [k, toColumn(k, v)]);
}

/** What a transaction can do: the plans and events of one repository (one project). */
/**
 * A session: one actor's hold on one issue (lib/coordination/sessions.ts). At most one session of
 * an issue is not ended (the store's unique index says so); its lease is live until `expires`.
 * Times are ISO 8601 texts of the store's clock, in milliseconds.
 */
export interface SessionRow {
  session: string;
  issue: string;
  actor: string;
  kind: "agent" | "person";
  /** Grows by one each time the issue's lease changes hands. */
  epoch: number;
  since: string;
  last_seen: string;
  expires: string;
  note: string | null;
  ended: "released" | "finished" | "reclaimed" | null;
  ended_at: string | null;
  /** Who ended it: the reclaimer, the releaser, or the actor whose move finished it. */
  ended_by: string | null;
}

export const SESSION_COLUMNS = ["session", "issue", "actor", "kind", "epoch", "since", "last_seen", "expires", "note", "ended", "ended_at", "ended_by"] as const;

export function toSession(raw: Record<string, unknown>): SessionRow {
  return {
    session: String(raw.session),
    issue: String(raw.issue),
    actor: String(raw.actor),
    kind: raw.kind === "agent" ? "agent" : "person",
    epoch: Number(raw.epoch),
    since: String(raw.since),
    last_seen: String(raw.last_seen),
    expires: String(raw.expires),
    note: raw.note === null || raw.note === undefined ? null : String(raw.note),
    ended: raw.ended === "released" || raw.ended === "finished" || raw.ended === "reclaimed" ? raw.ended : null,
    ended_at: raw.ended_at === null || raw.ended_at === undefined ? null : String(raw.ended_at),
    ended_by: raw.ended_by === null || raw.ended_by === undefined ? null : String(raw.ended_by),
  };
}

/** The columns of a session that change after it is opened. */
export type SessionPatch = Partial<Pick<SessionRow, "last_seen" | "expires" | "note" | "ended" | "ended_at" | "ended_by">>;

/**
 * An ask: a question an actor puts to a person about an issue (lib/coordination/asks.ts). At most
 * one open ask has one issue, kind and question (the store's unique index says so). `options`
 * (choose) and `answer` are JSON texts; times are ISO 8601 texts of the store's clock.
 */
export interface AskRow {
  ask: string;
  issue: string;
  /** The asker's session on the issue when it asked, if it held one. */
  session: string | null;
  asker: string;
  asker_kind: "agent" | "person";
  kind: "approve" | "choose" | "answer";
  question: string;
  options: string;
  opened: string;
  ended: "answered" | "withdrawn" | "closed" | null;
  ended_at: string | null;
  ended_by: string | null;
  /** What closed it (closed), or the answer's JSON (answered). */
  answer: string | null;
  reason: string | null;
}

export const ASK_COLUMNS = ["ask", "issue", "session", "asker", "asker_kind", "kind", "question", "options", "opened", "ended", "ended_at", "ended_by", "answer", "reason"] as const;

const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function toAsk(raw: Record<string, unknown>): AskRow {
  return {
    ask: String(raw.ask),
    issue: String(raw.issue),
    session: textOrNull(raw.session),
    asker: String(raw.asker),
    asker_kind: raw.asker_kind === "agent" ? "agent" : "person",
    kind: raw.kind === "approve" || raw.kind === "choose" ? raw.kind : "answer",
    question: String(raw.question),
    options: String(raw.options ?? "[]"),
    opened: String(raw.opened),
    ended: raw.ended === "answered" || raw.ended === "withdrawn" || raw.ended === "closed" ? raw.ended : null,
    ended_at: textOrNull(raw.ended_at),
    ended_by: textOrNull(raw.ended_by),
    answer: textOrNull(raw.answer),
    reason: textOrNull(raw.reason),
  };
}

/**
 * One notification for one receiver (lib/notify): kept until it is delivered, refused (a 4xx) or
 * an hour old. `key` names what happened (the delivery id): the same key and URL are one row, so a
 * second server on the same database that sees the same thing adds nothing.
 */
export interface OutboxRow {
  key: string;
  url: string;
  event: string;
  body: string;
  created: string;
  attempts: number;
  next_at: string;
  /** When the receiver took it; "baseline" for what was already so when notifying began (never sent). */
  delivered_at: string | null;
  /** Why it is given up: a 4xx, or an hour of failures. */
  failed: string | null;
}

export const OUTBOX_COLUMNS = ["key", "url", "event", "body", "created", "attempts", "next_at", "delivered_at", "failed"] as const;

export function toOutbox(raw: Record<string, unknown>): OutboxRow {
  return {
    key: String(raw.key),
    url: String(raw.url),
    event: String(raw.event),
    body: String(raw.body),
    created: String(raw.created),
    attempts: Number(raw.attempts),
    next_at: String(raw.next_at),
    delivered_at: textOrNull(raw.delivered_at),
    failed: textOrNull(raw.failed),
  };
}

export type OutboxPatch = Partial<Pick<OutboxRow, "attempts" | "next_at" | "delivered_at" | "failed">>;

/** The columns of an ask that change after it is opened: its end. */
export type AskPatch = Partial<Pick<AskRow, "ended" | "ended_at" | "ended_by" | "answer" | "reason">>;

export abstract class PlanTx {
  /** The store's clock: the database's for PostgreSQL, this machine's for the SQLite file. */
  abstract clock(): Promise<Date>;
  /** The issue's session that is not ended, if any (its lease may have expired). */
  abstract liveSession(issue: string): Promise<SessionRow | undefined>;
  /** Every session of an issue, newest epoch first. */
  abstract sessionsOf(issue: string): Promise<SessionRow[]>;
  abstract insertSession(row: SessionRow): Promise<void>;
  abstract updateSession(session: string, patch: SessionPatch): Promise<void>;
  /** Remove a session that never held anything (its move was refused after it was opened). */
  abstract deleteSession(session: string): Promise<void>;
  /** Remove a root plan, every plan under it and all their events; answers how many plans and events went. */
  abstract deletePlanTree(rootId: string): Promise<{ plans: number; events: number }>;
  /** The sessions not ended, and those ended at or after `endedSince`, oldest first. */
  abstract sessions(endedSince: string): Promise<SessionRow[]>;
  abstract insertAsk(row: AskRow): Promise<void>;
  abstract updateAsk(ask: string, patch: AskPatch): Promise<void>;
  abstract askById(ask: string): Promise<AskRow | undefined>;
  /** The open ask with this issue, kind and question, if any. */
  abstract openAskLike(issue: string, kind: string, question: string): Promise<AskRow | undefined>;
  /** The open asks and those ended at or after `endedSince` (of one issue, when given), oldest first. */
  abstract asks(endedSince: string, issue?: string): Promise<AskRow[]>;
  /** Add the rows whose key and URL are not there yet; answers those added. */
  abstract addToOutbox(rows: OutboxRow[]): Promise<OutboxRow[]>;
  /** Whether any row was ever kept for this URL (a receiver's first pass is a baseline). */
  abstract outboxKnows(url: string): Promise<boolean>;
  /** Every key kept for a URL. */
  abstract outboxKeys(url: string): Promise<Set<string>>;
  /** The rows neither delivered nor given up whose time has come, oldest first. */
  abstract outboxDue(now: string, limit: number): Promise<OutboxRow[]>;
  abstract updateOutbox(key: string, url: string, patch: OutboxPatch): Promise<void>;

  abstract insertPlan(row: NewPlanRow): Promise<PlanRow>;
  /** Change some columns of a plan; `updated_at` is set to `at`. */
  abstract updatePlan(planId: string, patch: PlanPatch, at: string): Promise<PlanRow>;
  abstract plan(planId: string): Promise<PlanRow | undefined>;
  /** The direct children of a plan, in creation order. */
  abstract children(parentId: string): Promise<PlanRow[]>;
  /** Every plan under a root (not the root itself), in creation order. */
  abstract descendants(rootId: string): Promise<PlanRow[]>;
  /** Every root plan, newest first. */
  abstract roots(): Promise<PlanRow[]>;
  /** Every plan in a processing state, in creation order. */
  abstract inState(state: ProcessingState): Promise<PlanRow[]>;
  abstract addEvent(e: NewEvent): Promise<EventRow>;
  /** Events of a whole tree (by root) or of one plan, oldest first. */
  abstract events(filter: { root?: string; plan?: string }): Promise<EventRow[]>;
  abstract lastEvent(rootId: string): Promise<EventRow | undefined>;

  /** The true depth of a plan: 0 for a root, 1 for its children, …, found by walking its ancestors. */
  async depthOf(planId: string): Promise<number> {
    let depth = 0;
    let row = await this.plan(planId);
    if (!row) throw new Error(`no plan ${planId}`);
    const seen = new Set<string>([planId]);
    while (row.parent_plan_id !== null) {
      if (seen.has(row.parent_plan_id)) throw new Error(`plan ${planId} has a cycle among its ancestors`);
      seen.add(row.parent_plan_id);
      const parent: PlanRow | undefined = await this.plan(row.parent_plan_id);
      if (!parent) throw new Error(`plan ${row.plan_id} names a parent ${row.parent_plan_id} that is not stored`);
      row = parent;
      depth++;
    }
    return depth;
  }

  /** The parent's view of each child: id, phase, processing state, attempt, last error. */
  async subplanStatuses(planId: string): Promise<SubplanStatus[]> {
    return (await this.children(planId)).map((c) => ({
      plan_id: c.plan_id,
      phase: c.phase,
      processing_state: c.processing_state,
      attempt: c.attempt,
      last_error: lastError(c),
    }));
  }

  /** The model object of a stored plan (validated by the model), with its subplan statuses. */
  async model(planId: string): Promise<ExecutionPlan> {
    const row = await this.plan(planId);
    if (!row) throw new Error(`no plan ${planId}`);
    return createPlan({
      plan_id: row.plan_id,
      parent_plan_id: row.parent_plan_id,
      root_plan_id: row.root_plan_id,
      phase: row.phase,
      processing_state: row.processing_state,
      automation_profile: row.automation_profile,
      attempt: row.attempt,
      subplan_config: row.subplan_config,
      subplan_statuses: await this.subplanStatuses(planId),
    });
  }
}

export interface ExecutionStore {
  readonly backend: "sqlite" | "postgres";
  /** The file, or the database URL without its password. */
  readonly where: string;
  /** A read-modify-write: no other writer of this project interleaves (SQLite BEGIN IMMEDIATE, a PostgreSQL lock). */
  write<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T>;
  /** A consistent read (one snapshot). */
  read<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T>;
  /** A write whose changes are rolled back: what a read would see if the writes were made, with nothing written. */
  preview<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T>;
  /** The applied schema versions, ascending. */
  schemaVersions(): Promise<number[]>;
}

/** A plan row's last error, or null. */
export function lastError(row: Pick<PlanRow, "error_category" | "error_message">): (PlanError & { category: ErrorCategory | "cancelled" }) | null {
  return row.error_category === null ? null : { category: row.error_category, message: row.error_message ?? "" };
}
