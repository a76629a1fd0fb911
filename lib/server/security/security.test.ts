import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sealData } from "iron-session";
import { afterAll, describe, expect, it } from "vitest";
import {
  SignInLimiter,
  actorForSession,
  actorForToken,
  authenticate,
  hashToken,
  hostNameOf,
  hostProblem,
  identify,
  newToken,
  newUsersKey,
  nextLocation,
  parseUsers,
  parseUsersFile,
  safeNext,
  sealSession,
  securityFromEnv,
  sessionCookie,
  tokenDigest,
  tokenMatchesHash,
  type ServerSecurity,
} from "./index";

const dir = mkdtempSync(join(tmpdir(), "cockpit-security-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "a-session-secret-of-at-least-thirty-two-characters";
const security = (over: Partial<ServerSecurity> = {}): ServerSecurity => ({
  authRequired: true,
  allowedHosts: [],
  trustProxy: false,
  sessionTtlSeconds: 3600,
  sessionSecret: SECRET,
  ...over,
});
const headers = (h: Record<string, string>) => new Headers(h);

describe("which hosts the server answers to (DNS rebinding)", () => {
  it("reads the name of a Host header without its port", () => {
    expect(hostNameOf("127.0.0.1:3000")).toBe("127.0.0.1");
    expect(hostNameOf("[::1]:3000")).toBe("::1");
    expect(hostNameOf("Cockpit.Example.COM")).toBe("cockpit.example.com");
  });

  it.each(["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "app.localhost", "192.168.1.20:3000", "[fe80::1]:80"])("answers to %s", (host) => {
    expect(hostProblem(headers({ host }), security())).toBeUndefined();
  });

  it("refuses another name, and says which flag admits it", () => {
    const problem = hostProblem(headers({ host: "evil.example:3000", origin: "http://evil.example:3000" }), security());
    expect(problem).toMatch(/does not answer to the host name 'evil\.example'/);
    expect(problem).toMatch(/--allowed-host evil\.example/);
  });

  it("answers to the bound name and to each --allowed-host (a leading dot admits subdomains)", () => {
    const s = security({ bindHost: "cockpit.lan", allowedHosts: ["plan.example.com", ".team.example"] });
    for (const host of ["cockpit.lan:3000", "plan.example.com", "team.example", "a.team.example:443"]) expect(hostProblem(headers({ host }), s)).toBeUndefined();
    for (const host of ["example.com", "xplan.example.com", "evilteam.example"]) expect(hostProblem(headers({ host }), s)).toBeDefined();
  });

  it("believes X-Forwarded-Host only behind a trusted proxy", () => {
    const h = headers({ host: "127.0.0.1:3000", "x-forwarded-host": "evil.example" });
    expect(hostProblem(h, security())).toBeUndefined();
    expect(hostProblem(h, security({ trustProxy: true }))).toMatch(/evil\.example/);
  });

  it("refuses a request without a Host", () => {
    expect(hostProblem(headers({}), security())).toMatch(/names no Host/);
  });
});

describe("tokens and the users file", () => {
  it("hashes a token with scrypt, and only that token matches", async () => {
    const token = newToken();
    const hash = await hashToken(token);
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await tokenMatchesHash(token, hash)).toBe(true);
    expect(await tokenMatchesHash(token + "x", hash)).toBe(false);
    expect(await tokenMatchesHash(token, "plain-text")).toBe(false);
  });

  it("says what is wrong with a users file", () => {
    expect(() => parseUsers("name: ada")).toThrow(/a YAML list/);
    expect(() => parseUsers("- name: ada")).toThrow(/entry 1 needs a name .* and a token_hash/);
    expect(() => parseUsers("- {name: a, token_hash: x}\n- {name: a, token_hash: y}")).toThrow(/listed twice/);
  });

  it("names the user a token proves; a token removed from the file stops working at once", async () => {
    const file = join(dir, "users.yaml");
    const ada = newToken();
    const bob = newToken();
    writeFileSync(file, `- name: ada\n  token_hash: "${await hashToken(ada)}"\n- name: bob\n  token_hash: "${await hashToken(bob)}"\n`);
    const s = security({ usersFile: file, token: "the-shared-token" });
    expect((await actorForToken(ada, s))?.name).toBe("ada");
    expect((await actorForToken(bob, s))?.name).toBe("bob");
    const shared = await actorForToken("the-shared-token", s);
    expect(shared).toBeDefined();
    expect(shared?.name).toBeUndefined();
    expect(await actorForToken("nobody", s)).toBeUndefined();

    const bobSession = await sealSession((await actorForToken(bob, s))!, s);
    expect((await actorForSession(bobSession, s))?.name).toBe("bob");
    writeFileSync(file, `- name: ada\n  token_hash: "${await hashToken(ada)}"\n`);
    expect(await actorForToken(bob, s)).toBeUndefined();
    expect(await actorForSession(bobSession, s)).toBeUndefined();
    // ada was given a new hash (the same token): her session ends too, her token still works.
    expect((await actorForToken(ada, s))?.name).toBe("ada");
  });
});

describe("finding the user of a token", () => {
  // A hash scrypt refuses to compute (N = 2^20 with r = 8 needs 1 GiB, over the 64 MiB allowed):
  // any attempt to verify against it throws, so a test sees whether a scrypt was tried at all.
  const untouchable = `scrypt$${1 << 20}$8$1$${Buffer.alloc(16).toString("base64url")}$${Buffer.alloc(32).toString("base64url")}`;

  it("an unknown token costs one HMAC, not one scrypt per user", async () => {
    const file = join(dir, "digest-users.yaml");
    const key = newUsersKey();
    const users = Array.from({ length: 30 }, (_, i) => `  - name: u${i}\n    token_hash: "${untouchable}"\n    token_digest: "${tokenDigest(`token-${i}`, key)}"`);
    writeFileSync(file, `key: "${key}"\nusers:\n${users.join("\n")}\n`);
    const s = security({ usersFile: file });
    await expect(actorForToken("a-guess", s)).resolves.toBeUndefined();
    // Its digest found u7, and only u7's hash is tried: here, the one that cannot be computed.
    await expect(actorForToken("token-7", s)).rejects.toThrow(/memory/i);
  });

  it("a user with a digest is found and verified once; a file written before digests still works by trying each hash", async () => {
    const file = join(dir, "mixed-users.yaml");
    const key = newUsersKey();
    const ada = newToken();
    writeFileSync(file, `key: "${key}"\nusers:\n  - name: ada\n    token_hash: "${await hashToken(ada)}"\n    token_digest: "${tokenDigest(ada, key)}"\n`);
    const s = security({ usersFile: file });
    expect((await actorForToken(ada, s))?.name).toBe("ada");
    // A digest that finds ada, with a token her hash refuses, proves nothing.
    writeFileSync(file, `key: "${key}"\nusers:\n  - name: ada\n    token_hash: "${await hashToken("another")}"\n    token_digest: "${tokenDigest(ada, key)}"\n`);
    expect(await actorForToken(ada, s)).toBeUndefined();
    const old = join(dir, "old-users.yaml");
    writeFileSync(old, `- name: old\n  token_hash: "${await hashToken("old-token")}"\n`);
    expect((await actorForToken("old-token", security({ usersFile: old })))?.name).toBe("old");
    // Without digests, an unknown token tries every hash.
    writeFileSync(join(dir, "legacy-untouchable.yaml"), `- name: x\n  token_hash: "${untouchable}"\n`);
    await expect(actorForToken("a-guess", security({ usersFile: join(dir, "legacy-untouchable.yaml") }))).rejects.toThrow(/memory/i);
  });

  it("reads a file with no users (empty, comments only, an empty list) as valid", () => {
    for (const text of ["", "\n", "# Cockpit users\n", "[]\n", `key: "${newUsersKey()}"\nusers: []\n`]) expect(parseUsersFile(text).users).toEqual([]);
    expect(() => parseUsersFile("key: short\nusers: []")).toThrow(/key: give 32 random bytes/);
    expect(() => parseUsersFile("users: []\nextra: 1")).toThrow(/unknown field 'extra'/);
  });
});

describe("the guess limit of wrong tokens", () => {
  const s = security({ authRequired: false, token: "the-shared-token" });
  const from = (peer: string, h: Record<string, string>) => headers({ "x-cockpit-front": "nonce", "x-cockpit-peer": peer, ...h });
  const fronted = { ...s, frontNonce: "nonce" };

  it("counts wrong bearer tokens per address; past five, a wrong one is limited and a valid one is not", async () => {
    const limiter = new SignInLimiter(5, 60_000);
    for (let i = 0; i < 5; i++) {
      const r = await identify(from("10.0.0.1", { authorization: `Bearer guess-${i}` }), fronted, limiter);
      expect(r.invalid).toMatch(/not valid/);
      expect(r.retryAfterMs).toBeUndefined();
    }
    expect((await identify(from("10.0.0.1", { authorization: "Bearer guess-5" }), fronted, limiter)).retryAfterMs).toBeGreaterThan(59_000);
    expect((await identify(from("10.0.0.1", { authorization: "Bearer the-shared-token" }), fronted, limiter)).actor).toBeDefined();
    expect((await identify(from("10.0.0.2", { authorization: "Bearer guess" }), fronted, limiter)).retryAfterMs).toBeUndefined();
    // No token, or a server with nothing to guess, counts nothing.
    expect(await identify(from("10.0.0.3", {}), fronted, limiter)).toEqual({});
    const open = { ...fronted, token: undefined };
    for (let i = 0; i < 7; i++) expect((await identify(from("10.0.0.4", { authorization: "Bearer x" }), open, limiter)).retryAfterMs).toBeUndefined();
  });

  it("an address that keeps guessing stays limited for a minute after its fifth-last guess", () => {
    const limiter = new SignInLimiter(5, 60_000);
    for (let t = 0; t < 10; t++) limiter.fail("10.0.0.1", t * 10_000);
    expect(limiter.retryAfter("10.0.0.1", 95_000)).toBe(50_000 + 60_000 - 95_000);
  });
});

describe("sessions", () => {
  const s = security({ token: "the-shared-token" });

  it("a sealed session proves its actor", async () => {
    const actor = (await actorForToken("the-shared-token", s))!;
    const seal = await sealSession(actor, s);
    expect(await actorForSession(seal, s)).toEqual(actor);
    const { actor: viaCookie } = await authenticate(headers({ cookie: `other=1; cockpit_session=${seal}` }), s);
    expect(viaCookie).toEqual(actor);
  });

  it("a tampered seal proves nothing", async () => {
    const seal = await sealSession((await actorForToken("the-shared-token", s))!, s);
    const i = seal.length - 10;
    const tampered = seal.slice(0, i) + (seal[i] === "A" ? "B" : "A") + seal.slice(i + 1);
    expect(await actorForSession(tampered, s)).toBeUndefined();
    expect(await actorForSession("not-a-seal", s)).toBeUndefined();
    const { actor, invalid } = await authenticate(headers({ cookie: `cockpit_session=${tampered}` }), s);
    expect(actor).toBeUndefined();
    expect(invalid).toMatch(/sign in again/);
  });

  it("a seal made with another secret, or naming an actor never proven, proves nothing", async () => {
    const other = await sealSession((await actorForToken("the-shared-token", s))!, { ...s, sessionSecret: "another-secret-of-at-least-thirty-two-chars" });
    expect(await actorForSession(other, s)).toBeUndefined();
    const forged = await sealData({ actor: { name: "admin", fingerprint: "user:0" } }, { password: SECRET, ttl: 3600 });
    expect(await actorForSession(forged, s)).toBeUndefined();
  });

  it("a session ends when its time is up", async () => {
    const now = Date.now();
    const seal = await sealSession((await actorForToken("the-shared-token", s))!, s, now);
    expect(await actorForSession(seal, s, now + 3_599_999)).toBeDefined();
    expect(await actorForSession(seal, s, now + 3_600_000)).toBeUndefined();
    // The seal's own expiry holds too: a session without ours is refused.
    const bare = await sealData({ actor: (await actorForToken("the-shared-token", s))! }, { password: SECRET, ttl: 3600 });
    expect(await actorForSession(bare, s)).toBeUndefined();
  });

  it("a changed COCKPIT_TOKEN ends the sessions made with the old one", async () => {
    const seal = await sealSession((await actorForToken("the-shared-token", s))!, s);
    expect(await actorForSession(seal, { ...s, token: "a-new-token" })).toBeUndefined();
  });

  it("the cookie is HttpOnly, SameSite=Strict, expiring, and Secure over TLS", () => {
    expect(sessionCookie("abc", false, s)).toBe("cockpit_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600");
    expect(sessionCookie("abc", true, s)).toMatch(/; Secure$/);
    expect(sessionCookie(null, false, s)).toMatch(/^cockpit_session=; .*Max-Age=0/);
  });
});

describe("the environment", () => {
  it("asks for sign-in beyond loopback, and when started without a known bind but with a token", () => {
    expect(securityFromEnv({ COCKPIT_BIND_HOST: "127.0.0.1", COCKPIT_TOKEN: "t" }).authRequired).toBe(false);
    expect(securityFromEnv({ COCKPIT_BIND_HOST: "0.0.0.0", COCKPIT_TOKEN: "t" }).authRequired).toBe(true);
    expect(securityFromEnv({ COCKPIT_TOKEN: "t" }).authRequired).toBe(true);
    expect(securityFromEnv({}).authRequired).toBe(false);
    expect(securityFromEnv({ COCKPIT_ALLOWED_HOSTS: "A.example, b.example" }).allowedHosts).toEqual(["a.example", "b.example"]);
  });
});

describe("the sign-in limit and where sign-in leads", () => {
  it("refuses the sixth failure within a minute from one address, and no other address", () => {
    const limiter = new SignInLimiter(5, 60_000);
    for (let i = 0; i < 5; i++) {
      expect(limiter.retryAfter("10.0.0.1", 1000 + i)).toBe(0);
      limiter.fail("10.0.0.1", 1000 + i);
    }
    expect(limiter.retryAfter("10.0.0.1", 2000)).toBe(59_000);
    expect(limiter.retryAfter("10.0.0.2", 2000)).toBe(0);
    expect(limiter.retryAfter("10.0.0.1", 61_001)).toBe(0);
  });

  it("sends a next with any Unicode as a Location of percent-encoded UTF-8", () => {
    expect(nextLocation("/issues/\u00c9-1")).toBe("/issues/%C3%89-1");
    expect(nextLocation("/waves?q=\u{1F680} x")).toBe("/waves?q=%F0%9F%9A%80%20x");
    expect(nextLocation("/issues/BK-020?x=%41")).toBe("/issues/BK-020?x=%41");
    expect(nextLocation("/\ud800")).toBe("/");
  });

  it("goes back only to a path of this site", () => {
    expect(safeNext("/issues/BK-020?x=1")).toBe("/issues/BK-020?x=1");
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", undefined, 3]) expect(safeNext(bad)).toBe("/");
  });
});
