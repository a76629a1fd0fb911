import { searchRecords } from "@/lib/plan/search";
import { matchPeople } from "@/lib/people/people";
import { ownersOf } from "@/lib/people/facts";
import { readLedger } from "@/lib/repo/ledger";
import type { Plan } from "@/lib/plan/shapes";
import { errorResponse, jsonResponse } from "@/lib/surfaces/http";
import { servedRepo, servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";

/** The owners and the ledger's users of a plan as served (kept while the plan is the same object). */
const handlesOf = new WeakMap<Plan, string[]>();

/** The command palette's look-up: at most 20 milestones and issues matching `q`, best first, and the people whose handle matches. */
export async function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  for (const key of params.keys()) {
    if (key !== "q") return errorResponse("invalid_input", 400, `unknown field '${key}'; the palette takes only q`);
  }
  const q = params.get("q") ?? "";
  if (q.length > 200) return errorResponse("invalid_input", 400, "q is at most 200 characters");
  const { plan } = await servedState();
  const repo = servedRepo();
  let handles = handlesOf.get(plan);
  if (!handles) {
    const by = readLedger(repo).entries.map((e) => e.by).filter((b): b is string => typeof b === "string");
    handlesOf.set(plan, (handles = [...ownersOf(repo, plan).values(), ...by]));
  }
  return jsonResponse(200, { ...searchRecords(plan, q, 20), people: matchPeople(handles, q, 5) });
}
