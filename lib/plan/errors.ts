/** The four ways a capability can answer other than with its output. */
export type ErrorCode = "not_found" | "invalid_input" | "refused" | "conflict" | "internal";

/**
 * The one error type of every capability. Each surface maps the code once: HTTP 404/400/422/500,
 * MCP `isError`, a server action's `{ ok: false }`, the command line's exit code. A `conflict` is a
 * write made against a version of a record that has changed since (HTTP 409, exit 15).
 */
export class CapabilityError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** What a caller needs to recover (a conflict carries the record's current version). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "CapabilityError";
  }
}

export const notFound = (message: string) => new CapabilityError("not_found", message);
export const invalidInput = (message: string) => new CapabilityError("invalid_input", message);
export const refused = (message: string) => new CapabilityError("refused", message);
export const conflict = (message: string, details?: Record<string, unknown>) => new CapabilityError("conflict", message, details);
