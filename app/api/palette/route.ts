import { searchRecords } from "@/lib/plan/search";
import { errorResponse, jsonResponse } from "@/lib/surfaces/http";
import { servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";

/** The command palette's look-up: at most 20 milestones and issues matching `q`, best first. */
export async function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  for (const key of params.keys()) {
    if (key !== "q") return errorResponse("invalid_input", 400, `unknown field '${key}'; the palette takes only q`);
  }
  const q = params.get("q") ?? "";
  if (q.length > 200) return errorResponse("invalid_input", 400, "q is at most 200 characters");
  const { plan } = await servedState();
  return jsonResponse(200, searchRecords(plan, q, 20));
}
