import { processWide } from "../process-wide";

// A command's first outcome under its idempotency key, kept in the process that answered it: a
// retry (a second click, a client that resends after a timeout) is answered from here and writes
// nothing. A retry while the first is still running waits for that one. Kept in memory, not in
// the ledger: the ledger names what was written, not the answer (a refusal writes no line), and
// a person's double click always reaches the same server.

/** Keys kept at most; the oldest is forgotten first. */
export const IDEMPOTENCY_KEPT = 1000;
/** How long a key is remembered. */
export const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;

interface Kept<T> {
  /** The request the key was first used for, as one text. */
  request: string;
  outcome: Promise<T>;
  at: number;
}

const shelf = () => processWide("idempotency", () => new Map<string, Kept<unknown>>());

/**
 * Run `fn` once per `scope`: a later call with the same scope gets the first call's outcome, or
 * `{ reused: true }` when it asks for a different request than the key was first used for.
 */
export function runOnce<T>(scope: string, request: string, fn: () => Promise<T>, now = Date.now()): Promise<T> | { reused: true } {
  const kept = shelf();
  for (const [key, entry] of kept) {
    if (kept.size <= IDEMPOTENCY_KEPT && now - entry.at < IDEMPOTENCY_MS) break;
    kept.delete(key);
  }
  const first = kept.get(scope);
  if (first && now - first.at < IDEMPOTENCY_MS) return first.request === request ? (first.outcome as Promise<T>) : { reused: true };
  const outcome = fn();
  kept.delete(scope);
  kept.set(scope, { request, outcome, at: now });
  return outcome;
}
