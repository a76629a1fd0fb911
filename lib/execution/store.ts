import { mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { parseSubplanConfig, type SubplanConfig } from "./config";
import { createPlan, type ExecutionPlan, type Phase, type PlanError, type ProcessingState, type SubplanStatus } from "./model";

// The execution store: SQLite (better-sqlite3) at <repo>/.ai/local/state/cockpit.db, checkout-local
// and untracked like the ledger. WAL, a 10 s busy timeout, numbered migrations recorded in
// `schema_migrations`, every write inside a transaction; read-modify-write runs `BEGIN IMMEDIATE`
// so several processes can coordinate one plan at once. The only module of lib/execution that
// touches SQLite or the file system.

export const STORE_FILE = ".ai/local/state/cockpit.db";
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
];

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
  error_category: string | null;
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
  kind: string;
  reason: string;
  data: Record<string, unknown>;
}

export type NewEvent = Omit<EventRow, "id" | "data"> & { data?: Record<string, unknown> };

const PLAN_COLUMNS = [
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

function toRow(raw: RawRow): PlanRow {
  return {
    ...(raw as unknown as PlanRow),
    subplan_config: raw.subplan_config == null ? null : parseSubplanConfig(JSON.parse(String(raw.subplan_config))),
    target: raw.target == null ? null : JSON.parse(String(raw.target)),
  };
}

function toColumn(key: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (JSON_COLUMNS.has(key)) return value === null ? null : JSON.stringify(value);
  return value;
}

export class ExecutionStore {
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    readonly db: Database.Database,
    readonly path: string,
  ) {}

  /** A prepared statement, prepared once per connection. */
  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  /** Open (creating it and its folder if needed) and migrate a repository's store. */
  static open(repo: string): ExecutionStore {
    const path = join(repo, STORE_FILE);
    mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("foreign_keys = ON");
      const store = new ExecutionStore(db, path);
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
    return this.write(() => {
      this.db.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
      );
      const done = new Set((this.sql("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version));
      const applied: number[] = [];
      for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
        if (done.has(m.version)) continue;
        this.db.exec(m.sql);
        this.sql("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
        applied.push(m.version);
      }
      return applied;
    });
  }

  /** The versions recorded in schema_migrations, ascending. */
  schemaVersions(): number[] {
    return (this.sql("SELECT version FROM schema_migrations ORDER BY version").all() as { version: number }[]).map((r) => r.version);
  }

  /** A read-modify-write: `BEGIN IMMEDIATE`, so no other writer interleaves between the read and the write. */
  write<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** A consistent read (one snapshot). */
  read<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred();
  }

  // ---- plans ----------------------------------------------------------------------------------

  insertPlan(row: NewPlanRow): PlanRow {
    const values = PLAN_COLUMNS.map((c) => (c === "updated_at" ? row.created_at : toColumn(c, (row as Record<string, unknown>)[c])));
    this
      .sql(`INSERT INTO plans (${PLAN_COLUMNS.join(", ")}) VALUES (${PLAN_COLUMNS.map(() => "?").join(", ")})`)
      .run(...values);
    return this.plan(row.plan_id)!;
  }

  /** Change some columns of a plan; `updated_at` is set to `at`. */
  updatePlan(planId: string, patch: PlanPatch, at: string): PlanRow {
    const entries = Object.entries({ ...patch, updated_at: at }).filter(([k]) => (PLAN_COLUMNS as readonly string[]).includes(k));
    const sets = entries.map(([k]) => `${k} = ?`).join(", ");
    const info = this.sql(`UPDATE plans SET ${sets} WHERE plan_id = ?`).run(...entries.map(([k, v]) => toColumn(k, v)), planId);
    if (info.changes !== 1) throw new Error(`no plan ${planId} to update`);
    return this.plan(planId)!;
  }

  plan(planId: string): PlanRow | undefined {
    const raw = this.sql("SELECT * FROM plans WHERE plan_id = ?").get(planId) as RawRow | undefined;
    return raw ? toRow(raw) : undefined;
  }

  /** The direct children of a plan, in creation order. */
  children(parentId: string): PlanRow[] {
    return (this.sql("SELECT * FROM plans WHERE parent_plan_id = ? ORDER BY seq").all(parentId) as RawRow[]).map(toRow);
  }

  /** Every plan under a root (not the root itself), in creation order. */
  descendants(rootId: string): PlanRow[] {
    return (this.sql("SELECT * FROM plans WHERE root_plan_id = ? AND plan_id <> ? ORDER BY seq").all(rootId, rootId) as RawRow[]).map(toRow);
  }

  /** Every root plan, newest first. */
  roots(): PlanRow[] {
    return (this.sql("SELECT * FROM plans WHERE parent_plan_id IS NULL ORDER BY seq DESC").all() as RawRow[]).map(toRow);
  }

  /** Every plan in a processing state. */
  inState(state: ProcessingState): PlanRow[] {
    return (this.sql("SELECT * FROM plans WHERE processing_state = ? ORDER BY seq").all(state) as RawRow[]).map(toRow);
  }

  /** The true depth of a plan: 0 for a root, 1 for its children, …, found by walking its ancestors. */
  depthOf(planId: string): number {
    let depth = 0;
    let row = this.plan(planId);
    if (!row) throw new Error(`no plan ${planId}`);
    const seen = new Set<string>([planId]);
    while (row.parent_plan_id !== null) {
      if (seen.has(row.parent_plan_id)) throw new Error(`plan ${planId} has a cycle among its ancestors`);
      seen.add(row.parent_plan_id);
      const parent = this.plan(row.parent_plan_id);
      if (!parent) throw new Error(`plan ${row.plan_id} names a parent ${row.parent_plan_id} that is not stored`);
      row = parent;
      depth++;
    }
    return depth;
  }

  /** The parent's view of each child: id, phase, processing state, attempt, last error. */
  subplanStatuses(planId: string): SubplanStatus[] {
    return this.children(planId).map((c) => ({
      plan_id: c.plan_id,
      phase: c.phase,
      processing_state: c.processing_state,
      attempt: c.attempt,
      last_error: lastError(c),
    }));
  }

  /** The model object of a stored plan (validated by the model), with its subplan statuses. */
  model(planId: string): ExecutionPlan {
    const row = this.plan(planId);
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
      subplan_statuses: this.subplanStatuses(planId),
    });
  }

  // ---- events ---------------------------------------------------------------------------------

  addEvent(e: NewEvent): EventRow {
    const info = this.db
      .prepare("INSERT INTO events (plan_id, root_plan_id, at, kind, reason, data) VALUES (?, ?, ?, ?, ?, ?)")
      .run(e.plan_id, e.root_plan_id, e.at, e.kind, e.reason, JSON.stringify(e.data ?? {}));
    return { ...e, id: Number(info.lastInsertRowid), data: e.data ?? {} };
  }

  /** Events of a whole tree (by root) or of one plan, oldest first. */
  events(filter: { root?: string; plan?: string }): EventRow[] {
    const [sql, arg] = filter.root
      ? ["SELECT * FROM events WHERE root_plan_id = ? ORDER BY id", filter.root]
      : ["SELECT * FROM events WHERE plan_id = ? ORDER BY id", filter.plan];
    return (this.sql(sql).all(arg) as RawRow[]).map((r) => ({ ...(r as unknown as EventRow), data: JSON.parse(String(r.data)) }));
  }

  lastEvent(rootId: string): EventRow | undefined {
    const r = this.sql("SELECT * FROM events WHERE root_plan_id = ? ORDER BY id DESC LIMIT 1").get(rootId) as RawRow | undefined;
    return r ? { ...(r as unknown as EventRow), data: JSON.parse(String(r.data)) } : undefined;
  }
}

