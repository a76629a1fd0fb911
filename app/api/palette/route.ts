import { nearestIds } from "@/lib/plan/nearest";
import { issueTyped, searchRecords } from "@/lib/plan/search";
import { planRecordCapability } from "@/lib/capabilities/plan-record";
import { matchPeople } from "@/lib/people/people";
import { peopleOf, readPeopleFacts } from "@/lib/people/facts";
import type { Plan } from "@/lib/plan/shapes";
import { processWide } from "@/lib/process-wide";
import { errorResponse, jsonResponse } from "@/lib/surfaces/http";
import { call, servedRepo, servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";

/**
 * Everyone /people lists for a plan as served (kept while the plan is the same object, a few seconds:
 * a new author may commit meanwhile), one memo per process: the served plan is one per process,
 * whichever bundle asks.
 */
const handlesOf = processWide("palette-handles", () => new WeakMap<Plan, { at: number; handles: string[] }>());
const HANDLES_MS = 10_000;

const NEAR_KINDS = ["issue", "milestone", "person"] as const;
type NearKind = (typeof NEAR_KINDS)[number];

/**
 * The command palette's look-up: at most 20 milestones and issues matching `q`, best first, and
 * the people (everyone /people lists) whose handle matches. With `near` (and `kind`), the 404 page's "did you mean": the
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
  let kept = handlesOf.get(plan);
  if (!kept || Date.now() - kept.at > HANDLES_MS) {
    // The same people as /people: owners, the ledger's users and the commit authors (as mapped).
    handlesOf.set(plan, (kept = { at: Date.now(), handles: [...peopleOf(plan.issues, await readPeopleFacts(repo, plan)).keys()] }));
  }
  const handles = kept.handles;
  if (params.has("near")) {
    const known: Record<NearKind, () => string[]> = {
      issue: () => plan.issues.map((i) => i.id),
      milestone: () => plan.milestones.map((m) => m.id),
      person: () => handles.filter((h) => h.trim() !== "" && !h.startsWith("cockpit/")),
    };
    return jsonResponse(200, { kind, near: q.trim() ? nearestIds(q.trim(), known[kind as NearKind]()) : [] });
  }
  return jsonResponse(200, { ...searchRecords(plan, q, 20), people: matchPeople(handles, q, 5), ...(await commandFor(plan, q, handles)) });
}

/**
 * What the palette may run when the query starts with an issue's id (bk20, BK-020 ana): the moves
 * with the model's refusal of each now (plan.record's), and the people the rest of the query names,
 * to assign the issue to.
 */
async function commandFor(plan: Plan, q: string, handles: readonly string[]) {
  const [first = "", ...rest] = q.trim().split(/\s+/);
  const issue = issueTyped(plan, first);
  if (!issue) return {};
  const record = await call(planRecordCapability, { id: issue.id });
  const moves = "moves" in record && record.moves ? record.moves : [];
  const who = rest.join(" ");
  return { command: { issue: { id: issue.id, title: issue.title, status: issue.status }, moves, people: who ? matchPeople(handles, who, 5) : [] } };
}
