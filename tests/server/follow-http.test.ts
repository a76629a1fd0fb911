// POST /api/v1/sync and GET /api/v1/sync as the route handlers serve them: a GitHub push webhook
// signed with COCKPIT_WEBHOOK_SECRET makes a following server fetch, a forged one is 401 and
// fetches nothing, a GitLab token is checked the same way.

import { createHmac } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { follow, unfollow, followerOf, sync } from "@/lib/server/follow";
import { securityFromEnv } from "@/lib/server/security";
import { handleSyncRequest, handleSyncStatus } from "@/lib/surfaces/http-sync";
import { cloneOf, makeOrigin, type Origin } from "../coordination/clones";
import { cleanupRepos, git } from "../support/repo";

const SECRET = "a-webhook-secret-for-tests";
const before = process.env.COCKPIT_WEBHOOK_SECRET;
process.env.COCKPIT_WEBHOOK_SECRET = SECRET;
let repo = "";
afterEach(async () => {
  await unfollow(repo);
});
afterAll(() => {
  if (before === undefined) delete process.env.COCKPIT_WEBHOOK_SECRET;
  else process.env.COCKPIT_WEBHOOK_SECRET = before;
  cleanupRepos();
});

const settings = () => ({ repo, security: { ...securityFromEnv(), token: "the-command-token" } });
const push = (headers: Record<string, string>, body = '{"ref":"refs/heads/main"}') =>
  handleSyncRequest(new Request("http://127.0.0.1:3000/api/v1/sync", { method: "POST", headers: { "content-type": "application/json", ...headers }, body }), settings());

async function followed(): Promise<Origin> {
  const origin = makeOrigin(2);
  repo = cloneOf(origin, "a");
  await sync(follow(repo, { intervalMs: 600_000 }));
  return origin;
}

describe("POST /api/v1/sync", () => {
  it("a signed GitHub push makes the server fetch (202 with the state); a forged one is 401 and fetches nothing", async () => {
    const origin = await followed();
    const fetchedAt = followerOf(repo)!.status.last_fetch_at;
    const teammate = cloneOf(origin, "b");
    git(teammate, "commit", "-q", "--allow-empty", "-m", "a teammate's commit");
    git(teammate, "push", "-q", "origin", "HEAD:main");
    const body = '{"ref":"refs/heads/main"}';
    const forged = await push({ "x-hub-signature-256": `sha256=${createHmac("sha256", "not-the-secret").update(body).digest("hex")}` }, body);
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toContain("X-Hub-Signature-256");
    // A webhook header is judged alone: the command token beside a forged signature does not help.
    const forgedWithToken = await push({ authorization: "Bearer the-command-token", "x-hub-signature-256": "sha256=00" }, body);
    expect(forgedWithToken.status).toBe(401);
    expect(followerOf(repo)!.status.last_fetch_at).toBe(fetchedAt);
    const signed = await push({ "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}` }, body);
    expect(signed.status).toBe(202);
    expect(((await signed.json()) as { following: boolean }).following).toBe(true);
    await expect.poll(() => git(repo, "log", "-1", "--format=%s"), { timeout: 10_000 }).toBe("a teammate's commit");
    expect(followerOf(repo)!.status.last_fetch_at).not.toBe(fetchedAt);
  });

  it("a GitLab token must match; without a webhook header the door policy decides (a token here)", async () => {
    await followed();
    expect((await push({ "x-gitlab-token": "wrong" })).status).toBe(401);
    expect((await push({ "x-gitlab-token": SECRET })).status).toBe(202);
    expect((await push({})).status).toBe(401);
    expect((await push({ authorization: "Bearer the-command-token" })).status).toBe(202);
  });

  it("merges calls: 10 quick POSTs make one fetch at once and one more at the interval's end, which sees a push made meanwhile", async () => {
    const origin = makeOrigin(2);
    repo = cloneOf(origin, "a");
    const f = follow(repo, { intervalMs: 2000 });
    await sync(f);
    const before = f.fetches;
    const teammate = cloneOf(origin, "b");
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) expect((await push({ authorization: "Bearer the-command-token" })).status).toBe(202);
    // A push after the calls: the merged fetch, at the interval's end, brings it.
    git(teammate, "commit", "-q", "--allow-empty", "-m", "pushed between the calls");
    git(teammate, "push", "-q", "origin", "HEAD:main");
    await expect.poll(() => f.fetches, { timeout: 6000, interval: 50 }).toBe(before + 2);
    const second = Date.now() - t0;
    expect(second).toBeGreaterThanOrEqual(1900);
    await expect.poll(() => git(repo, "log", "-1", "--format=%s"), { timeout: 4000 }).toBe("pushed between the calls");
    // Nothing else within that interval: the loop's next fetch is an interval after the merged one.
    await new Promise((r) => setTimeout(r, 1000));
    expect(f.fetches).toBe(before + 2);
  });

  it("GET /api/v1/sync answers plan.sync_status", async () => {
    await followed();
    const r = await handleSyncStatus(new Request("http://127.0.0.1:3000/api/v1/sync", { headers: { authorization: "Bearer the-command-token" } }), settings());
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ following: true, remote: "origin", branch: "main", state: "following", last_fetch_ok: true, waiting: 0, behind: 0 });
  });
});
