import { existsSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PgServer } from "../support/postgres-server";

describe("the throwaway PostgreSQL server for tests", () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("accepts the password over TCP, and runs as a user other than root", async () => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const r = await client.query("SELECT 1 + 1 AS two");
    expect(r.rows[0].two).toBe(2);
    await client.end();
    const dir = server.sql("SHOW data_directory");
    expect(existsSync(dir)).toBe(true);
    expect(server.sql("SELECT 'x'")).toBe("x");
  });

  it("refuses a wrong password", async () => {
    const client = new pg.Client({ connectionString: server.urlFor("postgres", "wrong") });
    await expect(client.connect()).rejects.toThrow(/password authentication failed/);
  });

  it("comes back after a kill, with its data", async () => {
    server.sql("CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)");
    await server.kill();
    const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2000 });
    await expect(client.connect()).rejects.toThrow();
    await server.restart();
    expect(server.sql("SELECT x FROM kept")).toBe("7");
  });
});
