/** The four ways a capability can answer other than with its output. */
export type ErrorCode = "not_found" | "invalid_input" | "refused" | "internal";

/**
 * The one error type of every capability. Each surface maps the code once: HTTP 404/400/422/500,
 * MCP `isError`, a server action's `{ ok: false }`, the command line's exit code.
 */
export class CapabilityError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CapabilityError";
  }
}

export const notFound = (message: string) => new CapabilityError("not_found", message);
export const invalidInput = (message: string) => new CapabilityError("invalid_input", message);
export const refused = (message: string) => new CapabilityError("refused", message);
