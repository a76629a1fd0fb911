import { processWide } from "../../process-wide";
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { sealData, unsealData } from "iron-session";
import { CORE_SCHEMA, load as loadYaml } from "js-yaml";

// The doors of the server: which Host names it answers to (the DNS-rebinding defence), who the
// caller is (a bearer token, or a sealed session cookie issued at sign-in), and the sign-in rate
// limit. Plain Node: the proxy, the route handlers and the server actions all call it.

export const SESSION_COOKIE = "cockpit_session";
export const DEFAULT_SESSION_TTL_S = 12 * 60 * 60;
/** Failed sign-ins from one address within a minute before the next attempt is answered 429. */
export const SIGN_IN_LIMIT = 5;
export const SIGN_IN_WINDOW_MS = 60_000;

export interface ServerSecurity {
  /** The address the server is bound to, when known (`cockpit serve` says). */
  bindHost?: string;
  /** Beyond loopback every request needs a caller: a bearer token or a session. */
  authRequired: boolean;
  /** The single shared token (`COCKPIT_TOKEN`). */
  token?: string;
  /** The users file (`--users`, `COCKPIT_USERS`): `[{name, token_hash}]`. */
  usersFile?: string;
  /** Host names (besides loopback names and IP addresses) the server answers to. */
  allowedHosts: string[];
  /** Whether `X-Forwarded-Host`, `-Proto` and `-For` are believed. */
  trustProxy: boolean;
  sessionTtlSeconds: number;
  sessionSecret: string;
  /** Set by `cockpit serve`'s front: its peer-address header is believed only with this nonce. */
  frontNonce?: string;
}

/** What the surfaces hand over of a request's headers (a `Headers`, or Next's read-only ones). */
export interface HeaderBag {
  get(name: string): string | null;
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  if (h === "localhost") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) === 6) return h === "::1";
  return false;
}

/**
 * The session key when none is configured: one per process, kept on globalThis because the proxy,
 * the route handlers and the pages are separate bundles, each with its own copy of this module.
 */
const processSecret = processWide("session-secret", () => randomBytes(32).toString("base64url"));
/** The settings last read, by the environment they were read from. */
const settings = processWide("security-settings", () => ({ memo: undefined as { key: string; security: ServerSecurity } | undefined }));

/**
 * The server's security settings, from the environment `cockpit serve` sets. Started some other
 * way (no `COCKPIT_BIND_HOST`), a server with a token or a users file asks every caller for one.
 */
export function securityFromEnv(env: Record<string, string | undefined> = process.env): ServerSecurity {
  const names = ["COCKPIT_BIND_HOST", "COCKPIT_TOKEN", "COCKPIT_USERS", "COCKPIT_ALLOWED_HOSTS", "COCKPIT_TRUST_PROXY", "COCKPIT_SESSION_TTL", "COCKPIT_SESSION_SECRET", "COCKPIT_FRONT_NONCE"];
  const key = names.map((n) => env[n] ?? "").join("\0");
  if (settings.memo?.key === key) return settings.memo.security;
  const bindHost = env.COCKPIT_BIND_HOST || undefined;
  const token = env.COCKPIT_TOKEN || undefined;
  const usersFile = env.COCKPIT_USERS || undefined;
  const ttl = Number(env.COCKPIT_SESSION_TTL);
  const security: ServerSecurity = {
    bindHost,
    authRequired: bindHost ? !isLoopback(bindHost) : Boolean(token || usersFile),
    token,
    usersFile,
    allowedHosts: (env.COCKPIT_ALLOWED_HOSTS ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean),
    trustProxy: env.COCKPIT_TRUST_PROXY === "1",
    sessionTtlSeconds: Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_SESSION_TTL_S,
    // iron-session wants a password of at least 32 characters.
    sessionSecret: env.COCKPIT_SESSION_SECRET && env.COCKPIT_SESSION_SECRET.length >= 32 ? env.COCKPIT_SESSION_SECRET : processSecret,
    frontNonce: env.COCKPIT_FRONT_NONCE || undefined,
  };
  settings.memo = { key, security };
  return security;
}

// ---------------------------------------------------------------------------------------------
// Host names

/** The host name of a `Host` header value, without its port, lower case. */
export function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") === -1 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon === -1 || h.indexOf(":") !== colon ? h : h.slice(0, colon);
}

