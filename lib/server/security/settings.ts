// The server's security settings, from the environment `cockpit serve` sets, and the request
// headers the doors read.
import { processWide } from "../../process-wide";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";

export const DEFAULT_SESSION_TTL_S = 12 * 60 * 60;

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
