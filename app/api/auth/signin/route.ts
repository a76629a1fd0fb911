import { isSameOrigin } from "@/lib/surfaces/http";
import {
  actorForToken,
  isSecureRequest,
  nextLocation,
  peerOf,
  retryAfterSeconds,
  safeNext,
  sealSession,
  securityFromEnv,
  sessionCookie,
  signInLimiter,
} from "@/lib/server/security";

export const dynamic = "force-dynamic";

const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });

function page(status: number, title: string, text: string, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Cockpit</title></head><body><main><h1>${title}</h1><p>${text}</p><p><a href="/signin">Back to sign-in</a></p></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers } });
}

/** The sign-in form's target: a token in, a sealed session cookie out. */
export async function POST(request: Request) {
  const security = securityFromEnv();
  if (!isSameOrigin(request, security)) return page(403, "Refused", "A sign-in from another site is refused.");
  if (!security.token && !security.usersFile) {
    return page(400, "No sign-in here", "This server has no token and no users file, so there is nothing to sign in with: start it with COCKPIT_TOKEN or --users FILE.");
  }
  let token = "";
  let next = "/";
  try {
    const form = await request.formData();
    token = String(form.get("token") ?? "").trim();
    next = safeNext(form.get("next"));
  } catch {
    return page(400, "Bad request", "Send the sign-in form: a field named token.");
  }
  // A valid token signs in even from an address over the limit (on loopback every caller shares one).
  const actor = await actorForToken(token, security);
  if (!actor) {
    const peer = peerOf(request.headers, security);
    const wait = signInLimiter.retryAfter(peer);
    signInLimiter.fail(peer);
    if (wait > 0) {
      const seconds = retryAfterSeconds(wait);
      return page(429, "Too many attempts", `Too many failed sign-ins from this address; try again in ${seconds} s.`, { "retry-after": seconds });
    }
    return seeOther(`/signin?error=invalid&next=${encodeURIComponent(nextLocation(next))}`);
  }
  const seal = await sealSession(actor, security);
  return seeOther(nextLocation(next), { "set-cookie": sessionCookie(seal, isSecureRequest(request.headers, request.url, security), security) });
}
