import { jsonResponse } from "@/lib/surfaces/http";
import { openApiDocument } from "@/lib/surfaces/openapi";
import { securityFromEnv } from "@/lib/server/security";

export const dynamic = "force-dynamic";

/** The document of this server, with the doors its environment sets. */
export function GET() {
  return jsonResponse(200, openApiDocument({ security: securityFromEnv() }));
}
