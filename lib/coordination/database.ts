import type pg from "pg";
import { CapabilityError, refused } from "../plan/errors";
import { DATABASE_ENV, resolveConfig, type CockpitConfig } from "../config";
import { processWide } from "../process-wide";

// The shared coordination database (PostgreSQL): what every clone must decide once for all
// clones (who holds which issue, which child plan runs where). Git still carries the records.

export { DATABASE_ENV };

/**
 * The configured database URL, or undefined: then the file lock and SQLite are the coordination.
 * Without a configuration (a caller below the surfaces, a test), the environment's.
 */
export function databaseUrl(config?: CockpitConfig): string | undefined {
  return (config ?? resolveConfig()).database;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:@/]*):[^@/]*@/, "://$1:***@");
  }
}

/** The reason a database could not be used, in words, without its password. */
export function unreachable(url: string, error: unknown): CapabilityError {
  if (error instanceof CapabilityError) return error;
  const e = error as { code?: string; message?: string };
  const why = [e.code, e.message].filter(Boolean).join(": ").replaceAll(url, redactUrl(url)) || String(error);
  return refused(
    `the coordination database ${redactUrl(url)} cannot be used (${why}); check ${DATABASE_ENV} (or --database), or unset it to coordinate through this clone's files alone`,
  );
}

