import { jsonResponse } from "@/lib/surfaces/http";
import { openApiDocument } from "@/lib/surfaces/openapi";

export const dynamic = "force-dynamic";

export function GET() {
  return jsonResponse(200, openApiDocument());
}
