import { resolveConfig } from "../config";
import { asksOf } from "../coordination/plan-asks";
import { ownersOf, peopleOf, readPeopleFacts } from "../people/facts";
import { atomXml, personFeed, planFeed } from "../people/feed";
import { securityFromEnv } from "../server/security";
import { currentPlan } from "../server/state";
import { admit, errorResponse, settingsFromEnv } from "./http";

// The Atom feeds over HTTP (docs/inbox.md#feeds): behind the doors of a read, as the pages are.

const ATOM = { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "no-cache" };

/** GET /feed.atom, or GET /people/<handle>/feed.atom with `handle`. */
export async function feedResponse(request: Request, handle?: string): Promise<Response> {
  const { repo, security } = settingsFromEnv();
  const { denied } = await admit(request, security ?? securityFromEnv(), "query");
  if (denied) return denied;
  const plan = currentPlan(repo);
  const config = resolveConfig();
  const asks = await asksOf(repo, () => plan, config, { ended: true });
  const base = new URL(request.url).origin;
  if (handle === undefined) return new Response(atomXml(planFeed(plan, ownersOf(repo, plan), asks), base), { headers: ATOM });
  const facts = await readPeopleFacts(repo, plan);
  const theirs = peopleOf(plan.issues, facts).get(handle);
  const asked = asks.some((a) => a.asker === handle);
  if (!theirs && !asked) return errorResponse("not_found", 404, `nobody called '${handle}' owns, moved or asked anything in this plan; /people lists everyone`);
  return new Response(atomXml(personFeed(plan, handle, theirs ?? [], asks), base), { headers: ATOM });
}
