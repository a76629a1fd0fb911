import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "@/lib/surfaces/responses";
import { badAddressResponse, percentEncodingProblem } from "@/lib/surfaces/bad-address";
import { authenticate, bearerOf, hostProblem, identify, securityFromEnv, tooManyGuesses } from "@/lib/server/security";

// Every request passes here first (no matcher): its Host must be one the server answers to; a
// wrong bearer token is refused here, on every path, and counted against its address's guess
// limit; beyond loopback every request must come from a signed-in person or carry a token. The
// route handlers and the server actions check the caller again themselves (and, on loopback,
// that a command has one).

/** What anyone may fetch: the sign-in page, its form's target, and the built assets. */
function isPublic(path: string): boolean {
  return path === "/signin" || path.startsWith("/api/auth/") || path.startsWith("/_next/static/") || path === "/icon.svg" || path === "/favicon.ico";
}

function refuse(status: number, code: "forbidden" | "unauthorized", message: string, headers: Record<string, string> = {}): Response {
  return errorResponse(code, status, message, headers);
}

const BEARER_CHALLENGE = { "www-authenticate": 'Bearer realm="cockpit"' };

export async function proxy(request: NextRequest): Promise<Response> {
  const security = securityFromEnv();
  const problem = hostProblem(request.headers, security);
  if (problem) return refuse(403, "forbidden", problem);
  const path = request.nextUrl.pathname;
  const badEncoding = percentEncodingProblem(path);
  if (badEncoding) return badAddressResponse(path, badEncoding);
  const hasCredentials = Boolean(security.token || security.usersFile);
  if (hasCredentials && bearerOf(request.headers) !== undefined) {
    const { actor, invalid, retryAfterMs } = await identify(request.headers, security);
    if (retryAfterMs !== undefined) {
      const refusal = tooManyGuesses(retryAfterMs);
      return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
    }
    if (!actor && invalid) return refuse(401, "unauthorized", `${invalid}; send Authorization: Bearer <token> with COCKPIT_TOKEN or a token from cockpit users add`, BEARER_CHALLENGE);
  }
  if (!security.authRequired || isPublic(path)) return NextResponse.next();

  const { actor, invalid } = await authenticate(request.headers, security);
  if (actor) return NextResponse.next();

  const isPage = (request.method === "GET" || request.method === "HEAD") && !path.startsWith("/api/") && !request.headers.has("next-action");
  if (isPage) {
    // Back to the page asked for after signing in. Next makes a Location of this origin relative.
    const next = path + request.nextUrl.search;
    const to = new URL(`/signin?next=${encodeURIComponent(next)}${invalid ? "&expired=1" : ""}`, request.url);
    const response = NextResponse.redirect(to, 307);
    response.headers.set("cache-control", "no-store");
    return response;
  }
  return refuse(
    401,
    "unauthorized",
    `${invalid ? invalid + "; " : ""}this server needs a signed-in session (sign in at /signin) or the header Authorization: Bearer <token>`,
    BEARER_CHALLENGE,
  );
}
