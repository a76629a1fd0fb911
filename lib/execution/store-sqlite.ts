import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { refused } from "../plan/errors";
import { makeStateFolders, stateLinkProblem } from "../repo/state-path";
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

// The SQLite backend: <repo>/.ai/local/state/cockpit.db, checkout-local and untracked like the
// ledger. WAL, a 10 s busy timeout, numbered migrations recorded in `schema_migrations`.
// better-sqlite3 is synchronous, so a transaction that awaits is explicit (`BEGIN IMMEDIATE` …
// `COMMIT`), and the transactions of one connection queue behind each other in this process.

export const STORE_FILE = ".ai/local/state/cockpit.db";
/** The store and the files SQLite keeps beside it: none may be reached through a link. */
export const STORE_STATE = [STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`, `${STORE_FILE}-journal`] as const;
export const BUSY_TIMEOUT_MS = 10_000;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append only: a released migration is never edited, a change is a new number. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "plans and events",
    sql: `
      CREATE TABLE plans (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        plan_id TEXT NOT NULL UNIQUE,
        parent_plan_id TEXT REFERENCES plans(plan_id),
        root_plan_id TEXT NOT NULL,
        phase TEXT NOT NULL CHECK (phase IN ('action', 'strategize', 'execute', 'apply')),
        processing_state TEXT NOT NULL CHECK (processing_state IN ('queued', 'processing', 'completed', 'errored', 'cancelled')),
        automation_profile TEXT,
        attempt INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
        subplan_config TEXT,
        title TEXT NOT NULL DEFAULT '',
        target TEXT,
        issue_id TEXT,
        wave INTEGER,
        branch TEXT,
        integration_branch TEXT,
        base_commit TEXT,
        error_category TEXT,
        error_message TEXT,
        cancel_reason TEXT,
        retry_of TEXT REFERENCES plans(plan_id),
        report_lock TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        processing_started_at TEXT,
        finished_at TEXT
      );
      CREATE INDEX plans_by_parent ON plans(parent_plan_id, seq);
      CREATE INDEX plans_by_root ON plans(root_plan_id, seq);
      CREATE INDEX plans_by_state ON plans(processing_state);
      CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        plan_id TEXT NOT NULL,
        root_plan_id TEXT NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        reason TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX events_by_root ON events(root_plan_id, id);
      CREATE INDEX events_by_plan ON events(plan_id, id);
    `,
  },
  {
    version: 2,
    name: "sessions",
    sql: `
      CREATE TABLE sessions (
        session TEXT PRIMARY KEY,
        issue TEXT NOT NULL,
        actor TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('agent', 'person')),
        epoch INTEGER NOT NULL CHECK (epoch >= 1),
        since TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        expires TEXT NOT NULL,
        note TEXT,
        ended TEXT CHECK (ended IN ('released', 'finished', 'reclaimed')),
        ended_at TEXT,
        ended_by TEXT
      );
      CREATE UNIQUE INDEX sessions_one_live ON sessions(issue) WHERE ended IS NULL;
      CREATE UNIQUE INDEX sessions_by_epoch ON sessions(issue, epoch);
      CREATE INDEX sessions_by_end ON sessions(ended_at);
    `,
  },
  {
    version: 3,
    name: "asks",
    sql: `
      CREATE TABLE asks (
        ask TEXT PRIMARY KEY,
        issue TEXT NOT NULL,
        session TEXT,
        asker TEXT NOT NULL,
        asker_kind TEXT NOT NULL CHECK (asker_kind IN ('agent', 'person')),
        kind TEXT NOT NULL CHECK (kind IN ('approve', 'choose', 'answer')),
        question TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '[]',
        opened TEXT NOT NULL,
        ended TEXT CHECK (ended IN ('answered', 'withdrawn', 'closed')),
        ended_at TEXT,
        ended_by TEXT,
        answer TEXT,
        reason TEXT
      );
      CREATE UNIQUE INDEX asks_one_open ON asks(issue, kind, question) WHERE ended IS NULL;
      CREATE INDEX asks_by_end ON asks(ended_at);
      CREATE INDEX asks_by_issue ON asks(issue, opened);
    `,
  },
  {
    version: 4,
    name: "notify_outbox",
    sql: `
      CREATE TABLE notify_outbox (
        key TEXT NOT NULL,
        url TEXT NOT NULL,
        event TEXT NOT NULL,
        body TEXT NOT NULL,
        created TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at TEXT NOT NULL,
        delivered_at TEXT,
        failed TEXT,
        PRIMARY KEY (key, url)
      );
      CREATE INDEX notify_outbox_due ON notify_outbox(next_at) WHERE delivered_at IS NULL AND failed IS NULL;
    `,
  },
];

type RawRow = Record<string, unknown>;

class SqliteTx extends PlanTx {
  constructor(private readonly store: SqliteStore) {
    super();
  }

  private sql(text: string): Database.Statement {
    return this.store.statement(text);
  }

  async insertPlan(row: NewPlanRow): Promise<PlanRow> {
    this.sql(`INSERT INTO plans (${PLAN_COLUMNS.join(", ")}) VALUES (${PLAN_COLUMNS.map(() => "?").join(", ")})`).run(...insertValues(row));
    return (await this.plan(row.plan_id))!;
  }

  async updatePlan(planId: string, patch: PlanPatch, at: string): Promise<PlanRow> {
    const entries = patchEntries(patch, at);
    const info = this.sql(`UPDATE plans SET ${entries.map(([k]) => `${k} = ?`).join(", ")} WHERE plan_id = ?`).run(...entries.map(([, v]) => v), planId);
    if (info.changes !== 1) throw new Error(`no plan ${planId} to update`);
    return (await this.plan(planId))!;
  }

  async plan(planId: string): Promise<PlanRow | undefined> {
    const raw = this.sql("SELECT * FROM plans WHERE plan_id = ?").get(planId) as RawRow | undefined;
    return raw ? toRow(raw) : undefined;
  }

  async children(parentId: string): Promise<PlanRow[]> {
    return (this.sql("SELECT * FROM plans WHERE parent_plan_id = ? ORDER BY seq").all(parentId) as RawRow[]).map(toRow);
  }

  async descendants(rootId: string): Promise<PlanRow[]> {
    return (this.sql("SELECT * FROM plans WHERE root_plan_id = ? AND plan_id <> ? ORDER BY seq").all(rootId, rootId) as RawRow[]).map(toRow);
  }

  async roots(): Promise<PlanRow[]> {
    return (this.sql("SELECT * FROM plans WHERE parent_plan_id IS NULL ORDER BY seq DESC").all() as RawRow[]).map(toRow);
  }

  async inState(state: ProcessingState): Promise<PlanRow[]> {
    return (this.sql("SELECT * FROM plans WHERE processing_state = ? ORDER BY seq").all(state) as RawRow[]).map(toRow);
  }

  async addEvent(e: NewEvent): Promise<EventRow> {
    const info = this.sql("INSERT INTO events (plan_id, root_plan_id, at, kind, reason, data) VALUES (?, ?, ?, ?, ?, ?)").run(
      e.plan_id,
      e.root_plan_id,
      e.at,
      e.kind,
      e.reason,
      JSON.stringify(e.data ?? {}),
    );
    return { ...e, id: Number(info.lastInsertRowid), data: e.data ?? {} };
  }

  async events(filter: { root?: string; plan?: string }): Promise<EventRow[]> {
    const [sql, arg] = filter.root
      ? ["SELECT * FROM events WHERE root_plan_id = ? ORDER BY id", filter.root]
      : ["SELECT * FROM events WHERE plan_id = ? ORDER BY id", filter.plan];
    return (this.sql(sql).all(arg) as RawRow[]).map(toEvent);
  }

  async lastEvent(rootId: string): Promise<EventRow | undefined> {
    const r = this.sql("SELECT * FROM events WHERE root_plan_id = ? ORDER BY id DESC LIMIT 1").get(rootId) as RawRow | undefined;
    return r ? toEvent(r) : undefined;
  }

  async clock(): Promise<Date> {
    return new Date();
  }

  async liveSession(issue: string): Promise<SessionRow | undefined> {
    const r = this.sql("SELECT * FROM sessions WHERE issue = ? AND ended IS NULL").get(issue) as RawRow | undefined;
    return r ? toSession(r) : undefined;
  }

  async sessionsOf(issue: string): Promise<SessionRow[]> {
    return (this.sql("SELECT * FROM sessions WHERE issue = ? ORDER BY epoch DESC").all(issue) as RawRow[]).map(toSession);
  }

  async insertSession(row: SessionRow): Promise<void> {
    this.sql(`INSERT INTO sessions (${SESSION_COLUMNS.join(", ")}) VALUES (${SESSION_COLUMNS.map(() => "?").join(", ")})`).run(...SESSION_COLUMNS.map((c) => row[c]));
  }

  async updateSession(session: string, patch: SessionPatch): Promise<void> {
    const entries = Object.entries(patch);
    if (entries.length === 0) return;
    this.sql(`UPDATE sessions SET ${entries.map(([k]) => `${k} = ?`).join(", ")} WHERE session = ?`).run(...entries.map(([, v]) => v), session);
  }

  async deleteSession(session: string): Promise<void> {
    this.sql("DELETE FROM sessions WHERE session = ?").run(session);
  }

  async deletePlanTree(rootId: string): Promise<{ plans: number; events: number }> {
    const events = this.sql("DELETE FROM events WHERE root_plan_id = ?").run(rootId).changes;
    // One statement: the plans that name a parent or a retry in the tree go with it.
    const plans = this.sql("DELETE FROM plans WHERE root_plan_id = ?").run(rootId).changes;
    return { plans, events };
  }

  async sessions(endedSince: string): Promise<SessionRow[]> {
    return (this.sql("SELECT * FROM sessions WHERE ended IS NULL OR ended_at >= ? ORDER BY since, session").all(endedSince) as RawRow[]).map(toSession);
  }

  async addToOutbox(rows: OutboxRow[]): Promise<OutboxRow[]> {
    const insert = this.sql(`INSERT OR IGNORE INTO notify_outbox (${OUTBOX_COLUMNS.join(", ")}) VALUES (${OUTBOX_COLUMNS.map(() => "?").join(", ")})`);
    return rows.filter((row) => insert.run(...OUTBOX_COLUMNS.map((c) => row[c])).changes === 1);
  }

  async outboxKnows(url: string): Promise<boolean> {
    return this.sql("SELECT 1 FROM notify_outbox WHERE url = ? LIMIT 1").get(url) !== undefined;
  }

  async outboxKeys(url: string): Promise<Set<string>> {
    return new Set((this.sql("SELECT key FROM notify_outbox WHERE url = ?").all(url) as { key: string }[]).map((r) => r.key));
  }

  async outboxDue(now: string, limit: number): Promise<OutboxRow[]> {
    const rows = this.sql("SELECT * FROM notify_outbox WHERE delivered_at IS NULL AND failed IS NULL AND next_at <= ? ORDER BY created, key LIMIT ?").all(now, limit) as RawRow[];
    return rows.map(toOutbox);
  }

  async updateOutbox(key: string, url: string, patch: OutboxPatch): Promise<void> {
    const entries = Object.entries(patch);
    if (entries.length === 0) return;
    this.sql(`UPDATE notify_outbox SET ${entries.map(([k]) => `${k} = ?`).join(", ")} WHERE key = ? AND url = ?`).run(...entries.map(([, v]) => v), key, url);
  }

  async insertAsk(row: AskRow): Promise<void> {
    this.sql(`INSERT INTO asks (${ASK_COLUMNS.join(", ")}) VALUES (${ASK_COLUMNS.map(() => "?").join(", ")})`).run(...ASK_COLUMNS.map((c) => row[c]));
  }

  async updateAsk(ask: string, patch: AskPatch): Promise<void> {
    const entries = Object.entries(patch);
    if (entries.length === 0) return;
    this.sql(`UPDATE asks SET ${entries.map(([k]) => `${k} = ?`).join(", ")} WHERE ask = ?`).run(...entries.map(([, v]) => v), ask);
  }

  async askById(ask: string): Promise<AskRow | undefined> {
    const r = this.sql("SELECT * FROM asks WHERE ask = ?").get(ask) as RawRow | undefined;
    return r ? toAsk(r) : undefined;
  }

  async openAskLike(issue: string, kind: string, question: string): Promise<AskRow | undefined> {
    const r = this.sql("SELECT * FROM asks WHERE issue = ? AND kind = ? AND question = ? AND ended IS NULL").get(issue, kind, question) as RawRow | undefined;
    return r ? toAsk(r) : undefined;
  }

  async asks(endedSince: string, issue?: string): Promise<AskRow[]> {
    const rows = issue === undefined
      ? this.sql("SELECT * FROM asks WHERE ended IS NULL OR ended_at >= ? ORDER BY opened, ask").all(endedSince)
      : this.sql("SELECT * FROM asks WHERE issue = ? AND (ended IS NULL OR ended_at >= ?) ORDER BY opened, ask").all(issue, endedSince);
    return (rows as RawRow[]).map(toAsk);
  }
}

export class SqliteStore implements ExecutionStore {
  readonly backend = "sqlite" as const;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly tx = new SqliteTx(this);
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly db: Database.Database,
    readonly path: string,
  ) {}

  get where(): string {
    return this.path;
  }

  /** A prepared statement, prepared once per connection. */
  statement(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  /** Open (creating it and its folder if needed) and migrate a repository's store. */
  static open(repo: string): SqliteStore {
    const path = join(repo, STORE_FILE);
    // SQLite follows links when it opens its files: each one, and their folders, are looked at first.
    for (const rel of STORE_STATE) {
      const problem = stateLinkProblem(repo, rel);
      if (problem) throw refused(problem);
    }
    makeStateFolders(repo, STORE_FILE);
    const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("foreign_keys = ON");
      const store = new SqliteStore(db, path);
      store.migrate();
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Apply every migration not yet recorded, each with its row in schema_migrations; idempotent. */
  migrate(): number[] {
    return this.db
      .transaction(() => {
        this.db.exec(
          "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
        );
        const done = new Set((this.statement("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version));
        const applied: number[] = [];
        for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
          if (done.has(m.version)) continue;
          this.db.exec(m.sql);
          this.statement("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
          applied.push(m.version);
        }
        return applied;
      })
      .immediate();
  }

  async schemaVersions(): Promise<number[]> {
    return (this.statement("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[]).map((r) => r.version);
  }

  /** One transaction at a time on this connection: the next waits for the one before to end. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private transaction<T>(begin: string, fn: (tx: PlanTx) => Promise<T>, keep: boolean): Promise<T> {
    return this.exclusive(async () => {
      this.db.exec(begin); // waits up to the busy timeout for another process's writer
      try {
        const value = await fn(this.tx);
        this.db.exec(keep ? "COMMIT" : "ROLLBACK");
        return value;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw error;
      }
    });
  }

  write<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    return this.transaction("BEGIN IMMEDIATE", fn, true);
  }

  read<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    return this.transaction("BEGIN DEFERRED", fn, true);
  }

  preview<T>(fn: (tx: PlanTx) => Promise<T>): Promise<T> {
    return this.transaction("BEGIN IMMEDIATE", fn, false);
  }
}

// One connection per store file and process, not per route bundle: a second connection in one
// process would wait synchronously on the first one's lock and stall the event loop. Kept open:
// opening is cheap, but closing the last connection of a WAL database checkpoints and removes the
// WAL, which is not. A cached connection whose file was replaced (same path, another inode) is
// reopened.
const open = processWide("sqlite-stores", () => new Map<string, { store: SqliteStore; ino: number }>());

function inode(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** The repository's SQLite store, opened (and migrated) on first use in this process. */
export function openSqliteStore(repo: string): SqliteStore {
  const path = join(repo, STORE_FILE);
  const cached = open.get(path);
  if (cached && cached.store.db.open && inode(path) === cached.ino) return cached.store;
  if (cached) {
    cached.store.close();
    open.delete(path);
  }
  const store = SqliteStore.open(repo);
  open.set(path, { store, ino: inode(path) ?? -1 });
  return store;
}

/** The repository's SQLite store if its file exists (or this process holds it open), else undefined. */
export function openExistingSqliteStore(repo: string): SqliteStore | undefined {
  const path = join(repo, STORE_FILE);
  const cached = open.get(path);
  if (cached && cached.store.db.open && inode(path) === cached.ino) return cached.store;
  if (inode(path) === undefined) return undefined;
  return openSqliteStore(repo);
}

export function closeSqliteStores(): void {
  for (const { store } of open.values()) store.close();
  open.clear();
}
