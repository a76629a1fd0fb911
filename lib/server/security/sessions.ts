// Who the caller is: a bearer token, or the sealed session cookie issued at sign-in.
import { sealData, unsealData } from "iron-session";
import type { HeaderBag, ServerSecurity } from "./settings";
import { type User, type UsersState, currentUsers, digest, sameText, tokenDigest, tokenMatchesHash } from "./users";

export const SESSION_COOKIE = "cockpit_session";

/** Who acted: a named user, or (`name` undefined) the holder of the single shared token. */
export interface Actor {
  name?: string;
  /** What must still hold for a session to stay valid. */
  fingerprint: string;
}

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