/** The Host a request names: `X-Forwarded-Host` behind a trusted proxy, else `Host`. */
export function requestHost(headers: HeaderBag, security: ServerSecurity): string | null {
  const forwarded = security.trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || headers.get("host");
}

/**
 * Whether the server answers to a host name. As Vite's `server.allowedHosts`: loopback names,
 * `*.localhost`, any IP address (a name the browser did not resolve cannot be rebound), the bound
 * address, and each `--allowed-host` (a leading dot admits the subdomains too).
 */
export function isAllowedHostName(name: string, security: ServerSecurity): boolean {
  if (name === "localhost" || name.endsWith(".localhost") || isIP(name) !== 0) return true;
  if (security.bindHost && hostNameOf(security.bindHost) === name) return true;
  return security.allowedHosts.some((allowed) => (allowed.startsWith(".") ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed));
}

/** Why a request's Host is refused (403), or undefined when the server answers to it. */
export function hostProblem(headers: HeaderBag, security: ServerSecurity): string | undefined {
  const host = requestHost(headers, security);
  if (!host) return "the request names no Host; send the Host header of the address you reached";
  const name = hostNameOf(host);
  if (isAllowedHostName(name, security)) return undefined;
  return (
    `this server does not answer to the host name '${name}' (a defence against DNS rebinding); ` +
    `it answers to localhost, IP addresses${security.allowedHosts.length ? ` and ${security.allowedHosts.join(", ")}` : ""}. ` +
    `To serve it under that name, start it with --allowed-host ${name}`
  );
}

/** The address a request came from, as far as it can be known. */
export function peerOf(headers: HeaderBag, security: ServerSecurity): string {
  if (security.frontNonce && headers.get("x-cockpit-front") === security.frontNonce) {
    return headers.get("x-cockpit-peer") ?? "unknown";
  }
  const forwarded = headers.get("x-forwarded-for")?.split(",");
  return forwarded?.[forwarded.length - 1]?.trim() || "unknown";
}

