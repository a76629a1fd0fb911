// The JSON answers of the HTTP surface, shared with the proxy (which refuses before a route runs):
// one body shape for every error, `{"error": {"code", "message", …}}`, never cached.
import type { ErrorCode } from "../plan/errors";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

export function errorResponse(
  code: ErrorCode | "method_not_allowed" | "unauthorized" | "forbidden" | "too_large" | "too_many_requests",
  status: number,
  message: string,
  headers?: Record<string, string>,
  details?: Record<string, unknown>,
): Response {
  return jsonResponse(status, { error: { code, message, ...(details ?? {}) } }, headers);
}
