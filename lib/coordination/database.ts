import pg from "pg";
import { CapabilityError, refused } from "../errors";
import { processWide } from "../process-wide";

// The shared coordination database (PostgreSQL): what every clone must decide once for all
// clones (who holds which issue, which child plan runs where). Git still carries the records.

export const DATABASE_ENV = "COCKPIT_DATABASE_URL";

/** The configured database URL, or undefined: then the file lock and SQLite are the coordination. */
export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[DATABASE_ENV]?.trim();
  return url ? url : undefined;
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
      const { rows } = await client.query<{ v: number | null }>("SELECT max(version) AS v FROM cockpit_schema");
      const current = rows[0]?.v ?? 0;
      for (const m of MIGRATIONS) {
        if (m.version <= current || m.version > upTo) continue;
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
  let entry = pools.get(url);
  if (!entry) {
    const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    pool.on("error", () => undefined); // an idle client lost (a server restart): the next query reconnects
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
