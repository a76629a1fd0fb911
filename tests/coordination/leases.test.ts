import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { heartbeat } from "../../lib/coordination/plan-leases";
import { SCHEMA_VERSION } from "../../lib/coordination/database";
import { loadPlan } from "../../lib/repo";
import { jsonOf, spawnCli, refusalOf } from "../support/processes";
import { git } from "../support/repo";
import { actorOfClone, cloneOf, makeOrigin, usePostgresCluster } from "./clones";

// Sessions and their leases on a real PostgreSQL: clones of one origin, the real `cockpit` command,
// real git. Each clone acts as its git user.name (`Cockpit Tests a`).

const cluster = usePostgresCluster("leases");
const { freshDatabase } = cluster;

const plan = (clone: string, url: string | undefined, ...args: string[]) =>
  spawnCli([...args, "--repo", clone], { env: { COCKPIT_DATABASE_URL: url } });


describe("leases across clones", () => {
  it("40 concurrent claims in 4 clones take 40 distinct issues, then every clone pushes with no conflict", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(48);
    const clones = ["a", "b", "c", "d"].map((n) => cloneOf(origin, n));

    // 10 claims per clone, all at once, on an empty database (so the migrations race too).
    const runs = await Promise.all(clones.flatMap((clone) => Array.from({ length: 10 }, () => plan(clone, url, "claim", "--json"))));
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, ""]);
    const claimed = runs.map((r) => jsonOf(r).issue as string);
    expect(new Set(claimed).size).toBe(40);

    const rows = cluster.server.sql("SELECT issue || ' ' || actor FROM cockpit_sessions WHERE ended IS NULL ORDER BY issue", db).split("\n");
    expect(rows).toHaveLength(40);
    const holders = clones.map(actorOfClone);
    expect(new Set(holders).size).toBe(4);
    for (const [i, clone] of clones.entries()) {
      const mine = claimed.slice(i * 10, i * 10 + 10).sort();
      const leased = rows.filter((r) => r.endsWith(` ${holders[i]}`)).map((r) => r.split(" ")[0]).sort();
      expect(leased).toEqual(mine);
      const active = jsonOf(await plan(clone, undefined, "issues", "--status", "ACTIVE", "--json")).issues.map((x: { id: string }) => x.id).sort();
      expect(active).toEqual(mine);
    }
    expect(cluster.server.sql("SELECT max(version) FROM cockpit_schema", db)).toBe(String(SCHEMA_VERSION));

    // Before any pull: clone b sees a's issues READY in its files, and leased.
    const ofA = claimed.slice(0, 10);
    const inB = jsonOf(await plan(clones[1], url, "issues", "--json")).issues as { id: string; status: string; lease?: { holder: string } }[];
    const leasedInB = inB.filter((i) => i.lease);
    expect(leasedInB.map((i) => i.id).sort()).toEqual([...claimed].sort());
    const aInB = inB.find((i) => i.id === ofA[0])!;
    expect(aInB.status).toBe("READY");
    expect(aInB.lease!.holder).toBe(holders[0]);
    const next = jsonOf(await plan(clones[1], url, "next", "--json"));
    expect(claimed).not.toContain(next.issue.id);
    expect(next.issue.lease).toBeUndefined();
    // Without a database: no lease member at all.
    const plain = jsonOf(await plan(clones[1], undefined, "issues", "--json")).issues as Record<string, unknown>[];
    expect(plain.every((i) => !("lease" in i))).toBe(true);

    // A start in clone b of an issue clone a holds is refused, naming the holder and since when.
    const refusedStart = await plan(clones[1], url, "start", ofA[0]);
    expect(refusedStart.code).toBe(15);
    expect(refusalOf(refusedStart)).toMatch(new RegExp(`${ofA[0]} is held by ${holders[0]} \\(session s-[0-9a-f]{12}, epoch 1\\) since 20`));
    expect(jsonOf(await plan(clones[1], undefined, "record", ofA[0], "--json")).issue.status).toBe("READY");

    // Every clone commits and pulls with rebase, then pushes: no conflict.
    for (const clone of clones) {
      git(clone, "add", "-A");
      git(clone, "commit", "-q", "-m", "claims");
    }
    for (const clone of clones) {
      git(clone, "pull", "-q", "--rebase");
      git(clone, "push", "-q");
    }
    const check = cloneOf(origin, "check");
    const active = jsonOf(await plan(check, undefined, "issues", "--status", "ACTIVE", "--json")).issues.map((x: { id: string }) => x.id).sort();
    expect(active).toEqual([...claimed].sort());
    expect(existsSync(join(check, ".ai/local/state/holder"))).toBe(false);
  }, 180_000);

  it("a session ends when its issue reaches VERIFY, or by release (only the holder's, unless a person forces it); another clone's verify is refused", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(3);
    const [a, b] = [cloneOf(origin, "a"), cloneOf(origin, "b")];
    const [ofA, ofB] = [actorOfClone(a), actorOfClone(b)];
    expect(jsonOf(await plan(a, url, "start", "I0001", "--json")).to).toBe("ACTIVE");
    expect(jsonOf(await plan(a, url, "start", "I0002", "--json")).to).toBe("ACTIVE");
    const live = () => cluster.server.sql("SELECT coalesce(string_agg(issue, ',' ORDER BY issue), '') FROM cockpit_sessions WHERE ended IS NULL", db);
    expect(live()).toBe("I0001,I0002");

    expect(jsonOf(await plan(a, url, "verify", "I0001", "--json")).to).toBe("VERIFY");
    expect(live()).toBe("I0002");
    expect(cluster.server.sql("SELECT ended || ' ' || ended_by FROM cockpit_sessions WHERE issue = 'I0001'", db)).toBe(`finished ${ofA}`);
    // Once VERIFY's session is over, b may start I0001 as far as sessions go (its files still say READY): the next epoch.
    expect(jsonOf(await plan(b, url, "start", "I0001", "--json")).to).toBe("ACTIVE");
    expect(cluster.server.sql("SELECT epoch FROM cockpit_sessions WHERE issue = 'I0001' AND ended IS NULL", db)).toBe("2");

    const notMine = await plan(b, url, "release", "I0002");
    expect(notMine.code).toBe(15);
    expect(refusalOf(notMine)).toContain(`I0002 is held by ${ofA}`);
    const forced = jsonOf(await plan(b, url, "release", "I0002", "--force", "--note", "a crashed", "--json"));
    expect(forced).toMatchObject({ issue: "I0002", released: true, holder: ofA });
    expect(jsonOf(await plan(b, url, "release", "I0002", "--json"))).toEqual({ issue: "I0002", released: false });
    expect(jsonOf(await plan(b, url, "release", "I0001", "--json"))).toMatchObject({ issue: "I0001", released: true, holder: ofB });
    expect(live()).toBe("");

    // Another clone's verify of an issue a holds (its files say ACTIVE after a pull) is refused naming a;
    // a person may force it with a reason, which the ledger keeps, and the session is finished.
    expect(jsonOf(await plan(a, url, "start", "I0003", "--json")).to).toBe("ACTIVE");
    git(a, "add", "-A");
    git(a, "commit", "-q", "-m", "start I0003");
    git(a, "push", "-q");
    git(b, "stash", "-q", "--include-untracked");
    git(b, "pull", "-q", "--rebase");
    const verify = await plan(b, url, "verify", "I0003");
    expect(verify.code).toBe(15);
    expect(refusalOf(verify)).toContain(`I0003 is held by ${ofA}`);
    expect(jsonOf(await plan(b, url, "record", "I0003", "--json")).issue.status).toBe("ACTIVE");
    const overridden = await plan(b, url, "verify", "I0003", "--force", "--reason", "a is gone", "--json");
    expect([overridden.code, overridden.stderr, jsonOf(overridden).to]).toEqual([0, "", "VERIFY"]);
    expect(cluster.server.sql("SELECT ended || ' ' || ended_by FROM cockpit_sessions WHERE issue = 'I0003'", db)).toBe(`finished ${ofB}`);

    // Without the database, b's own store holds no session.
    expect(jsonOf(await plan(b, undefined, "release", "I0001", "--json"))).toEqual({ issue: "I0001", released: false });
  }, 120_000);

  it("an expired lease is taken over by another clone: the old session is reclaimed, the new one has the next epoch", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(2);
    const [a, b] = [cloneOf(origin, "a"), cloneOf(origin, "b")];
    // Long enough that the refusal below comes within it on a loaded machine; then the lease runs out.
    const short = { COCKPIT_DATABASE_URL: url, COCKPIT_LEASE_TTL_S: "4" };
    expect((await spawnCli(["start", "I0001", "--repo", a], { env: short })).code).toBe(0);
    expect((await plan(b, url, "start", "I0001")).code).toBe(15);
    const leaseOf = async () => (jsonOf(await plan(b, url, "issues", "--json")).issues as { id: string; lease?: unknown }[]).find((i) => i.id === "I0001")!.lease;
    await expect.poll(leaseOf, { timeout: 15_000, interval: 250 }).toBeUndefined();
    const taken = await plan(b, url, "start", "I0001", "--json");
    expect(jsonOf(taken).to).toBe("ACTIVE");
    expect(cluster.server.sql("SELECT string_agg(actor || ' ' || epoch || ' ' || coalesce(ended, 'live'), ',' ORDER BY epoch) FROM cockpit_sessions", db)).toBe(
      `${actorOfClone(a)} 1 reclaimed,${actorOfClone(b)} 2 live`,
    );
  }, 60_000);

  it("reads never make the clone's holder id", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(2);
    const a = cloneOf(origin, "a");
    for (const verb of ["model", "issues", "next", "status", "waves", "roadmap", "validate"]) {
      expect((await plan(a, url, verb, "--json")).code).toBe(0);
    }
    expect(existsSync(join(a, ".ai/local/state/holder"))).toBe(false);
    expect(git(a, "status", "--porcelain")).toBe("");
  }, 60_000);

  it("the server killed during claims: each claim completed or wrote nothing, and no orphan lease outlives its expiry", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(30);
    const clones = [cloneOf(origin, "a"), cloneOf(origin, "b")];
    const env = { COCKPIT_DATABASE_URL: url, COCKPIT_LEASE_TTL_S: "20" };
    // Migrate first, so that the kill lands among claims.
    expect((await spawnCli(["next", "--repo", clones[0]], { env })).code).toBe(0);

    let completed = 0;
    const runs = clones.flatMap((clone) =>
      Array.from({ length: 12 }, () =>
        spawnCli(["claim", "--json", "--repo", clone], { env }).then((r) => {
          if (r.code === 0) completed++;
          return { clone, r };
        }),
      ),
    );
    const deadline = Date.now() + 60_000;
    while (completed < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await cluster.server.kill();
    const results = await Promise.all(runs);
    await cluster.server.restart();

    const ok = results.filter((x) => x.r.code === 0);
    const failed = results.filter((x) => x.r.code !== 0);
    expect(ok.length).toBeGreaterThanOrEqual(3);
    expect(failed.length).toBeGreaterThan(0); // the kill did land among the claims
    for (const f of failed) {
      // Under --json a refusal is HTTP's error body on stdout. On stderr, at most the one warning of
      // a claim whose session was opened before the database went away: it could not be removed,
      // and ends at its expiry (checked below).
      expect(f.r.code, f.r.stdout).toBe(15);
      expect(f.r.stderr).toMatch(/^(\[cockpit\] the session on I\d+ of a refused move was not removed \(the coordination database postgres:\/\/postgres:\*\*\*@[^ ]+ cannot be used [^\n]*\); it ends at its expiry\n)?$/);
      expect(JSON.parse(f.r.stdout).error.message).toContain("the coordination database postgres://postgres:***@");
    }
    const rows = cluster.server.sql("SELECT issue || ' ' || actor FROM cockpit_sessions WHERE ended IS NULL ORDER BY issue", db).split("\n").filter(Boolean);
    const completedIssues: string[] = [];
    // The agents at work send heartbeats (nothing renews a lease on their behalf).
    const beat = async (clone: string, ids: readonly string[]) => {
      for (const id of ids) await heartbeat(clone, () => loadPlan(clone), id, { actor: actorOfClone(clone), kind: "agent" }, undefined, { database: url });
    };
    for (const clone of clones) {
      // What a clone's files hold ACTIVE is exactly what its successful claims answered.
      const mine = ok.filter((x) => x.clone === clone).map((x) => JSON.parse(x.r.stdout).issue as string).sort();
      const active = jsonOf(await spawnCli(["issues", "--status", "ACTIVE", "--json", "--repo", clone])).issues.map((i: { id: string }) => i.id).sort();
      expect(active).toEqual(mine);
      for (const id of mine) expect(rows).toContain(`${id} ${actorOfClone(clone)}`);
      completedIssues.push(...mine);
      await beat(clone, mine);
    }
    expect(new Set(completedIssues).size).toBe(completedIssues.length);

    // Past the expiry, only the completed claims (renewed) are leased: no orphan is left.
    const third = cloneOf(origin, "c");
    const orphanExpiry = cluster.server.sql(
      "SELECT coalesce(max(extract(epoch FROM expires::timestamptz - now())), 0) FROM cockpit_sessions WHERE ended IS NULL AND NOT (issue = ANY('{" + completedIssues.join(",") + "}'))",
      db,
    );
    await new Promise((r) => setTimeout(r, Math.max(0, Number(orphanExpiry) * 1000) + 500));
    // Meanwhile the agents sent heartbeats again (under load the wait can outlast one lease).
    for (const clone of clones) {
      const mine = ok.filter((x) => x.clone === clone).map((x) => JSON.parse(x.r.stdout).issue as string);
      await beat(clone, mine);
    }
    const leased = (jsonOf(await spawnCli(["issues", "--json", "--repo", third], { env })).issues as { id: string; lease?: unknown }[])
      .filter((i) => i.lease)
      .map((i) => i.id)
      .sort();
    expect(leased).toEqual([...completedIssues].sort());
  }, 180_000);
});