/** Versioned migrations: each applied once, in order, in its own transaction. */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `CREATE TABLE cockpit_leases (
      project  text        NOT NULL,
      issue    text        NOT NULL,
      holder   text        NOT NULL,
      acquired timestamptz NOT NULL,
      expires  timestamptz NOT NULL,
      PRIMARY KEY (project, issue)
    )`,
  },
  { version: 2, sql: `CREATE INDEX cockpit_leases_holder ON cockpit_leases (project, holder)` },
  // Record ids minted or given by plan.create, so that two clones of one origin never write the same one.
  {
    version: 3,
    sql: `CREATE TABLE cockpit_record_ids (
      project  text        NOT NULL,
      id       text        NOT NULL,
      holder   text        NOT NULL,
      reserved timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (project, id)
    )`,
  },
  // Execution plans, the same in meaning as the SQLite store's `plans` and `events`, keyed by
  // project; seq and id are per project (max + 1 under the project's write lock), and times and
  // JSON are the texts SQLite keeps, so answers are identical.
  {
    version: 4,
    sql: `CREATE TABLE cockpit_plans (
      project               text    NOT NULL,
      seq                   integer NOT NULL,
      plan_id               text    NOT NULL,
      parent_plan_id        text,
      root_plan_id          text    NOT NULL,
      phase                 text    NOT NULL CHECK (phase IN ('action', 'strategize', 'execute', 'apply')),
      processing_state      text    NOT NULL CHECK (processing_state IN ('queued', 'processing', 'completed', 'errored', 'cancelled')),
      automation_profile    text,
      attempt               integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
      subplan_config        text,
      title                 text    NOT NULL DEFAULT '',
      target                text,
      issue_id              text,
      wave                  integer,
      branch                text,
      integration_branch    text,
      base_commit           text,
      error_category        text,
      error_message         text,
      cancel_reason         text,
      retry_of              text,
      report_lock           text,
      created_at            text    NOT NULL,
      updated_at            text    NOT NULL,
      processing_started_at text,
      finished_at           text,
      PRIMARY KEY (project, plan_id),
      UNIQUE (project, seq),
      FOREIGN KEY (project, parent_plan_id) REFERENCES cockpit_plans (project, plan_id),
      FOREIGN KEY (project, retry_of) REFERENCES cockpit_plans (project, plan_id)
    );
    CREATE INDEX cockpit_plans_by_parent ON cockpit_plans (project, parent_plan_id, seq);
    CREATE INDEX cockpit_plans_by_root ON cockpit_plans (project, root_plan_id, seq);
    CREATE INDEX cockpit_plans_by_state ON cockpit_plans (project, processing_state);
    CREATE TABLE cockpit_plan_events (
      project      text    NOT NULL,
      id           integer NOT NULL,
      plan_id      text    NOT NULL,
      root_plan_id text    NOT NULL,
      at           text    NOT NULL,
      kind         text    NOT NULL,
      reason       text    NOT NULL,
      data         text    NOT NULL DEFAULT '{}',
      PRIMARY KEY (project, id)
    );
    CREATE INDEX cockpit_plan_events_by_root ON cockpit_plan_events (project, root_plan_id, id);
    CREATE INDEX cockpit_plan_events_by_plan ON cockpit_plan_events (project, plan_id, id);`,
  },
  // Sessions: an actor's hold on an issue, the same in meaning as the SQLite store's `sessions`
  // (lib/coordination/sessions.ts); they replace cockpit_leases, whose holder was a clone.
  {
    version: 5,
    sql: `CREATE TABLE cockpit_sessions (
      project   text    NOT NULL,
      session   text    NOT NULL,
      issue     text    NOT NULL,
      actor     text    NOT NULL,
      kind      text    NOT NULL CHECK (kind IN ('agent', 'person')),
      epoch     integer NOT NULL CHECK (epoch >= 1),
      since     text    NOT NULL,
      last_seen text    NOT NULL,
      expires   text    NOT NULL,
      note      text,
      ended     text    CHECK (ended IN ('released', 'finished', 'reclaimed')),
      ended_at  text,
      ended_by  text,
      PRIMARY KEY (project, session)
    );
    CREATE UNIQUE INDEX cockpit_sessions_one_live ON cockpit_sessions (project, issue) WHERE ended IS NULL;
    CREATE UNIQUE INDEX cockpit_sessions_by_epoch ON cockpit_sessions (project, issue, epoch);
    CREATE INDEX cockpit_sessions_by_end ON cockpit_sessions (project, ended_at);`,
  },
  // Asks: questions put to a person about an issue, the same in meaning as the SQLite store's
  // `asks` (lib/coordination/asks.ts); several servers on one database share one inbox.
  {
    version: 6,
    sql: `CREATE TABLE cockpit_asks (
      project    text NOT NULL,
      ask        text NOT NULL,
      issue      text NOT NULL,
      session    text,
      asker      text NOT NULL,
      asker_kind text NOT NULL CHECK (asker_kind IN ('agent', 'person')),
      kind       text NOT NULL CHECK (kind IN ('approve', 'choose', 'answer')),
      question   text NOT NULL,
      options    text NOT NULL DEFAULT '[]',
      opened     text NOT NULL,
      ended      text CHECK (ended IN ('answered', 'withdrawn', 'closed')),
      ended_at   text,
      ended_by   text,
      answer     text,
      reason     text,
      PRIMARY KEY (project, ask)
    );
    CREATE UNIQUE INDEX cockpit_asks_one_open ON cockpit_asks (project, issue, kind, question) WHERE ended IS NULL;
    CREATE INDEX cockpit_asks_by_end ON cockpit_asks (project, ended_at);
    CREATE INDEX cockpit_asks_by_issue ON cockpit_asks (project, issue, opened);`,
  },
  // Notifications waiting for their receivers (lib/notify): one row per event and URL, so several
  // servers on one database deliver each event once.
  {
    version: 7,
    sql: `CREATE TABLE cockpit_notify_outbox (
      project      text    NOT NULL,
      key          text    NOT NULL,
      url          text    NOT NULL,
      event        text    NOT NULL,
      body         text    NOT NULL,
      created      text    NOT NULL,
      attempts     integer NOT NULL DEFAULT 0,
      next_at      text    NOT NULL,
      delivered_at text,
      failed       text,
      PRIMARY KEY (project, key, url)
    );
    CREATE INDEX cockpit_notify_outbox_due ON cockpit_notify_outbox (project, next_at) WHERE delivered_at IS NULL AND failed IS NULL;`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

// One key for every cockpit process: the first use of an empty database is serialised on it.
const MIGRATION_LOCK = 0x636f636b; // "cock"

/** Apply every migration the database lacks; safe when many processes start at once. */
export async function migrate(pool: pg.Pool, upTo = SCHEMA_VERSION): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(
        "CREATE TABLE IF NOT EXISTS cockpit_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      const { rows } = await client.query<{ version: number }>("SELECT version FROM cockpit_schema");
      const done = new Set(rows.map((r) => r.version));
      const current = Math.max(0, ...done);
      // Each missing version, not only those above the highest: numbers are taken by parallel changes.
      for (const m of MIGRATIONS) {
        if (done.has(m.version) || m.version > upTo) continue;
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query("INSERT INTO cockpit_schema (version) VALUES ($1)", [m.version]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
      }
      return Math.max(current, Math.min(upTo, SCHEMA_VERSION));
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

const pools = processWide("database-pools", () => new Map<string, { pool: pg.Pool; ready?: Promise<void> }>());

/** A pool for the URL, migrated on first use; a failure names the URL without its password. */
export async function database(url: string): Promise<pg.Pool> {
  // pg is loaded at the first use of a database: a command of a clone without one never pays for
  // it. Nothing awaits between the look-up and the set below, so two calls still share one pool.
  const { Pool } = (await import("pg")).default;
  let entry = pools.get(url);
  if (!entry) {
    const pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    pool.on("error", () => undefined); // an idle client lost (a server restart): the next query reconnects
    // A checked-out client whose server goes away between two of its queries emits `error` with
    // no one listening (the pool listens only while it is idle), which would end the process; its
    // next query fails instead, and that failure is the refusal the caller reports.
    pool.on("connect", (client) => client.on("error", () => undefined));
    entry = { pool };
    pools.set(url, entry);
  }
  const current = entry;
  current.ready ??= migrate(current.pool).then(
    () => undefined,
    (error) => {
      current.ready = undefined; // the next call tries again
      throw error;
    },
  );
  try {
    await current.ready;
  } catch (error) {
    throw unreachable(url, error);
  }
  return current.pool;
}

/** Run `fn` on the pool; any database failure becomes a refusal naming the URL (no password). */
export async function withDatabase<T>(url: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = await database(url);
  try {
    return await fn(pool);
  } catch (error) {
    throw unreachable(url, error);
  }
}

/** Close every pool this process opened (a command that is finishing). */
export async function closeDatabases(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((e) => e.pool.end().catch(() => undefined)));
}
