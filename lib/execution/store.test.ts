import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSubplanConfig } from "./config";
import { childIdentity, rootIdentity } from "./model";
import { ExecutionStore, MIGRATIONS, STORE_FILE, closeStores, newPlanRow, openExistingStore, openStore, withExistingStore, withStore, type NewPlanRow } from "./store";

const dirs: string[] = [];
afterAll(() => {
  closeStores();
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

describe("the execution store", () => {
  it("lives at .ai/local/state/cockpit.db, in WAL mode with a 10 s busy timeout", () => {
    const r = repo();
    withStore(r, (store) => {
      expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(store.db.pragma("busy_timeout", { simple: true })).toBe(10_000);
      expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    });
    expect(existsSync(join(r, STORE_FILE))).toBe(true);
  });

  it("is not created by a read: with no store, a read answers from `absent` and leaves the folder empty", () => {
    const r = repo();
    expect(openExistingStore(r)).toBeUndefined();
    expect(withExistingStore(r, () => "store", () => "absent")).toBe("absent");
    expect(readdirSync(r)).toEqual([]);
    withStore(r, () => undefined);
    expect(withExistingStore(r, (store) => store.path, () => "absent")).toBe(join(r, STORE_FILE));
  });

  it("applies each migration once, however often it is opened", () => {
    const r = repo();
    const first = ExecutionStore.open(r);
    expect(first.schemaVersions()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(first.migrate()).toEqual([]); // nothing left to apply
    first.close();
    for (let i = 0; i < 3; i++) {
      withStore(r, (store) => {
        expect(store.migrate()).toEqual([]);
        const rows = store.db.prepare("SELECT version, name FROM schema_migrations").all();
        expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      });
    }
    // Tables exist with the columns the coordinator relies on.
    withStore(r, (store) => {
      const cols = (store.db.prepare("PRAGMA table_info(plans)").all() as { name: string }[]).map((c) => c.name);
      for (const c of ["plan_id", "parent_plan_id", "root_plan_id", "phase", "processing_state", "automation_profile", "attempt", "subplan_config", "issue_id", "wave", "title", "branch", "error_category", "error_message", "created_at", "updated_at", "processing_started_at"]) {
        expect(cols).toContain(c);
      }
      const ev = (store.db.prepare("PRAGMA table_info(events)").all() as { name: string }[]).map((c) => c.name);
      expect(ev).toEqual(["id", "plan_id", "root_plan_id", "at", "kind", "reason", "data"]);
    });
  });

  it("stores plans, answers depth by walking ancestors, and the parent's view of its children", () => {
    const r = repo();
    withStore(r, (store) => {
      const root = rootIdentity();
      const child = childIdentity(root);
      const grandchild = childIdentity(child);
      const retry = childIdentity(root);
      store.write(() => {
        store.insertPlan(row(root, { subplan_config: parseSubplanConfig({ execution_mode: "parallel" }), phase: "execute", processing_state: "processing" }));
        store.insertPlan(row(child, { issue_id: "I01", wave: 0, processing_state: "errored", error_category: "timeout", error_message: "slow" }));
        store.insertPlan(row(grandchild));
        store.insertPlan(row(retry, { issue_id: "I01", wave: 0, attempt: 2, retry_of: child.plan_id }));
      });
      expect(store.depthOf(root.plan_id)).toBe(0);
      expect(store.depthOf(child.plan_id)).toBe(1);
      expect(store.depthOf(grandchild.plan_id)).toBe(2);
      expect(store.subplanStatuses(root.plan_id)).toEqual([
        { plan_id: child.plan_id, phase: "strategize", processing_state: "errored", attempt: 1, last_error: { category: "timeout", message: "slow" } },
        { plan_id: retry.plan_id, phase: "strategize", processing_state: "queued", attempt: 2, last_error: null },
      ]);
      const model = store.model(root.plan_id);
      expect(model.subplan_config?.execution_mode).toBe("parallel");
      expect(model.subplan_statuses).toHaveLength(2);
      expect(store.model(grandchild.plan_id).root_plan_id).toBe(root.plan_id);
      expect(store.descendants(root.plan_id).map((p) => p.plan_id)).toEqual([child.plan_id, grandchild.plan_id, retry.plan_id]);
      expect(store.roots().map((p) => p.plan_id)).toEqual([root.plan_id]);

      const updated = store.write(() => store.updatePlan(retry.plan_id, { processing_state: "processing", processing_started_at: AT }, "2026-11-01T10:00:05.000Z"));
      expect(updated).toMatchObject({ processing_state: "processing", updated_at: "2026-11-01T10:00:05.000Z" });
      // The schema refuses states outside the model.
      expect(() => store.write(() => store.updatePlan(retry.plan_id, { processing_state: "done" as never }, AT))).toThrow(/CHECK constraint/);
    });
  });

  it("keeps events in order, by root and by plan, with JSON data", () => {
    const r = repo();
    withStore(r, (store) => {
      const root = rootIdentity();
      const child = childIdentity(root);
      store.write(() => {
        store.insertPlan(row(root));
        store.insertPlan(row(child));
        store.addEvent({ plan_id: root.plan_id, root_plan_id: root.plan_id, at: AT, kind: "created", reason: "made", data: { n: 1 } });
        store.addEvent({ plan_id: child.plan_id, root_plan_id: root.plan_id, at: AT, kind: "claimed", reason: "free" });
      });
      expect(store.events({ root: root.plan_id }).map((e) => [e.kind, e.data])).toEqual([
        ["created", { n: 1 }],
        ["claimed", {}],
      ]);
      expect(store.events({ plan: child.plan_id }).map((e) => e.kind)).toEqual(["claimed"]);
      expect(store.lastEvent(root.plan_id)?.kind).toBe("claimed");
    });
  });

  it("a write that throws leaves nothing behind", () => {
    const r = repo();
    withStore(r, (store) => {
      const root = rootIdentity();
      expect(() =>
        store.write(() => {
          store.insertPlan(row(root));
          throw new Error("boom");
        }),
      ).toThrow("boom");
      expect(store.plan(root.plan_id)).toBeUndefined();
    });
  });
});
