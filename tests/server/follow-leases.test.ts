// A following server with a shared PostgreSQL (a throwaway cluster): a claim or a start the
// remote decided against is undone, and the lease it took ends with it, so no issue stays leased
// to a clone that does not work on it.

import { afterEach, describe, expect, it } from "vitest";
import { planClaimCapability } from "@/lib/capabilities/plan-claim";
import { planTransitionCapability } from "@/lib/capabilities/plan-transition";
import { resolveConfig } from "@/lib/config";
import { follow, followerOf, unfollow } from "@/lib/server/follow";
import { contextFor } from "@/lib/server/state";
import { invoke } from "@/lib/surfaces/invoke";
import { cloneOf, makeOrigin, usePostgresCluster } from "../coordination/clones";
import { git } from "../support/repo";

const cluster = usePostgresCluster("follow_leases");
const followed: string[] = [];
afterEach(async () => {
  for (const r of followed.splice(0)) await unfollow(r);
});

/** A teammate without the database starts `issue` and pushes it, as a plain git user would. */
async function teammateStarts(origin: ReturnType<typeof makeOrigin>, issue: string): Promise<void> {
  const b = cloneOf(origin, "b");
  expect((await invoke(planTransitionCapability, contextFor(b, "Bob", resolveConfig({})), { issue, transition: "start" })).ok).toBe(true);
  git(b, "commit", "-qam", `${issue}: start by b`);
  git(b, "push", "-q", "origin", "HEAD:main");
}

/** A fresh database, an origin of 3 ready issues, and clone a following it with that database, its first sync done (before the teammate pushes). */
async function followingWithDatabase() {
  const db = cluster.freshDatabase();
  const config = resolveConfig({ database: cluster.server.urlFor(db) });
  const origin = makeOrigin(3);
  const a = cloneOf(origin, "a");
  follow(a, { intervalMs: 600_000 });
  followed.push(a);
  await followerOf(a)!.pending;
  return { db, config, origin, a };
}

describe("a following server's undone command and its lease", () => {
  it("a claim that lost the race releases the lease it took, and holds only the next issue's", async () => {
    const { db, config, origin, a } = await followingWithDatabase();
    await teammateStarts(origin, "I0001");
    const r = await invoke(planClaimCapability, contextFor(a, "Alice", config), {});
    expect(r.ok && (r.value as { issue: string }).issue).toBe("I0002");
    // The session on I0001 went with its undone start; only I0002's is there, Alice's and live.
    expect(cluster.server.sql("SELECT string_agg(issue || ' ' || actor || ' ' || coalesce(ended, 'live'), ',' ORDER BY issue) FROM cockpit_sessions", db)).toBe("I0002 Alice live");
  });

  it("a start refused after losing the race leaves no lease behind", async () => {
    const { db, config, origin, a } = await followingWithDatabase();
    await teammateStarts(origin, "I0003");
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice", config), { issue: "I0003", transition: "start" });
    expect(r.ok).toBe(false);
    expect(cluster.server.sql("SELECT count(*) FROM cockpit_sessions WHERE ended IS NULL", db)).toBe("0");
  });
});
