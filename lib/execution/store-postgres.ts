import type pg from "pg";
import { CapabilityError } from "../plan/errors";
import { database, redactUrl, unreachable } from "../coordination/database";
import { projectKey } from "../coordination/leases";
import { loadPlan } from "../repo";
import type { ProcessingState } from "./model";
import {
  PLAN_COLUMNS,
  PlanTx,
  SESSION_COLUMNS,
  ASK_COLUMNS,
  OUTBOX_COLUMNS,
  toAsk,
  toOutbox,
  type OutboxRow,
  type OutboxPatch,
  type AskRow,
  type AskPatch,
  insertValues,
  toSession,
  patchEntries,
  toEvent,
  toRow,
  type EventRow,
  type ExecutionStore,
  type NewEvent,
  type NewPlanRow,
  type PlanPatch,
  type PlanRow,
  type SessionPatch,
  type SessionRow,
} from "./store-rows";
import { processWide } from "../process-wide";

// The PostgreSQL backend: `cockpit_plans` and `cockpit_plan_events` (migration 4 of
// lib/coordination/database.ts), one database for many repositories, kept apart by project.
// Every write of a project holds that project's transaction-scoped advisory lock, as SQLite's
// BEGIN IMMEDIATE holds the file: so coordinators on any number of machines never hand out one
// child twice, and max_parallel holds across all of them.

/** The first key of the two-key advisory locks on a project's execution plans ("plan"). */
const PLANS_LOCK_SPACE = 0x706c616e;

const COLUMNS = ["seq", ...PLAN_COLUMNS].join(", ");
const EVENT_COLUMNS = "id, plan_id, root_plan_id, at, kind, reason, data";

