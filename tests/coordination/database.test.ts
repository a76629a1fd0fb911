import pg from "pg";
import { describe, expect, it } from "vitest";
import { database, migrate, MIGRATIONS, redactUrl, SCHEMA_VERSION } from "../../lib/coordination/database";
import { spawnCli, refusalOf } from "../support/processes";
import { freePort } from "../support/postgres-server";
import { cloneOf, makeOrigin, usePostgresCluster } from "./clones";

const cluster = usePostgresCluster("db");


describe("the coordination database", () => {
  it("names a URL without its password", () => {
    expect(redactUrl("postgres://bob:s3cret@db.example:5432/plan")).toBe("postgres://bob:***@db.example:5432/plan");
    expect(redactUrl("postgres://db.example/plan")).toBe("postgres://db.example/plan");
  });

  it("an unreachable server: commands that need it are refused (exit 15) naming the URL; reads answer from the files", async () => {
    const clone = cloneOf(makeOrigin(2), "a");
    const url = `postgres://cockpit:hunter2@127.0.0.1:${await freePort()}/plan`;
    const start = await spawnCli(["start", "I0001", "--repo", clone], { env: { COCKPIT_DATABASE_URL: url } });
    expect(start.code).toBe(15);
    expect(refusalOf(start)).toContain("the coordination database postgres://cockpit:***@127.0.0.1:");
    expect(refusalOf(start)).toContain("ECONNREFUSED");
    expect(refusalOf(start)).not.toContain("hunter2");
    const claim = await spawnCli(["claim", "--repo", clone, "--database", url]);
    expect(claim.code).toBe(15);
    expect(refusalOf(claim)).toContain("postgres://cockpit:***@");
    // Nothing was written: both issues are still READY.
    const issues = await spawnCli(["issues", "--json", "--repo", clone], { env: { COCKPIT_DATABASE_URL: url } });
    expect(issues.code).toBe(0);
    expect(JSON.parse(issues.stdout).issues.map((i: { status: string }) => i.status)).toEqual(["READY", "READY"]);
    expect(refusalOf(issues)).toContain("answering from the files alone");
    expect(refusalOf(issues)).not.toContain("hunter2");
  }, 60_000);

  it("a wrong password is refused, naming the URL without it", async () => {
    const clone = cloneOf(makeOrigin(1), "a");
    const url = cluster.server.urlFor("postgres", "not-the-password");
    const start = await spawnCli(["start", "I0001", "--repo", clone], { env: { COCKPIT_DATABASE_URL: url } });
    expect(start.code).toBe(15);
    expect(refusalOf(start)).toContain(`postgres://postgres:***@127.0.0.1:${cluster.server.port}/postgres`);
    expect(refusalOf(start)).toContain("password authentication failed");
    expect(refusalOf(start)).not.toContain("not-the-password");
  }, 60_000);

  it("a database with an older schema is migrated on first use", async () => {
    cluster.server.createDatabase("older");
    const url = cluster.server.urlFor("older");
    const pool = new pg.Pool({ connectionString: url });
    expect(await migrate(pool, 1)).toBe(1);
    await pool.query("INSERT INTO cockpit_leases VALUES ('tests/plan', 'I0009', 'someone', now(), now() + interval '1 hour')");
    await pool.end();
    expect(cluster.server.sql("SELECT max(version) FROM cockpit_schema", "older")).toBe("1");
    expect(cluster.server.sql("SELECT count(*) FROM pg_indexes WHERE indexname = 'cockpit_leases_holder'", "older")).toBe("0");

    const clone = cloneOf(makeOrigin(1), "a");
    const start = await spawnCli(["start", "I0001", "--repo", clone], { env: { COCKPIT_DATABASE_URL: url } });
    expect([start.code, start.stderr]).toEqual([0, ""]);
    expect(cluster.server.sql("SELECT max(version) FROM cockpit_schema", "older")).toBe(String(SCHEMA_VERSION));
    expect(cluster.server.sql("SELECT count(*) FROM pg_indexes WHERE indexname = 'cockpit_leases_holder'", "older")).toBe("1");
    // The older rows stay as they were; the start's session is in the table that replaced cockpit_leases.
    expect(cluster.server.sql("SELECT string_agg(issue, ',' ORDER BY issue) FROM cockpit_leases", "older")).toBe("I0009");
    expect(cluster.server.sql("SELECT string_agg(issue || ' ' || epoch || ' ' || coalesce(ended, 'live'), ',' ORDER BY issue) FROM cockpit_sessions", "older")).toBe("I0001 1 live");
  }, 60_000);

  it("many processes migrating an empty database at once apply each migration once", async () => {
    cluster.server.createDatabase("racing");
    const url = cluster.server.urlFor("racing");
    const pools = Array.from({ length: 8 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    const versions = await Promise.all(pools.map((p) => migrate(p)));
    await Promise.all(pools.map((p) => p.end()));
    expect(versions).toEqual(Array(8).fill(SCHEMA_VERSION));
    expect(cluster.server.sql("SELECT string_agg(version::text, ',' ORDER BY version) FROM cockpit_schema", "racing")).toBe(MIGRATIONS.map((m) => m.version).join(","));
  }, 60_000);

  it("a connection lost while a client is checked out and between queries fails its next query, not the process", async () => {
    cluster.server.createDatabase("lost");
    const pool = await database(cluster.server.urlFor("lost"));
    const client = await pool.connect();
    await client.query("SELECT 1");
    // The server ends the backend while the client sits checked out with no query running: pg
    // then emits `error` on the client, which with no listener would be an uncaught exception.
    cluster.server.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'lost' AND pid <> pg_backend_pid()", "lost");
    await new Promise((r) => setTimeout(r, 300));
    await expect(client.query("SELECT 1")).rejects.toThrow();
    client.release(true);
    const { rows } = await pool.query<{ one: number }>("SELECT 1 AS one");
    expect(rows[0].one).toBe(1);
  }, 60_000);

  it("a version missing below the highest applied one is applied too (numbers are taken by parallel changes)", async () => {
    cluster.server.createDatabase("gap");
    const url = cluster.server.urlFor("gap");
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await migrate(pool);
    // As if version 2 had been written after this database was migrated past it.
    await pool.query("DROP INDEX cockpit_leases_holder");
    await pool.query("DELETE FROM cockpit_schema WHERE version = 2");
    expect(await migrate(pool)).toBe(SCHEMA_VERSION);
    await pool.end();
    expect(cluster.server.sql("SELECT count(*) FROM pg_indexes WHERE indexname = 'cockpit_leases_holder'", "gap")).toBe("1");
    expect(cluster.server.sql("SELECT string_agg(version::text, ',' ORDER BY version) FROM cockpit_schema", "gap")).toBe(MIGRATIONS.map((m) => m.version).join(","));
  }, 60_000);
});