/** A plan row's last error, or null. */
export function lastError(row: Pick<PlanRow, "error_category" | "error_message">): PlanError | null {
  return row.error_category === null ? null : { category: row.error_category, message: row.error_message ?? "" };
}

// One connection per store file and process, kept open: opening is cheap, but closing the last
// connection of a WAL database checkpoints and removes the WAL, which is not. A cached connection
// whose file was replaced (same path, another inode) is reopened.
const open = new Map<string, { store: ExecutionStore; ino: number }>();

function inode(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** The repository's store, opened (and migrated) on first use in this process. */
export function openStore(repo: string): ExecutionStore {
  const path = join(repo, STORE_FILE);
  const cached = open.get(path);
  if (cached && cached.store.db.open && inode(path) === cached.ino) return cached.store;
  if (cached) {
    cached.store.close();
    open.delete(path);
  }
  const store = ExecutionStore.open(repo);
  open.set(path, { store, ino: inode(path) ?? -1 });
  return store;
}

/**
 * The repository's store if it exists, else undefined: a read never creates it (nor its folder).
 * A store this process already holds open counts as existing.
 */
export function openExistingStore(repo: string): ExecutionStore | undefined {
  const path = join(repo, STORE_FILE);
  const cached = open.get(path);
  if (cached && cached.store.db.open && inode(path) === cached.ino) return cached.store;
  if (inode(path) === undefined) return undefined;
  return openStore(repo);
}

/** Close every store this process opened (for tests, and processes that want to let go of the files). */
export function closeStores(): void {
  for (const { store } of open.values()) store.close();
  open.clear();
}

/** Run `fn` with the repository's store (created on first use: for commands). */
export function withStore<T>(repo: string, fn: (store: ExecutionStore) => T): T {
  return fn(openStore(repo));
}

/** Run `fn` with the repository's store if it exists; `absent()` answers a read when it does not. */
export function withExistingStore<T>(repo: string, fn: (store: ExecutionStore) => T, absent: () => T): T {
  const store = openExistingStore(repo);
  return store ? fn(store) : absent();
}