/** Whether the request reached us over TLS, as far as the server can tell. */
export function isSecureRequest(headers: HeaderBag, url: string, security: ServerSecurity): boolean {
  if (url.startsWith("https:")) return true;
  return security.trustProxy && headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

// ---------------------------------------------------------------------------------------------
// Users and tokens

export interface User {
  name: string;
  /** scrypt of the token: what verifies it. */
  token_hash: string;
  /** HMAC-SHA256 of the token under the file's key: what finds its user in one lookup. */
  token_digest?: string;
}

/** A users file: its users and the key of their digests (none in a file written before digests). */
export interface UsersFile {
  key?: string;
  users: User[];
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(secret: string, salt: Buffer, keylen: number, o: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((done, fail) => scrypt(secret, salt, keylen, { ...o, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? fail(error) : done(key))));
}

/** A token's hash for the users file: `scrypt$N$r$p$<salt>$<key>` (base64url). */
export async function hashToken(token: string, salt: Buffer = randomBytes(16)): Promise<string> {
  const key = await scryptAsync(token, salt, SCRYPT.keylen, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function tokenMatchesHash(token: string, tokenHash: string): Promise<boolean> {
  const parts = tokenHash.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 1 << 20) return false;
  const expected = Buffer.from(parts[5], "base64url");
  if (expected.length < 16) return false;
  const key = await scryptAsync(token, Buffer.from(parts[4], "base64url"), expected.length, { N, r, p });
  return timingSafeEqual(key, expected);
}

/** A new key for a users file's digests: 32 random bytes. */
export function newUsersKey(): string {
  return randomBytes(32).toString("base64url");
}

/** A token's digest under a users file's key: one HMAC, microseconds, where scrypt takes tens of ms. */
export function tokenDigest(token: string, key: string): string {
  return createHmac("sha256", Buffer.from(key, "base64url")).update(token).digest("base64url");
}

/** A new token for a person or an agent: 32 random bytes. */
export function newToken(): string {
  return `ck_${randomBytes(32).toString("base64url")}`;
}

const USERS_SHAPE = "a users file is a YAML list of {name, token_hash}, or `key:` and `users:` (that list with a token_digest each), as `cockpit users add` writes it";

/** Parse a users file's text; throws with what is wrong. A file with no users (even empty) is valid. */
export function parseUsersFile(text: string): UsersFile {
  // js-yaml refuses a document of comments only: that is a file with no users.
  const isBlank = text.split("\n").every((line) => /^\s*(#.*)?$/.test(line));
  const data: unknown = isBlank ? null : loadYaml(text, { schema: CORE_SCHEMA });
  let key: string | undefined;
  let list: unknown;
  if (data === null || data === undefined) list = [];
  else if (Array.isArray(data)) list = data;
  else if (typeof data === "object") {
    const { key: k, users, ...rest } = data as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new Error(`${USERS_SHAPE}; unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `'${u}'`).join(", ")}`);
    if (k !== undefined && (typeof k !== "string" || Buffer.from(k, "base64url").length < 32)) throw new Error("key: give 32 random bytes in base64url, as `cockpit users add` writes");
    key = k as string | undefined;
    list = users ?? [];
    if (!Array.isArray(list)) throw new Error(`users: ${USERS_SHAPE}`);
  } else throw new Error(USERS_SHAPE);
  const seen = new Set<string>();
  const users = (list as unknown[]).map((entry, i) => {
    const e = entry as Partial<User> | null;
    if (!e || typeof e.name !== "string" || !/^[A-Za-z0-9._@-]{1,64}$/.test(e.name) || typeof e.token_hash !== "string") {
      throw new Error(`entry ${i + 1} needs a name (letters, digits, . _ @ -) and a token_hash from \`cockpit users add NAME\``);
    }
    if (e.token_digest !== undefined && typeof e.token_digest !== "string") throw new Error(`entry ${i + 1}: token_digest is text, as \`cockpit users add\` writes it`);
    if (seen.has(e.name)) throw new Error(`the name '${e.name}' is listed twice`);
    seen.add(e.name);
    return { name: e.name, token_hash: e.token_hash, ...(key && e.token_digest ? { token_digest: e.token_digest } : {}) };
  });
  return { ...(key ? { key } : {}), users };
}

/** The users of a users file's text; throws with what is wrong. */
export function parseUsers(text: string): User[] {
  return parseUsersFile(text).users;
}

interface UsersState extends UsersFile {
  stamp: string;
  problem?: string;
  /** digest → user, for the users the file gives a digest. */
  byDigest: Map<string, User>;
  /** Users listed before digests existed: found only by trying their scrypt hash. */
  undigested: User[];
  /** sha256(token) → the user it proved, for this version of the file (successes only). */
  verified: Map<string, string>;
}
const usersStates = processWide("users-states", () => new Map<string, UsersState>());

function usersState(stamp: string, file: UsersFile, problem?: string): UsersState {
  const byDigest = new Map<string, User>();
  const undigested: User[] = [];
  for (const u of file.users) {
    if (u.token_digest) byDigest.set(u.token_digest, u);
    else undigested.push(u);
  }
  return { stamp, ...file, problem, byDigest, undigested, verified: new Map() };
}

/** The users file as it is now: read again whenever its size or modification time changes. */
export function currentUsers(file: string): UsersState {
  let stamp: string;
  try {
    const s = statSync(file);
    stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    stamp = "missing";
  }
  const known = usersStates.get(file);
  if (known && known.stamp === stamp) return known;
  let state: UsersState;
  if (stamp === "missing") state = usersState(stamp, { users: [] }, `the users file ${file} does not exist`);
  else {
    try {
      state = usersState(stamp, parseUsersFile(readFileSync(file, "utf8")));
    } catch (error) {
      state = usersState(stamp, { users: [] }, `the users file ${file} is not valid: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (state.problem) process.stderr.write(`cockpit: ${state.problem}; no user can sign in until it is mended\n`);
  else if (state.undigested.length) {
    const names = state.undigested.map((u) => u.name).join(", ");
    process.stderr.write(`cockpit: ${file} lists ${names} without a token digest, so each unknown token costs a scrypt for each; give them new tokens (cockpit users remove NAME, then add NAME)\n`);
  }
  usersStates.set(file, state);
  return state;
}

/** Who acted: a named user, or (`name` undefined) the holder of the single shared token. */
export interface Actor {
  name?: string;
  /** What must still hold for a session to stay valid. */
  fingerprint: string;
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The user of the users file a token proves: one digest lookup and one scrypt, or none. */
async function userForToken(token: string, state: UsersState): Promise<User | undefined> {
  const key = digest(token);
  const known = state.verified.get(key);
  if (known !== undefined) return state.users.find((u) => u.name === known);
  const candidate = state.key ? state.byDigest.get(tokenDigest(token, state.key)) : undefined;
  // The digest only finds the user; the scrypt hash still decides.
  const candidates = candidate ? [candidate] : state.undigested;
  for (const user of candidates) {
    if (await tokenMatchesHash(token, user.token_hash)) {
      state.verified.set(key, user.name);
      return user;
    }
  }
  return undefined;
}

/** The caller a token proves: the shared token, or a user of the users file. */
export async function actorForToken(token: string, security: ServerSecurity): Promise<Actor | undefined> {
  if (!token) return undefined;
  if (security.token && sameText(token, security.token)) return { fingerprint: `token:${digest(security.token).slice(0, 32)}` };
  if (!security.usersFile) return undefined;
  const user = await userForToken(token, currentUsers(security.usersFile));
  return user ? { name: user.name, fingerprint: `user:${digest(user.token_hash).slice(0, 32)}` } : undefined;
}

/** Whether an actor proved earlier (a session's) still holds: its token or user is still listed. */
export function isActorCurrent(actor: Actor, security: ServerSecurity): boolean {
  if (actor.name === undefined) return Boolean(security.token) && actor.fingerprint === `token:${digest(security.token!).slice(0, 32)}`;
  if (!security.usersFile) return false;
  const user = currentUsers(security.usersFile).users.find((u) => u.name === actor.name);
  return Boolean(user) && actor.fingerprint === `user:${digest(user!.token_hash).slice(0, 32)}`;
}

// ---------------------------------------------------------------------------------------------
// Sessions (sealed with iron-session: encrypted and signed, with an expiry inside the seal)

interface SessionData {
  actor?: Actor;
  /** When it ends (ms since the epoch): to the millisecond, where the seal's own allows 60 s of skew. */
  expires?: number;
}

export async function sealSession(actor: Actor, security: ServerSecurity, now = Date.now()): Promise<string> {
  const data: SessionData = { actor, expires: now + security.sessionTtlSeconds * 1000 };
  return sealData(data, { password: security.sessionSecret, ttl: security.sessionTtlSeconds });
}

/** The actor of a sealed session, when the seal is intact, unexpired and its actor still current. */
export async function actorForSession(seal: string | undefined, security: ServerSecurity, now = Date.now()): Promise<Actor | undefined> {
  if (!seal) return undefined;
  let data: SessionData;
  try {
    data = await unsealData<SessionData>(seal, { password: security.sessionSecret, ttl: security.sessionTtlSeconds });
  } catch {
    return undefined;
  }
  const actor = data?.actor;
  if (typeof data?.expires !== "number" || now >= data.expires) return undefined;
  if (!actor || typeof actor.fingerprint !== "string" || (actor.name !== undefined && typeof actor.name !== "string")) return undefined;
  return isActorCurrent(actor, security) ? actor : undefined;
}

/** The `Set-Cookie` value of a session (or, with `seal` null, of its removal). */
export function sessionCookie(seal: string | null, secure: boolean, security: ServerSecurity): string {
  const parts = [`${SESSION_COOKIE}=${seal ?? ""}`, "Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${seal === null ? 0 : security.sessionTtlSeconds}`];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function cookieValue(cookieHeader: string | null, name: string): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function bearerOf(headers: HeaderBag): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "")?.[1];
}

/**
 * Who is calling: `{ actor }` for a valid bearer token or session; `{}` when the request carries
 * neither; `{ invalid }` for a token or session that does not prove anyone.
 */
export async function authenticate(headers: HeaderBag, security: ServerSecurity): Promise<{ actor?: Actor; invalid?: string }> {
  const bearer = bearerOf(headers);
  if (bearer !== undefined) {
    const actor = await actorForToken(bearer, security);
    return actor ? { actor } : { invalid: "the bearer token is not valid" };
  }
  const seal = cookieValue(headers.get("cookie"), SESSION_COOKIE);
  if (seal) {
    const actor = await actorForSession(seal, security);
    return actor ? { actor } : { invalid: "the session has expired or was revoked; sign in again" };
  }
  return {};
}

/** What the ledger's `by` names for an actor: the user's name, or nothing (the default). */
export function byOf(actor: Actor | undefined): string | undefined {
  return actor?.name;
}

/** Where to go after signing in: a path of this site only (never `//host`, `/\\host` or a URL). */
export function safeNext(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) && !/[\u0000-\u001f\u007f]/.test(value) ? value : "/";
}

/**
 * A `next` as a Location header can carry it: every character outside printable ASCII
 * percent-encoded as UTF-8 (a header holds only Latin-1, and a browser reads it as UTF-8 escapes).
 */
export function nextLocation(next: string): string {
  try {
    return next.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  } catch {
    return "/"; // a lone surrogate cannot be encoded
  }
}

// ---------------------------------------------------------------------------------------------
// The guess limit: failed sign-ins and failed bearer tokens, per address

export class SignInLimiter {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limit = SIGN_IN_LIMIT,
    private readonly windowMs = SIGN_IN_WINDOW_MS,
  ) {}

  /** Milliseconds until `peer`'s wrong guesses are answered again (not 429), or 0 when they are now. */
  retryAfter(peer: string, now = Date.now()): number {
    const recent = this.recent(peer, now);
    return recent.length >= this.limit ? recent[0] + this.windowMs - now : 0;
  }

  /** Count a failure; only the last `limit` are kept, so an address that keeps guessing stays limited. */
  fail(peer: string, now = Date.now()): void {
    const recent = this.recent(peer, now);
    recent.push(now);
    this.failures.set(peer, recent.slice(-this.limit));
    if (this.failures.size > 10_000) this.failures.clear();
  }

  private recent(peer: string, now: number): number[] {
    return (this.failures.get(peer) ?? []).filter((t) => now - t < this.windowMs);
  }
}

/** One limiter per process: the proxy, the route handlers and the sign-in are separate bundles. */
export const signInLimiter = processWide("sign-in-limiter", () => new SignInLimiter());

/** Who is calling, as `authenticate` says, and `retryAfterMs` when a wrong token comes from an address over the limit. */
export interface Caller {
  actor?: Actor;
  invalid?: string;
  retryAfterMs?: number;
}

/**
 * `authenticate`, with the guess limit: a wrong bearer token counts against its address, and past
 * the limit it is answered 429. A valid token or session is never limited (on loopback every
 * caller shares one address). A server with no token and no users has nothing to guess.
 */
export async function identify(headers: HeaderBag, security: ServerSecurity, limiter: SignInLimiter = signInLimiter): Promise<Caller> {
  const caller = await authenticate(headers, security);
  if (caller.actor || !caller.invalid || bearerOf(headers) === undefined || !(security.token || security.usersFile)) return caller;
  const peer = peerOf(headers, security);
  const wait = limiter.retryAfter(peer);
  limiter.fail(peer);
  return wait > 0 ? { ...caller, retryAfterMs: wait } : caller;
}

/** A Retry-After header's seconds for a wait in milliseconds. */
export const retryAfterSeconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** The 429 of a wrong token from an address over the limit, as the API words its errors. */
export function tooManyGuesses(retryAfterMs: number): { status: 429; headers: Record<string, string>; body: string } {
  const seconds = retryAfterSeconds(retryAfterMs);
  const message = `too many wrong tokens from this address; try again in ${seconds} s (a valid token is still answered)`;
  return {
    status: 429,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "retry-after": seconds },
    body: JSON.stringify({ error: { code: "too_many_requests", message } }),
  };
}

/**
 * For the server's front, before the app: a wrong bearer token from an address already over the
 * limit, counted and answered 429 in microseconds (one HMAC), so a burst of guesses costs the
 * app nothing. Anything else (the first failures included, which the app counts) goes on.
 */
export async function limitedGuess(headers: HeaderBag, security: ServerSecurity, limiter: SignInLimiter = signInLimiter): Promise<number | undefined> {
  const bearer = bearerOf(headers);
  if (bearer === undefined || !(security.token || security.usersFile) || hostProblem(headers, security)) return undefined;
  const peer = peerOf(headers, security);
  const wait = limiter.retryAfter(peer);
  if (wait === 0 || (await actorForToken(bearer, security))) return undefined;
  limiter.fail(peer);
  return wait;
}