describe("asks on a shared database", () => {
  it("an ask made in one clone is in the other clone's inbox; answered there, the first clone's wait ends with the answer", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(2);
    const [a, b] = ["a", "b"].map((n) => cloneOf(origin, n));
    const claimed = jsonOf(await plan(a, url, "claim", "--as", "builder-1", "--json"));
    const waiting = plan(a, url, "ask", claimed.issue, "--question", "Approve the migration?", "--kind", "approve", "--wait", "--timeout", "60", "--as", "builder-1");
    let asks: { id: string; asker: string; session: string }[] = [];
    for (let i = 0; i < 100 && asks.length === 0; i++) {
      asks = jsonOf(await plan(b, url, "inbox", "--json")).asks;
      if (asks.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(asks).toEqual([expect.objectContaining({ asker: "builder-1", session: claimed.session })]);
    expect(cluster.server.sql("SELECT count(*) FROM cockpit_asks WHERE ended IS NULL", db)).toBe("1");
    const answered = await plan(b, url, "answer", asks[0].id, "--no", "--comment", "not before the backup", "--as", "lead", "--json");
    expect([answered.code, answered.stderr]).toEqual([0, ""]);
    const done = await waiting;
    expect([done.code, done.stderr]).toEqual([0, ""]);
    expect(done.stdout.replace(/\s+/g, " ").trim()).toBe(`plan: ask ${asks[0].id} on ${claimed.issue} answered by lead: no (not before the backup)`);
    // The store says who answered, once.
    expect(cluster.server.sql("SELECT ended || ' ' || ended_by FROM cockpit_asks", db)).toBe("answered lead");
  }, 120_000);
});
