import type { ErrorCode } from "../plan/errors";

/** Exit codes of the `cockpit` command (plan-semantics §8). */
export const EXIT = { ok: 0, usage: 2, contract: 10, missing: 12, internal: 13, refused: 15, waiting: 16 } as const;

/** A capability's error code as an exit code, the one mapping every command uses. */
export const EXIT_FOR_ERROR: Record<ErrorCode, number> = {
  not_found: EXIT.missing,
  invalid_input: EXIT.usage,
  refused: EXIT.refused,
  conflict: EXIT.refused,
  internal: EXIT.internal,
};
