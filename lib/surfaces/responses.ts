// The JSON answers of the HTTP surface, shared with the proxy (which refuses before a route runs):
// one body shape for every error, `{"error": {"code", "message", …}}`, never cached.
import type { ErrorCode } from "../plan/errors";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** The one error body of every surface: HTTP's, MCP's structured error and `cockpit … --json`'s. */
export function errorBody(code: string, message: string, details?: Record<string, unknown>): { error: { code: string; message: string } & Record<string, unknown> } {
  return { error: { code, message, ...(details ?? {}) } };
}

export function errorResponse(
  code: ErrorCode | "method_not_allowed" | "unauthorized" | "forbidden" | "too_large" | "too_many_requests",
  status: number,
  message: string,
  headers?: Record<string, string>,
  details?: Record<string, unknown>,
): Response {
  return jsonResponse(status, errorBody(code, message, details), headers);
}
