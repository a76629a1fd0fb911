import { jsonResponse } from "@/lib/surfaces/http";
import { authenticate, securityFromEnv } from "@/lib/server/security";

export const dynamic = "force-dynamic";

/** Whether this browser has a session: the sign-in page asks, since a link from another site arrives without the SameSite=Strict cookie. */
export async function GET(request: Request) {
  const { actor } = await authenticate(request.headers, securityFromEnv());
  return jsonResponse(200, { signed_in: Boolean(actor), name: actor?.name ?? null });
}
