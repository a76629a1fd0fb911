import { isSameOrigin } from "@/lib/surfaces/http";
import { isSecureRequest, securityFromEnv, sessionCookie } from "@/lib/server/security";

export const dynamic = "force-dynamic";

/** Signing out: the session cookie is cleared, and the browser is sent to the sign-in page. */
export async function POST(request: Request) {
  const security = securityFromEnv();
  if (!isSameOrigin(request, security)) return new Response("A sign-out from another site is refused.", { status: 403 });
  return new Response(null, {
    status: 303,
    headers: {
      location: "/signin?signedout=1",
      "cache-control": "no-store",
      "set-cookie": sessionCookie(null, isSecureRequest(request.headers, request.url, security), security),
    },
  });
}
