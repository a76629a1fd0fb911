import { z } from "zod";
import type { AnyCapability } from "../capabilities/capability";
import { capabilities, httpMethod, httpPath } from "../capabilities/index";
import type { ErrorCode } from "../plan/errors";
import { contextFor } from "../server/state";
import { invoke } from "./invoke";
import { nearestIds } from "../plan/nearest";
import { errorResponse, jsonResponse } from "./responses";

export { errorResponse, jsonResponse };
import { claimedActorRefusal } from "../repo/identity";
import { byOf, identify, isSecureRequest, requestHost, securityFromEnv, tooManyGuesses, type ServerSecurity } from "../server/security";

// The HTTP projection: a Web `Request` in, a `Response` out, for any route handler to call.

export const STATUS_OF: Record<ErrorCode, number> = { not_found: 404, invalid_input: 400, refused: 422, conflict: 409, internal: 500 };
const MAX_BODY_BYTES = 1_000_000;

export interface HttpSettings {
  repo: string;
  /** The doors: from the environment when not given. */
  security?: ServerSecurity;
}

/** The server's settings, from the environment `cockpit serve` sets. */
export function settingsFromEnv(): HttpSettings {
  return { repo: process.env.COCKPIT_REPO || process.cwd(), security: securityFromEnv() };
}

/** An If-Match header's one entity tag, unquoted (`"abc"`, `W/"abc"` or `abc`). */
function ifMatchVersion(request: Request): string | undefined {
  const raw = request.headers.get("if-match")?.trim();
  if (!raw || raw === "*") return undefined;
  return raw.replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
}

/** The routes under /api/ beside the capabilities' (docs/http-and-mcp.md, "Other routes"). */
const OTHER_ROUTES: readonly (readonly [string, string])[] = [
  ["GET", "/api/v1/openapi.json"],
  ["GET", "/api/v1/events"],
  ["GET POST", "/api/v1/sync"],
  ["GET", "/api/palette"],
  ["GET POST DELETE", "/api/mcp"],
  ["POST", "/api/auth/signin"],
  ["POST", "/api/auth/signout"],
  ["GET", "/api/auth/session"],
];

/**
 * A path no route answers, as a JSON 404 (never the HTML page), whatever the method: it names the
 * three routes nearest to it, and where every one is listed.
 */
export function unknownRoute(path: string): Response {
  const routes = new Map<string, string>([...capabilities.map((c) => [httpPath(c), httpMethod(c)] as const), ...OTHER_ROUTES.map(([m, p]) => [p, m] as const)]);
  const near = nearestIds(path, [...routes.keys()]).map((p) => `${routes.get(p)} ${p}`);
  return errorResponse("not_found", 404, `no route ${path}; the nearest: ${near.join(", ")} (GET /api/v1/openapi.json lists every one)`, undefined, { nearest: near });
}

let byPath: Map<string, AnyCapability> | undefined;

/** The capability a path names, if any. */
export function capabilityAt(path: string): AnyCapability | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  byPath ??= new Map(capabilities.map((c) => [httpPath(c), c]));
  return byPath.get(clean);
}

/** Whether a request's `Origin` (when it has one) is this server's own. */
export function isSameOrigin(request: Request, security: ServerSecurity): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  const host = requestHost(request.headers, security);
  const proto = isSecureRequest(request.headers, request.url, security) ? "https" : "http";
  return host !== null && origin === `${proto}://${host}`;
}

/** Whether a request of this kind needs a caller: beyond loopback every one; on loopback, with a token or users, a command. */
export function needsCaller(security: ServerSecurity, kind: "query" | "command"): boolean {
  return security.authRequired || (kind === "command" && Boolean(security.token || security.usersFile));
}

/**
 * Who is calling, and whether they may: a command must come from this server's own origin (or a
 * client without one), and from a caller with a token or a session when credentials are
 * configured; beyond loopback every request needs such a caller. A wrong token is refused on
 * every request, and past the guess limit of its address answered 429. `by` is what the ledger names.
 */
export async function admit(request: Request, security: ServerSecurity, kind: "query" | "command"): Promise<{ by?: string; user?: string; denied?: Response }> {
  if (kind === "command" && !isSameOrigin(request, security)) {
    const denied = errorResponse("forbidden", 403, `a command from origin ${request.headers.get("origin")} is refused; commands come from this server's own pages or from a client without an Origin`);
    return { denied };
  }
  const hasCredentials = Boolean(security.token || security.usersFile);
  const { actor, invalid, retryAfterMs } = await identify(request.headers, security);
  // Only a command is signed: a query's header is not read. `user`: a users file's user, proved.
  if (actor) {
    const user = byOf(actor);
    const named = kind === "command" ? requestActor(request.headers, user, security) : { by: user };
    return user === undefined ? named : { ...named, user };
  }
  if (retryAfterMs !== undefined) {
    const refusal = tooManyGuesses(retryAfterMs);
    return { denied: new Response(refusal.body, { status: refusal.status, headers: refusal.headers }) };
  }
  if (needsCaller(security, kind) || (hasCredentials && invalid)) {
    const why = invalid ? `${invalid}; ` : "";
    const what = kind === "command" ? "this command" : "this server";
    const denied = errorResponse("unauthorized", 401, `${why}${what} needs the header Authorization: Bearer <token> (COCKPIT_TOKEN, or a token from cockpit users add)`, {
      "www-authenticate": 'Bearer realm="cockpit"',
    });
    return { denied };
  }
  return kind === "command" ? requestActor(request.headers, undefined, security) : {};
}

