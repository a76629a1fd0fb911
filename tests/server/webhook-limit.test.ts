// POST /api/v1/sync's webhook doors as the route handler serves them: a wrong GitLab token or
// GitHub signature counts toward the same per-address limit as a wrong bearer token (429 past
// it, a right one still answered), and a GitHub delivery id seen before fetches nothing again.

import { createHmac } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { follow, followerOf, sync, unfollow } from "@/lib/server/follow";
import { SIGN_IN_LIMIT, securityFromEnv } from "@/lib/server/security";
import { handleSyncRequest } from "@/lib/surfaces/http-sync";
import { cloneOf, makeOrigin } from "../coordination/clones";
import { cleanupRepos } from "../support/repo";

const SECRET = "a-webhook-secret-for-the-limit";
const before = process.env.COCKPIT_WEBHOOK_SECRET;
process.env.COCKPIT_WEBHOOK_SECRET = SECRET;
let repo = "";
afterEach(async () => {
  if (repo) await unfollow(repo);
});
afterAll(() => {
  if (before === undefined) delete process.env.COCKPIT_WEBHOOK_SECRET;
  else process.env.COCKPIT_WEBHOOK_SECRET = before;
  cleanupRepos();
});

const BODY = '{"ref":"refs/heads/main"}';
const signature = (secret: string) => `sha256=${createHmac("sha256", secret).update(BODY).digest("hex")}`;
const push = (peer: string, headers: Record<string, string>) =>
  handleSyncRequest(
    new Request("http://127.0.0.1:3400/api/v1/sync", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": peer, ...headers }, body: BODY }),
    { repo, security: { ...securityFromEnv(), token: "the-command-token" } },
  );

describe("wrong webhook secrets are limited per address", () => {
  it("a wrong X-Gitlab-Token is 401 until the limit, then 429 with Retry-After; the right token is still answered", async () => {
    repo = cloneOf(makeOrigin(1), "a");
    const peer = "198.51.100.1";
    for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await push(peer, { "x-gitlab-token": `wrong-${i}` })).status).toBe(401);
    const limited = await push(peer, { "x-gitlab-token": "wrong-again" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await push("198.51.100.2", { "x-gitlab-token": "wrong" })).status).toBe(401);
    expect((await push(peer, { "x-gitlab-token": SECRET })).status).toBe(202);
  });

  it("a forged GitHub signature counts too", async () => {
    repo = cloneOf(makeOrigin(1), "a");
    const peer = "198.51.100.3";
    for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await push(peer, { "x-hub-signature-256": signature(`not-it-${i}`) })).status).toBe(401);
    expect((await push(peer, { "x-hub-signature-256": signature("not-it") })).status).toBe(429);
    expect((await push(peer, { "x-hub-signature-256": signature(SECRET) })).status).toBe(202);
  });

  it("an address limited for wrong bearer tokens is answered 429 for a wrong webhook secret, and the other way round", async () => {
    repo = cloneOf(makeOrigin(1), "a");
    const peer = "198.51.100.4";
    for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await push(peer, { authorization: `Bearer wrong-${i}` })).status).toBe(401);
    expect((await push(peer, { "x-gitlab-token": "wrong" })).status).toBe(429);
    const other = "198.51.100.5";
    for (let i = 0; i < SIGN_IN_LIMIT; i++) expect((await push(other, { "x-gitlab-token": `wrong-${i}` })).status).toBe(401);
    expect((await push(other, { authorization: "Bearer wrong" })).status).toBe(429);
  });
});

describe("a GitHub delivery seen in the last hour", () => {
  it("is answered 202 with the state and asks no fetch; a new delivery id asks one", async () => {
    repo = cloneOf(makeOrigin(1), "a");
    const f = follow(repo, { intervalMs: 600_000 });
    await sync(f);
    const signed = (delivery: string) => push("198.51.100.6", { "x-hub-signature-256": signature(SECRET), "x-github-delivery": delivery });
    const first = await signed("delivery-1");
    expect(first.status).toBe(202);
    await f.pending;
    const fetches = f.fetches;
    const again = await signed("delivery-1");
    expect(again.status).toBe(202);
    expect(((await again.json()) as { following: boolean }).following).toBe(true);
    // A sync asked for is started or merged at once (pending, or called at the interval's end).
    expect(f.pending === undefined && f.called === undefined).toBe(true);
    expect(followerOf(repo)!.fetches).toBe(fetches);
    expect((await signed("delivery-2")).status).toBe(202);
    expect(f.pending !== undefined || f.called !== undefined).toBe(true);
  });
});