class PostgresTx extends PlanTx {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly project: string,
  ) {
    super();
  }

  private async rows(sql: string, args: unknown[]): Promise<PlanRow[]> {
    const { rows } = await this.client.query(sql, [this.project, ...args]);
    return rows.map(toRow);
  }

  async insertPlan(row: NewPlanRow): Promise<PlanRow> {
    const values = insertValues(row);
    await this.client.query(
      `INSERT INTO cockpit_plans (project, seq, ${PLAN_COLUMNS.join(", ")})
       VALUES ($1, (SELECT coalesce(max(seq), 0) + 1 FROM cockpit_plans WHERE project = $1), ${values.map((_, i) => `$${i + 2}`).join(", ")})`,
      [this.project, ...values],
    );
    return (await this.plan(row.plan_id))!;
  }

  async updatePlan(planId: string, patch: PlanPatch, at: string): Promise<PlanRow> {
    const entries = patchEntries(patch, at);
    const sets = entries.map(([k], i) => `${k} = $${i + 3}`).join(", ");
    const { rowCount } = await this.client.query(`UPDATE cockpit_plans SET ${sets} WHERE project = $1 AND plan_id = $2`, [
      this.project,
      planId,
      ...entries.map(([, v]) => v),
    ]);
    if (rowCount !== 1) throw new Error(`no plan ${planId} to update`);
    return (await this.plan(planId))!;
  }

  async plan(planId: string): Promise<PlanRow | undefined> {
    return (await this.rows(`SELECT ${COLUMNS} FROM cockpit_plans WHERE project = $1 AND plan_id = $2`, [planId]))[0];
  }

  children(parentId: string): Promise<PlanRow[]> {
    return this.rows(`SELECT ${COLUMNS} FROM cockpit_plans WHERE project = $1 AND parent_plan_id = $2 ORDER BY seq`, [parentId]);
  }

  descendants(rootId: string): Promise<PlanRow[]> {
    return this.rows(`SELECT ${COLUMNS} FROM cockpit_plans WHERE project = $1 AND root_plan_id = $2 AND plan_id <> $2 ORDER BY seq`, [rootId]);
  }

  roots(): Promise<PlanRow[]> {
    return this.rows(`SELECT ${COLUMNS} FROM cockpit_plans WHERE project = $1 AND parent_plan_id IS NULL ORDER BY seq DESC`, []);
  }

  inState(state: ProcessingState): Promise<PlanRow[]> {
    return this.rows(`SELECT ${COLUMNS} FROM cockpit_plans WHERE project = $1 AND processing_state = $2 ORDER BY seq`, [state]);
  }

  async addEvent(e: NewEvent): Promise<EventRow> {
    const { rows } = await this.client.query<{ id: number }>(
      `INSERT INTO cockpit_plan_events (project, id, plan_id, root_plan_id, at, kind, reason, data)
       VALUES ($1, (SELECT coalesce(max(id), 0) + 1 FROM cockpit_plan_events WHERE project = $1), $2, $3, $4, $5, $6, $7)
       RETURNING id`,
      [this.project, e.plan_id, e.root_plan_id, e.at, e.kind, e.reason, JSON.stringify(e.data ?? {})],
    );
    return { ...e, id: rows[0].id, data: e.data ?? {} };
  }

  async events(filter: { root?: string; plan?: string }): Promise<EventRow[]> {
    const [column, arg] = filter.root ? ["root_plan_id", filter.root] : ["plan_id", filter.plan];
    const { rows } = await this.client.query(`SELECT ${EVENT_COLUMNS} FROM cockpit_plan_events WHERE project = $1 AND ${column} = $2 ORDER BY id`, [
      this.project,
      arg,
    ]);
    return rows.map(toEvent);
  }

  async lastEvent(rootId: string): Promise<EventRow | undefined> {
    const { rows } = await this.client.query(
      `SELECT ${EVENT_COLUMNS} FROM cockpit_plan_events WHERE project = $1 AND root_plan_id = $2 ORDER BY id DESC LIMIT 1`,
      [this.project, rootId],
    );
    return rows[0] ? toEvent(rows[0]) : undefined;
  }

  async clock(): Promise<Date> {
    const { rows } = await this.client.query<{ now: Date }>("SELECT now() AS now");
    return rows[0].now;
  }

  private async sessionRows(sql: string, args: unknown[]): Promise<SessionRow[]> {
    const { rows } = await this.client.query(sql, [this.project, ...args]);
    return rows.map(toSession);
  }

  async liveSession(issue: string): Promise<SessionRow | undefined> {
    return (await this.sessionRows(`SELECT ${SESSION_COLUMNS.join(", ")} FROM cockpit_sessions WHERE project = $1 AND issue = $2 AND ended IS NULL`, [issue]))[0];
  }

  sessionsOf(issue: string): Promise<SessionRow[]> {
    return this.sessionRows(`SELECT ${SESSION_COLUMNS.join(", ")} FROM cockpit_sessions WHERE project = $1 AND issue = $2 ORDER BY epoch DESC`, [issue]);
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.client.query(
      `INSERT INTO cockpit_sessions (project, ${SESSION_COLUMNS.join(", ")}) VALUES ($1, ${SESSION_COLUMNS.map((_, i) => `$${i + 2}`).join(", ")})`,
      [this.project, ...SESSION_COLUMNS.map((c) => row[c])],
    );
  }

  async updateSession(session: string, patch: SessionPatch): Promise<void> {
    const entries = Object.entries(patch);
    if (entries.length === 0) return;
    await this.client.query(`UPDATE cockpit_sessions SET ${entries.map(([k], i) => `${k} = $${i + 3}`).join(", ")} WHERE project = $1 AND session = $2`, [
      this.project,
      session,
      ...entries.map(([, v]) => v),
    ]);
  }

  async deleteSession(session: string): Promise<void> {
    await this.client.query("DELETE FROM cockpit_sessions WHERE project = $1 AND session = $2", [this.project, session]);
  }

  async deletePlanTree(rootId: string): Promise<{ plans: number; events: number }> {
    const events = await this.client.query("DELETE FROM cockpit_plan_events WHERE project = $1 AND root_plan_id = $2", [this.project, rootId]);
    // One statement: the plans that name a parent or a retry in the tree go with it.
    const plans = await this.client.query("DELETE FROM cockpit_plans WHERE project = $1 AND root_plan_id = $2", [this.project, rootId]);
    return { plans: plans.rowCount ?? 0, events: events.rowCount ?? 0 };
  }

  sessions(endedSince: string): Promise<SessionRow[]> {
    return this.sessionRows(`SELECT ${SESSION_COLUMNS.join(", ")} FROM cockpit_sessions WHERE project = $1 AND (ended IS NULL OR ended_at >= $2) ORDER BY since, session`, [endedSince]);
  }

  async addToOutbox(rows: OutboxRow[]): Promise<OutboxRow[]> {
    const added: OutboxRow[] = [];
    for (const row of rows) {
      const r = await this.client.query(
        `INSERT INTO cockpit_notify_outbox (project, ${OUTBOX_COLUMNS.join(", ")}) VALUES ($1, ${OUTBOX_COLUMNS.map((_, i) => `$${i + 2}`).join(", ")}) ON CONFLICT (project, key, url) DO NOTHING`,
        [this.project, ...OUTBOX_COLUMNS.map((c) => row[c])],
      );
      if (r.rowCount === 1) added.push(row);
    }
    return added;
  }

  async outboxKnows(url: string): Promise<boolean> {
    const { rows } = await this.client.query("SELECT 1 FROM cockpit_notify_outbox WHERE project = $1 AND url = $2 LIMIT 1", [this.project, url]);
    return rows.length > 0;
  }

  async outboxKeys(url: string): Promise<Set<string>> {
    const { rows } = await this.client.query<{ key: string }>("SELECT key FROM cockpit_notify_outbox WHERE project = $1 AND url = $2", [this.project, url]);
    return new Set(rows.map((r) => r.key));
  }

  async outboxDue(now: string, limit: number): Promise<OutboxRow[]> {
    const { rows } = await this.client.query(
      `SELECT ${OUTBOX_COLUMNS.join(", ")} FROM cockpit_notify_outbox WHERE project = $1 AND delivered_at IS NULL AND failed IS NULL AND next_at <= $2 ORDER BY created, key LIMIT $3`,
      [this.project, now, limit],
    );
    return rows.map(toOutbox);
  }

  async updateOutbox(key: string, url: string, patch: OutboxPatch): Promise<void> {
    const entries = Object.entries(patch);
    if (entries.length === 0) return;
    await this.client.query(`UPDATE cockpit_notify_outbox SET ${entries.map(([k], i) => `${k} = $${i + 4}`).join(", ")} WHERE project = $1 AND key = $2 AND url = $3`, [
      this.project,
      key,
      url,
      ...entries.map(([, v]) => v),
    ]);
  }

  private async askRows(sql: string, args: unknown[]): Promise<AskRow[]> {
    const { rows } = await this.client.query(sql, [this.project, ...args]);
    return rows.map(toAsk);
  }

  async insertAsk(row: AskRow): Promise<void> {
    await this.client.query(`INSERT INTO cockpit_asks (project, ${ASK_COLUMNS.join(", ")}) VALUES ($1, ${ASK_COLUMNS.map((_, i) => `$${i + 2}`).join(", ")})`, [
      this.project,
      ...ASK_COLUMNS.map((c) => row[c]),
    ]);
  }

  async updateAsk(ask: string, patch: AskPatch): Promise<void> {
    const entries = Object.entries(patch);
    if (entries.length === 0) return;
    await this.client.query(`UPDATE cockpit_asks SET ${entries.map(([k], i) => `${k} = $${i + 3}`).join(", ")} WHERE project = $1 AND ask = $2`, [
      this.project,
      ask,
      ...entries.map(([, v]) => v),
    ]);
  }

  async askById(ask: string): Promise<AskRow | undefined> {
    return (await this.askRows(`SELECT ${ASK_COLUMNS.join(", ")} FROM cockpit_asks WHERE project = $1 AND ask = $2`, [ask]))[0];
  }

  async openAskLike(issue: string, kind: string, question: string): Promise<AskRow | undefined> {
    return (await this.askRows(`SELECT ${ASK_COLUMNS.join(", ")} FROM cockpit_asks WHERE project = $1 AND issue = $2 AND kind = $3 AND question = $4 AND ended IS NULL`, [issue, kind, question]))[0];
  }

  asks(endedSince: string, issue?: string): Promise<AskRow[]> {
    const columns = ASK_COLUMNS.join(", ");
    return issue === undefined
      ? this.askRows(`SELECT ${columns} FROM cockpit_asks WHERE project = $1 AND (ended IS NULL OR ended_at >= $2) ORDER BY opened, ask`, [endedSince])
      : this.askRows(`SELECT ${columns} FROM cockpit_asks WHERE project = $1 AND issue = $3 AND (ended IS NULL OR ended_at >= $2) ORDER BY opened, ask`, [endedSince, issue]);
  }
}

