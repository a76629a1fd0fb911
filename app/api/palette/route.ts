import { nearestIds } from "@/lib/plan/nearest";
import { searchRecords } from "@/lib/plan/search";
import { matchPeople } from "@/lib/people/people";
import { ownersOf } from "@/lib/people/facts";
import { readLedger } from "@/lib/repo/ledger";
import type { Plan } from "@/lib/plan/shapes";
import { processWide } from "@/lib/process-wide";
import { errorResponse, jsonResponse } from "@/lib/surfaces/http";
import { servedRepo, servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";

/**
 * The owners and the ledger's users of a plan as served (kept while the plan is the same object),
 * one memo per process: the served plan is one per process, whichever bundle asks.
 */
const handlesOf = processWide("palette-handles", () => new WeakMap<Plan, string[]>());

const NEAR_KINDS = ["issue", "milestone", "person"] as const;
type NearKind = (typeof NEAR_KINDS)[number];

/**
 * The command palette's look-up: at most 20 milestones and issues matching `q`, best first, and
 * the people whose handle matches. With `near` (and `kind`), the 404 page's "did you mean": the
 * three known ids of that kind nearest to it.
 */
export async function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  for (const key of params.keys()) {
    if (key !== "q" && key !== "near" && key !== "kind") return errorResponse("invalid_input", 400, `unknown field '${key}'; the palette takes q, or near with kind`);
  }
  const q = params.get("q") ?? params.get("near") ?? "";
  if (q.length > 200) return errorResponse("invalid_input", 400, `${params.has("q") ? "q" : "near"} is at most 200 characters`);
  const kind = params.get("kind") ?? "issue";
  if (!(NEAR_KINDS as readonly string[]).includes(kind)) return errorResponse("invalid_input", 400, `kind is one of ${NEAR_KINDS.join(", ")}, not '${kind}'`);
  const { plan } = await servedState();
  const repo = servedRepo();
  let handles = handlesOf.get(plan);
  if (!handles) {
    const by = readLedger(repo).entries.map((e) => e.by).filter((b): b is string => typeof b === "string");
    handlesOf.set(plan, (handles = [...ownersOf(repo, plan).values(), ...by]));
  }
  if (params.has("near")) {
    const known: Record<NearKind, () => string[]> = {
      issue: () => plan.issues.map((i) => i.id),
      milestone: () => plan.milestones.map((m) => m.id),
      person: () => handles.filter((h) => h.trim() !== "" && !h.startsWith("cockpit/")),
    };
    return jsonResponse(200, { kind, near: q.trim() ? nearestIds(q.trim(), known[kind as NearKind]()) : [] });
  }
  return jsonResponse(200, { ...searchRecords(plan, q, 20), people: matchPeople(handles, q, 5) });
}
