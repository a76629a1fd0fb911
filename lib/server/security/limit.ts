// The limit on guesses: wrong tokens and failed sign-ins count against their address, and a
// caller past the limit is answered 429 with Retry-After; valid callers are never limited.
import { processWide } from "../../process-wide";
import { hostProblem, peerOf } from "./hosts";
import { type Actor, actorForToken, authenticate, bearerOf } from "./sessions";
import type { HeaderBag, ServerSecurity } from "./settings";

/** Failed sign-ins from one address within a minute before the next attempt is answered 429. */
export const SIGN_IN_LIMIT = 5;

export const SIGN_IN_WINDOW_MS = 60_000;

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