/** An error of the connection (not of a statement): the database cannot be used. */
function isConnectionError(error: unknown): boolean {
  if (error instanceof CapabilityError) return false;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && (/^(08|53|57P)/.test(code) || /^E[A-Z]+$/.test(code))) return true;
  const text = error instanceof Error ? error.message : String(error);
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(text);
}

// The writes of one project in this process queue here first, so they wait on the database's lock
// one connection at a time, and a busy project cannot take every connection of the pool.
const queues = processWide("plan-store-queues", () => new Map<string, Promise<unknown>>());

function queued<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

export class PostgresStore implements ExecutionStore {
  readonly backend = "postgres" as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    readonly project: string,
  ) {}

  get where(): string {
    return redactUrl(this.url);
  }

  private async transaction<T>(mode: "write" | "read" | "preview", fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw unreachable(this.url, error);
    }
    let broken = false;
    try {
      await client.query(mode === "read" ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
      if (mode !== "read") await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [PLANS_LOCK_SPACE, this.project]);
      const value = await fn(new PostgresTx(client, this.project));
      await client.query(mode === "preview" ? "ROLLBACK" : "COMMIT");
      return value;
    } catch (error) {
      broken = isConnectionError(error);
      if (!broken) await client.query("ROLLBACK").catch(() => undefined);
      throw broken ? unreachable(this.url, error) : error;
    } finally {
      client.release(broken);
    }
  }

  write<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    return queued(`${this.url}\n${this.project}`, () => this.transaction("write", fn));
  }

  read<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    return this.transaction("read", fn);
  }

  preview<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    return queued(`${this.url}\n${this.project}`, () => this.transaction("preview", fn));
  }

  async schemaVersions(): Promise<number[]> {
    try {
      const { rows } = await this.pool.query<{ version: number }>("SELECT version FROM cockpit_schema ORDER BY version");
      return rows.map((r) => r.version);
    } catch (error) {
      throw unreachable(this.url, error);
    }
  }
}

/** The execution store of a repository's project in the database at `url` (migrated on first use). */
export async function openPostgresStore(url: string, repo: string, project = projectKey(loadPlan(repo))): Promise<PostgresStore> {
  return new PostgresStore(await database(url), url, project);
}
