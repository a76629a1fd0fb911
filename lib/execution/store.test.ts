import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabases, database } from "../coordination/database";
import { startPostgres, type PgServer } from "@/tests/support/postgres-server";
import { parseSubplanConfig } from "./config";
import { childIdentity, rootIdentity } from "./model";
import { STORE_FILE, closeStores, newPlanRow, openExistingStore, withExistingStore, withStore, type ExecutionStore, type NewPlanRow } from "./store";
import { MIGRATIONS, SqliteStore, openSqliteStore } from "./store-sqlite";
import { openPostgresStore } from "./store-postgres";

const dirs: string[] = [];
let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  closeStores();
  await closeDatabases();
  await server?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});
const repo = () => {
  const d = mkdtempSync(join(tmpdir(), "cockpit-store-"));
  dirs.push(d);
  return d;
};

const AT = "2026-11-01T10:00:00.000Z";

function row(identity: { plan_id: string; parent_plan_id: string | null; root_plan_id: string | null }, over: Partial<NewPlanRow> = {}): NewPlanRow {
  return newPlanRow({
    plan_id: identity.plan_id,
    parent_plan_id: identity.parent_plan_id,
    root_plan_id: identity.root_plan_id ?? identity.plan_id,
    title: "t",
    created_at: AT,
    ...over,
  });
}

let projects = 0;

/**
 * Each backend makes a fresh, empty store; `second` is another handle on it. SQLite keeps one
 * connection per file and process (a second one in the same process would wait on the first
 * synchronously, blocking the loop that would end it), so its second handle is the same connection.
 */
const backends: { name: string; fresh(): Promise<{ store: ExecutionStore; second(): Promise<ExecutionStore> }> }[] = [
  {
    name: "SQLite",
    async fresh() {
      const r = repo();
      return { store: openSqliteStore(r), second: async () => openSqliteStore(r) };
    },
  },
  {
    name: "PostgreSQL",
    async fresh() {
      const project = `project-${++projects}`; // one database, many projects, kept apart
      return { store: await openPostgresStore(server.url, "", project), second: () => openPostgresStore(server.url, "", project) };
    },
  },
];

