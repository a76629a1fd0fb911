import { join } from "node:path";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { loadPlan } from "../../lib/repo";
import { jsonOf, runNode, spawnCli, refusalOf } from "../support/processes";
import { runCliInProcess } from "../support/cli-in-process";
import { spawnSync } from "node:child_process";
import { git, tempDir } from "../support/repo";

const gitStatus = (cwd: string, ...args: string[]) => spawnSync("git", args, { cwd }).status;
import { cloneOf, makeOrigin, usePostgresCluster } from "./clones";

// Execution plans on a real PostgreSQL: clones of one origin, coordinators in separate processes.

const ROOT = join(__dirname, "..", "..");
const cluster = usePostgresCluster("plans");
const { freshDatabase } = cluster;

const plansCli = (args: string[], options: { env?: Record<string, string> }) => spawnCli(args, { ...options, command: "plans" });

/** The coordinator worker in plain CommonJS; better-sqlite3 and pg are found through NODE_PATH. */
function bundleDriver(): string {
  const out = join(tempDir("cockpit-drive-"), "drive-worker.cjs");
  buildSync({
    entryPoints: [join(ROOT, "tests", "helpers", "execution-drive-worker.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile: out,
    external: ["better-sqlite3", "pg"],
    // As scripts/build-cli.mjs builds the command: pg's import() (at the first use of a database)
    // becomes a require(), which NODE_PATH reaches.
    supported: { "dynamic-import": false },
    logLevel: "warning",
  });
  return out;
}


interface EventRow {
  id: number;
  plan_id: string;
  at: string;
  kind: string;
}

describe("execution plans across clones", () => {
  it("one plan, max_parallel 4, driven by 3 coordinator processes in 3 clones: every child runs once, never more than 4 at a time", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(12);
    const clones = ["a", "b", "c"].map((n) => cloneOf(origin, n));
    const created = jsonOf(
      await plansCli(["create", "--milestone", "M1", "--mode", "parallel", "--max-parallel", "4", "--json", "--repo", clones[0]], {
        env: { COCKPIT_DATABASE_URL: url },
      }),
    );
    expect(created.children).toHaveLength(12);
    // The other clones see the plan the first one made: the store is the database, not a file.
    const seen = jsonOf(await plansCli(["get", created.plan_id, "--json", "--repo", clones[2]], { env: { COCKPIT_DATABASE_URL: url } }));
    expect(seen.children.map((c: { plan_id: string }) => c.plan_id)).toEqual(created.children.map((c: { plan_id: string }) => c.plan_id));

    // 3 processes of 3 lanes each: 9 claimants for 4 slots.
    const driver = bundleDriver();
    const env = { COCKPIT_DATABASE_URL: url, NODE_PATH: join(ROOT, "node_modules") };
    const runs = await Promise.all(clones.map((clone) => runNode(driver, [clone, created.plan_id, "3"], { env, timeoutMs: 120_000 })));
    for (const r of runs) expect([r.code, r.stderr, r.timedOut]).toEqual([0, "", false]);
    const ran = runs.map((r) => (JSON.parse(r.stdout) as { ran: string[] }).ran);

    // Every child ran exactly once, in one clone; each clone's files say DONE for just the issues it ran.
    expect(ran.flat().sort()).toEqual(origin.ids);
    for (const [i, clone] of clones.entries()) {
      const done = loadPlan(clone).issues.filter((issue) => issue.status === "DONE").map((issue) => issue.id);
      expect(done.sort()).toEqual([...ran[i]].sort());
      expect(ran[i].length).toBeGreaterThan(0);
    }
    const plan = jsonOf(await plansCli(["get", created.plan_id, "--json", "--repo", clones[1]], { env: { COCKPIT_DATABASE_URL: url } }));
    expect(plan.processing_state).toBe("completed");
    expect(plan.children).toHaveLength(12); // no retries: nothing failed
    expect(plan.children.every((c: { processing_state: string; attempt: number }) => c.processing_state === "completed" && c.attempt === 1)).toBe(true);

    const events = JSON.parse(
      cluster.server.sql(`SELECT json_agg(e ORDER BY id) FROM (SELECT id, plan_id, at, kind FROM cockpit_plan_events WHERE kind IN ('claimed', 'completed')) e`, db),
    ) as EventRow[];
    const children = created.children.map((c: { plan_id: string }) => c.plan_id) as string[];
    for (const child of children) {
      expect(events.filter((e) => e.plan_id === child).map((e) => e.kind)).toEqual(["claimed", "completed"]);
    }
    // In the order the database serialised the writes, never more than 4 processing.
    let processing = 0;
    let most = 0;
    for (const e of events) {
      processing += e.kind === "claimed" ? 1 : -1;
      most = Math.max(most, processing);
    }
    expect(most).toBe(4); // the limit was reached, and held
    // And by the clock: each child's claim-to-completion span overlaps at most 3 others at any instant.
    const spans = children.map((child) => {
      const mine = events.filter((e) => e.plan_id === child);
      return [Date.parse(mine[0].at), Date.parse(mine[1].at)] as const;
    });
    const points = spans.flatMap(([start, end]) => [
      { t: start, d: 1 },
      { t: end, d: -1 },
    ]);
    points.sort((x, y) => x.t - y.t || x.d - y.d); // an end at the same instant frees the slot first
    let running = 0;
    let peak = 0;
    for (const p of points) {
      running += p.d;
      peak = Math.max(peak, running);
    }
    expect(peak).toBeLessThanOrEqual(4);
  }, 180_000);

  it("a database that cannot be reached: plans commands and reads refuse, naming the URL without its password", async () => {
    const origin = makeOrigin(2);
    const clone = cloneOf(origin, "x");
    const url = `postgres://cockpit:hunter2-secret@127.0.0.1:${cluster.server.port + 1}/nowhere`;
    for (const args of [
      ["create", "--milestone", "M1"],
      ["list"],
      ["get", "01ABC"],
    ]) {
      const r = await plansCli([...args, "--repo", clone, "--database", url], {});
      expect(r.code).toBe(15);
      expect(refusalOf(r)).toContain("postgres://cockpit:***@127.0.0.1");
      expect(refusalOf(r)).not.toContain("hunter2");
      expect(r.stdout).toBe("");
    }
  }, 60_000);

  describe("plans delete removes a root plan, every child, its timeline and its integration branch", () => {
    const scenario = async (database: string | undefined) => {
      const clone = cloneOf(makeOrigin(3), database ? "pg" : "sqlite");
      const store = database ? ["--database", cluster.server.urlFor(database)] : [];
      const run = (...args: string[]) => runCliInProcess(["plans", ...args, "--repo", clone, ...store]);
      const created = JSON.parse((await run("create", "--milestone", "M1", "--json")).stdout) as { plan_id: string; integration_branch: string; children: { plan_id: string }[] };
      expect(created.children).toHaveLength(3);
      const branch = `refs/heads/${created.integration_branch}`;
      expect(git(clone, "rev-parse", "--verify", "-q", branch)).toMatch(/^[0-9a-f]{40}$/);

      // A child is not deleted on its own; nor a plan whose child is being worked on, without force.
      const child = await run("delete", created.children[0].plan_id, "--json");
      expect([child.code, JSON.parse(child.stdout).error.message]).toEqual([15, expect.stringContaining(`is a child of ${created.plan_id}; delete its root`)]);
      expect((await run("claim", created.plan_id)).code).toBe(0);
      const busy = await run("delete", created.plan_id);
      expect([busy.code, busy.stderr]).toEqual([15, expect.stringContaining("1 child(ren) of")]);
      expect(JSON.parse((await run("list", "--json")).stdout).plans).toHaveLength(1);

      const gone = JSON.parse((await run("delete", created.plan_id, "--force", "--json")).stdout);
      expect(gone).toEqual({ deleted: created.plan_id, plans: 4, events: expect.any(Number), branch: { name: created.integration_branch, deleted: true } });
      expect(gone.events).toBeGreaterThan(0);
      expect(JSON.parse((await run("list", "--json")).stdout).plans).toEqual([]);
      expect(gitStatus(clone, "rev-parse", "--verify", "-q", branch)).not.toBe(0);
      const again = await run("delete", created.plan_id);
      expect([again.code, again.stderr]).toEqual([12, expect.stringContaining(`no execution plan '${created.plan_id}'`)]);

      // A plan whose integration branch is checked out keeps the branch, and says so.
      const next = JSON.parse((await run("create", "--milestone", "M1", "--json")).stdout) as { plan_id: string; integration_branch: string };
      git(clone, "checkout", "-q", next.integration_branch);
      const kept = JSON.parse((await run("delete", next.plan_id, "--json")).stdout);
      expect(kept.branch).toEqual({ name: next.integration_branch, deleted: false, kept_because: "it is checked out" });
    };
    it("on the clone's SQLite store", () => scenario(undefined), 60_000);
    it("on a shared PostgreSQL", () => scenario(freshDatabase()), 60_000);
  });
});
