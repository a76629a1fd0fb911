import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../lib/coordination/database";
import { jsonOf, spawnCli, type CliRun, refusalOf } from "../support/processes";
import { freePort } from "../support/postgres-server";
import { cloneOf, holderIdOf, ISSUES_DIR, makeOrigin, usePostgresCluster } from "./clones";

// Ids reserved in a real PostgreSQL: clones of one origin that never pull each other's records,
// creating issues at once through the real `cockpit` command.

const cluster = usePostgresCluster("ids");
const { freshDatabase } = cluster;

const newIssue = (clone: string, url: string | undefined, title: string, ...more: string[]) =>
  spawnCli(
    ["new", "issue", "--milestone", "M1", "--title", title, "--add", "acceptance_criteria=ok", "--add", "validation=true", ...more, "--json", "--repo", clone],
    { env: { COCKPIT_DATABASE_URL: url } },
  );

const idOf = (r: CliRun): string => jsonOf(r).id;

/** The ids of the issue files a clone has beyond the origin's. */
const newIds = (clone: string, before: readonly string[]) =>
  readdirSync(join(clone, ISSUES_DIR))
    .map((n) => n.slice(0, -".yaml".length))
    .filter((id) => !before.includes(id));


describe("ids reserved in the shared database", () => {
  it("24 concurrent creations across 4 clones of one origin get 24 distinct ids, each reserved by its clone", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(3);
    const clones = ["a", "b", "c", "d"].map((n) => cloneOf(origin, n));

    // 6 creations per clone, all at once, on an empty database (so the migrations race too).
    const runs = await Promise.all(clones.flatMap((clone, c) => Array.from({ length: 6 }, (_, k) => newIssue(clone, url, `Clone ${c} issue ${k}`))));
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, ""]);
    const ids = runs.map(idOf);
    expect(new Set(ids).size).toBe(24);
    // In the plan's own pattern, after the origin's I0003, with no gap.
    expect([...ids].sort()).toEqual(Array.from({ length: 24 }, (_, i) => `I${String(i + 4).padStart(4, "0")}`));

    const holders = clones.map(holderIdOf);
    expect(new Set(holders).size).toBe(4);
    const rows = cluster.server.sql("SELECT id || ' ' || holder FROM cockpit_record_ids ORDER BY id", db).split("\n");
    expect(rows).toHaveLength(24);
    for (const [c, clone] of clones.entries()) {
      const mine = ids.slice(c * 6, c * 6 + 6).sort();
      expect(newIds(clone, origin.ids).sort()).toEqual(mine);
      expect(rows.filter((r) => r.endsWith(` ${holders[c]}`)).map((r) => r.split(" ")[0]).sort()).toEqual(mine);
    }
    expect(cluster.server.sql("SELECT max(version) FROM cockpit_schema", db)).toBe(String(SCHEMA_VERSION));
  });

  it("a given id reserved by another clone is refused naming the holder and nothing is written; a free given id is reserved for its clone", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(2);
    const [a, b] = ["a", "b"].map((n) => cloneOf(origin, n));

    const minted = idOf(await newIssue(a, url, "Minted in a"));
    expect(minted).toBe("I0003");
    const clash = await newIssue(b, url, "Taken by hand in b", "--id", minted);
    expect(clash.code).toBe(15);
    expect(refusalOf(clash)).toContain(`'I0003' is reserved by ${holderIdOf(a)}`);
    expect(existsSync(join(b, ISSUES_DIR, "I0003.yaml"))).toBe(false);

    // A given id nobody holds is reserved for its clone: the other clone's mint goes past it.
    expect(idOf(await newIssue(b, url, "Given in b", "--id", "I0100"))).toBe("I0100");
    expect(cluster.server.sql("SELECT holder FROM cockpit_record_ids WHERE id = 'I0100'", db)).toBe(holderIdOf(b));
    expect(idOf(await newIssue(a, url, "Minted after the given one"))).toBe("I0101");
  });

  it("a refused creation gives its number back", async () => {
    const db = freshDatabase();
    const url = cluster.server.urlFor(db);
    const origin = makeOrigin(2);
    const a = cloneOf(origin, "a");
    // No acceptance criteria or validation: FAIL findings, refused.
    const bare = await spawnCli(["new", "issue", "--milestone", "M1", "--title", "Without criteria", "--json", "--repo", a], { env: { COCKPIT_DATABASE_URL: url } });
    expect(bare.code).toBe(15);
    expect(cluster.server.sql("SELECT count(*) FROM cockpit_record_ids", db)).toBe("0");
    expect(idOf(await newIssue(a, url, "With criteria"))).toBe("I0003");
  });

  it("without a database ids come from the files alone: two clones mint the same one", async () => {
    const origin = makeOrigin(2);
    const [a, b] = ["a", "b"].map((n) => cloneOf(origin, n));
    expect(idOf(await newIssue(a, undefined, "In a"))).toBe("I0003");
    expect(idOf(await newIssue(b, undefined, "In b"))).toBe("I0003");
    expect(existsSync(join(a, ".ai/local/state/holder"))).toBe(false);
  });

  it("a database that cannot be reached refuses the creation with the URL without its password; nothing is written", async () => {
    const origin = makeOrigin(2);
    const a = cloneOf(origin, "a");
    const url = `postgres://cockpit:s3cret-pw@127.0.0.1:${await freePort()}/nowhere`;
    const r = await newIssue(a, url, "Nowhere");
    expect(r.code).toBe(15);
    expect(refusalOf(r)).toContain("postgres://cockpit:***@127.0.0.1");
    expect(refusalOf(r)).not.toContain("s3cret-pw");
    expect(existsSync(join(a, ISSUES_DIR, "I0003.yaml"))).toBe(false);
  });
});