describe.each(backends)("the execution store on $name", (backend) => {
  it("stores plans, answers depth by walking ancestors, and the parent's view of its children", async () => {
    const { store } = await backend.fresh();
    const root = rootIdentity();
    const child = childIdentity(root);
    const grandchild = childIdentity(child);
    const retry = childIdentity(root);
    await store.write(async (tx) => {
      await tx.insertPlan(row(root, { subplan_config: parseSubplanConfig({ execution_mode: "parallel" }), phase: "execute", processing_state: "processing" }));
      await tx.insertPlan(row(child, { issue_id: "I01", wave: 0, processing_state: "errored", error_category: "timeout", error_message: "slow" }));
      await tx.insertPlan(row(grandchild));
      await tx.insertPlan(row(retry, { issue_id: "I01", wave: 0, attempt: 2, retry_of: child.plan_id }));
    });
    await store.read(async (tx) => {
      expect(await tx.depthOf(root.plan_id)).toBe(0);
      expect(await tx.depthOf(child.plan_id)).toBe(1);
      expect(await tx.depthOf(grandchild.plan_id)).toBe(2);
      expect(await tx.subplanStatuses(root.plan_id)).toEqual([
        { plan_id: child.plan_id, phase: "strategize", processing_state: "errored", attempt: 1, last_error: { category: "timeout", message: "slow" } },
        { plan_id: retry.plan_id, phase: "strategize", processing_state: "queued", attempt: 2, last_error: null },
      ]);
      const model = await tx.model(root.plan_id);
      expect(model.subplan_config?.execution_mode).toBe("parallel");
      expect(model.subplan_statuses).toHaveLength(2);
      expect((await tx.model(grandchild.plan_id)).root_plan_id).toBe(root.plan_id);
      expect((await tx.descendants(root.plan_id)).map((p) => p.plan_id)).toEqual([child.plan_id, grandchild.plan_id, retry.plan_id]);
      expect((await tx.descendants(root.plan_id)).map((p) => p.seq)).toEqual([2, 3, 4]);
      expect((await tx.roots()).map((p) => p.plan_id)).toEqual([root.plan_id]);
      expect((await tx.inState("errored")).map((p) => p.plan_id)).toEqual([child.plan_id]);
    });

    const updated = await store.write((tx) => tx.updatePlan(retry.plan_id, { processing_state: "processing", processing_started_at: AT }, "2026-11-01T10:00:05.000Z"));
    expect(updated).toMatchObject({ processing_state: "processing", updated_at: "2026-11-01T10:00:05.000Z", processing_started_at: AT });
    // The schema refuses states outside the model.
    await expect(store.write((tx) => tx.updatePlan(retry.plan_id, { processing_state: "done" as never }, AT))).rejects.toThrow(/check constraint/i);
  });

  it("keeps events in order, by root and by plan, with JSON data", async () => {
    const { store } = await backend.fresh();
    const root = rootIdentity();
    const child = childIdentity(root);
    const added = await store.write(async (tx) => {
      await tx.insertPlan(row(root));
      await tx.insertPlan(row(child));
      return [
        await tx.addEvent({ plan_id: root.plan_id, root_plan_id: root.plan_id, at: AT, kind: "created", reason: "made", data: { n: 1, z: { b: 2, a: 1 } } }),
        await tx.addEvent({ plan_id: child.plan_id, root_plan_id: root.plan_id, at: AT, kind: "claimed", reason: "free" }),
      ];
    });
    expect(added.map((e) => e.id)).toEqual([1, 2]);
    await store.read(async (tx) => {
      const events = await tx.events({ root: root.plan_id });
      expect(events.map((e) => [e.id, e.kind, e.at, e.data])).toEqual([
        [1, "created", AT, { n: 1, z: { b: 2, a: 1 } }],
        [2, "claimed", AT, {}],
      ]);
      expect(Object.keys(events[0].data.z as object)).toEqual(["b", "a"]); // kept as written
      expect((await tx.events({ plan: child.plan_id })).map((e) => e.kind)).toEqual(["claimed"]);
      expect((await tx.lastEvent(root.plan_id))?.kind).toBe("claimed");
    });
  });

  it("a write that throws leaves nothing behind", async () => {
    const { store } = await backend.fresh();
    const root = rootIdentity();
    await expect(
      store.write(async (tx) => {
        await tx.insertPlan(row(root));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await store.read((tx) => tx.plan(root.plan_id))).toBeUndefined();
  });

  it("a preview sees its own writes, and then they are gone", async () => {
    const { store } = await backend.fresh();
    const root = rootIdentity();
    await store.write((tx) => tx.insertPlan(row(root)));
    const seen = await store.preview(async (tx) => {
      await tx.updatePlan(root.plan_id, { processing_state: "cancelled" }, AT);
      await tx.addEvent({ plan_id: root.plan_id, root_plan_id: root.plan_id, at: AT, kind: "cancelled", reason: "x" });
      return [(await tx.plan(root.plan_id))!.processing_state, (await tx.events({ root: root.plan_id })).length];
    });
    expect(seen).toEqual(["cancelled", 1]);
    expect(await store.read(async (tx) => [(await tx.plan(root.plan_id))!.processing_state, (await tx.events({ root: root.plan_id })).length])).toEqual([
      "queued",
      0,
    ]);
    // The ids a rolled-back write used are given again, as SQLite does.
    expect((await store.write((tx) => tx.addEvent({ plan_id: root.plan_id, root_plan_id: root.plan_id, at: AT, kind: "created", reason: "r" }))).id).toBe(1);
  });

  it("read-modify-writes never interleave, from one handle or two", async () => {
    const { store, second } = await backend.fresh();
    const other = await second();
    const root = rootIdentity();
    await store.write((tx) => tx.insertPlan(row(root)));
    // Each write reads the attempt, waits, and writes it plus one: any interleaving loses an increment.
    const bump = (s: ExecutionStore) =>
      s.write(async (tx) => {
        const before = (await tx.plan(root.plan_id))!.attempt;
        await new Promise((r) => setTimeout(r, 5));
        await tx.updatePlan(root.plan_id, { attempt: before + 1 }, AT);
      });
    await Promise.all(Array.from({ length: 12 }, (_, i) => bump(i % 2 ? other : store)));
    expect(await store.read(async (tx) => (await tx.plan(root.plan_id))!.attempt)).toBe(13);
  });
});

describe("the SQLite store", () => {
  it("lives at .ai/local/state/cockpit.db, in WAL mode with a 10 s busy timeout", async () => {
    const r = repo();
    const store = openSqliteStore(r);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.db.pragma("busy_timeout", { simple: true })).toBe(10_000);
    expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(existsSync(join(r, STORE_FILE))).toBe(true);
  });

  it("is not created by a read: with no store, a read answers from `absent` and leaves the folder empty", async () => {
    const r = repo();
    expect(await openExistingStore(r)).toBeUndefined();
    expect(await withExistingStore(r, undefined, async () => "store", () => "absent")).toBe("absent");
    expect(readdirSync(r)).toEqual([]);
    await withStore(r, undefined, async () => undefined);
    expect(await withExistingStore(r, undefined, async (store) => store.where, () => "absent")).toBe(join(r, STORE_FILE));
  });

  it("applies each migration once, however often it is opened", async () => {
    const r = repo();
    const first = SqliteStore.open(r);
    expect(await first.schemaVersions()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(first.migrate()).toEqual([]); // nothing left to apply
    first.close();
    for (let i = 0; i < 3; i++) {
      const store = openSqliteStore(r);
      expect(store.migrate()).toEqual([]);
      expect(store.db.prepare("SELECT version, name FROM schema_migrations").all()).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    }
    // Tables exist with the columns the coordinator relies on.
    const store = openSqliteStore(r);
    const cols = (store.db.prepare("PRAGMA table_info(plans)").all() as { name: string }[]).map((c) => c.name);
    for (const c of ["plan_id", "parent_plan_id", "root_plan_id", "phase", "processing_state", "automation_profile", "attempt", "subplan_config", "issue_id", "wave", "title", "branch", "error_category", "error_message", "created_at", "updated_at", "processing_started_at"]) {
      expect(cols).toContain(c);
    }
    const ev = (store.db.prepare("PRAGMA table_info(events)").all() as { name: string }[]).map((c) => c.name);
    expect(ev).toEqual(["id", "plan_id", "root_plan_id", "at", "kind", "reason", "data"]);
  });
});

describe("the PostgreSQL store", () => {
  it("has the same columns as SQLite's, plus the project, in migration 4", async () => {
    const store = await openPostgresStore(server.url, "", "columns");
    expect(await store.schemaVersions()).toContain(4);
    const pool = await database(server.url);
    const columns = async (table: string) =>
      (await pool.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position", [table])).rows.map(
        (r) => r.column_name,
      );
    const sqlite = openSqliteStore(repo());
    const sqliteColumns = (table: string) => (sqlite.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    expect(await columns("cockpit_plans")).toEqual(["project", ...sqliteColumns("plans")]);
    expect(await columns("cockpit_plan_events")).toEqual(["project", ...sqliteColumns("events")]);
  });

  it("keeps projects apart in one database", async () => {
    const a = await openPostgresStore(server.url, "", "apart-a");
    const b = await openPostgresStore(server.url, "", "apart-b");
    const root = rootIdentity();
    await a.write((tx) => tx.insertPlan(row(root)));
    expect(await a.read(async (tx) => (await tx.roots()).map((p) => p.plan_id))).toEqual([root.plan_id]);
    expect(await b.read((tx) => tx.roots())).toEqual([]);
    // The same plan id may exist in another project, with its own numbering.
    expect((await b.write((tx) => tx.insertPlan(row(root)))).seq).toBe(1);
  });
});