/** The header a caller names who acts with, where no users file names them (lib/repo/identity.ts). */
export const ACTOR_HEADER = "x-cockpit-actor";

/**
 * Who acts for a request: a user of the users file (proved by a token or a session) is always
 * themself, and a header naming someone else is refused; without a users file, the header names
 * the actor (a loopback caller, or the holder of the shared token); else nobody, and the
 * repository's git identity signs the command (lib/surfaces/invoke.ts).
 */
function requestActor(headers: Headers, user: string | undefined, security: ServerSecurity): { by?: string; denied?: Response } {
  const named = headers.get(ACTOR_HEADER);
  if (named === null) return { by: user };
  const refusal = claimedActorRefusal(named, { user, usersFile: Boolean(security.usersFile), source: "the header X-Cockpit-Actor", drop: "drop the header" });
  if (refusal) return { denied: refusal.kind === "invalid" ? errorResponse("invalid_input", 400, refusal.message) : errorResponse("forbidden", 403, refusal.message) };
  return { by: named };
}

/** Numeric fields of a query input, which arrive as text in the query string: whether each takes a fraction. */
function numericFields(schema: z.ZodType): Map<string, "whole" | "fraction"> {
  const out = new Map<string, "whole" | "fraction">();
  if (!(schema instanceof z.ZodObject)) return out;
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let inner: z.ZodType = field;
    while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    if (inner instanceof z.ZodNumber) out.set(key, inner.format === "safeint" || inner.format === "int32" ? "whole" : "fraction");
  }
  return out;
}

const WHOLE = /^(?:[0-9]{1,10}|-[1-9][0-9]{0,9})$/;
const FRACTION = /^(?:[0-9]{1,10}(?:\.[0-9]{1,6})?|-[1-9][0-9]{0,9})$/;

function queryInput(url: URL, capability: AnyCapability): { input?: Record<string, unknown>; problem?: string } {
  const numeric = numericFields(capability.input);
  // No prototype: a field named `__proto__` is a field (and refused as unknown), not a setter.
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    if (values.length > 1) return { problem: `${key}: given ${values.length} times; give it once` };
    const value = values[0];
    // A negative number is a number, so it is refused by its bounds ("must be 0 or more"), not its type.
    // A fraction is a number where the field takes one (a wait's timeout: 0.5 s); elsewhere it is text, refused by its type.
    const kind = numeric.get(key);
    input[key] = kind !== undefined && (kind === "fraction" ? FRACTION : WHOLE).test(value) ? Number(value) : value;
  }
  return { input };
}

async function bodyInput(request: Request): Promise<{ input?: unknown; problem?: Response }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return { problem: errorResponse("too_large", 413, `the body is over ${MAX_BODY_BYTES} bytes`) };
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return { problem: errorResponse("too_large", 413, `the body is over ${MAX_BODY_BYTES} bytes`) };
  // The document says requestBody.required: an empty body is a mistake, not a command with every default.
  if (text.trim() === "") return { problem: errorResponse("invalid_input", 400, "the body is empty; send a JSON object of the input's fields ({} takes every default)") };
  try {
    return { input: JSON.parse(text) };
  } catch (error) {
    const why = error instanceof Error ? error.message : "malformed";
    return { problem: errorResponse("invalid_input", 400, `the body is not JSON (${why}); send a JSON object`) };
  }
}

/** Serve one request for a capability route (`/api/v1/plan…`). */
export async function handleCapabilityRequest(request: Request, path: string, settings: HttpSettings = settingsFromEnv()): Promise<Response> {
  const capability = capabilityAt(path);
  if (!capability) return unknownRoute(path);
  const method = httpMethod(capability);
  const asked = request.method === "HEAD" ? "GET" : request.method;
  if (asked !== method) {
    const why = capability.kind === "command" ? "it changes the plan, so it is POST only" : "it only reads, so it is GET only";
    return errorResponse("method_not_allowed", 405, `${asked} ${path} is not allowed: ${why}`, { allow: method });
  }
  const { by, denied } = await admit(request, settings.security ?? securityFromEnv(), capability.kind === "command" ? "command" : "query");
  if (denied) return denied;
  let input: unknown;
  if (method === "GET") {
    const q = queryInput(new URL(request.url), capability);
    if (q.problem) return errorResponse("invalid_input", 400, q.problem);
    input = q.input;
  } else {
    const b = await bodyInput(request);
    if (b.problem) return b.problem;
    input = b.input;
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      return errorResponse("invalid_input", 400, "the body must be a JSON object of the input's fields");
    }
    // If-Match carries the version an edit was made against, unless the body does.
    const ifMatch = ifMatchVersion(request);
    const body = input as Record<string, unknown>;
    if (ifMatch !== undefined && body.if_version === undefined && capability.input instanceof z.ZodObject && "if_version" in capability.input.shape) {
      input = { ...body, if_version: ifMatch };
    }
    // Idempotency-Key names the move once, unless the body does.
    const key = request.headers.get("idempotency-key");
    if (key !== null && body.idempotency_key === undefined && capability.input instanceof z.ZodObject && "idempotency_key" in capability.input.shape) {
      input = { ...(input as Record<string, unknown>), idempotency_key: key };
    }
  }
  const ctx = { ...contextFor(settings.repo, by), signal: request.signal };
  const result = await invoke(capability, ctx, input);
  if (result.ok) {
    const version = capability.version?.(ctx, input as never);
    return jsonResponse(200, result.value, version ? { etag: `"${version}"` } : {});
  }
  return errorResponse(result.error.code, STATUS_OF[result.error.code], result.error.message, undefined, result.error.details);
}
