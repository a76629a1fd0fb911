import { jsonResponse } from "@/lib/surfaces/http";
import { openApiDocument } from "@/lib/surfaces/openapi";
import { securityFromEnv } from "@/lib/surfaces/security";

export const dynamic = "force-dynamic";

/** The document of this server: its own origin, and the doors its environment sets. */
export function GET(request: Request) {
  return jsonResponse(200, openApiDocument({ security: securityFromEnv(), server: new URL(request.url).origin }));
}
