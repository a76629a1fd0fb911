import { actorOf, releaseSession } from "../coordination/plan-leases";
import { requireIssue } from "../coordination/leases";
import { refused } from "../plan/errors";
import { configOf, defineCapability } from "./capability";
import { ReleaseInput } from "./inputs";
import { ReleaseResultSchema } from "../results/outputs";

export const planReleaseCapability = defineCapability({
  id: "plan.release",
  kind: "command",
  records: false,
  title: "End the session that holds an issue",
  description:
    "Give an issue back: the actor's own session on it ends, with a note for the next one (force: another actor's, for a person clearing a crashed agent; never an agent). The record itself is not changed.",
  input: ReleaseInput,
  output: ReleaseResultSchema,
  handler: async (ctx, input) => {
    requireIssue(ctx.plan(), input.issue);
    const who = actorOf(ctx.by, ctx.kind, false, input.session);
    if (input.force && who.kind === "agent") throw refused(`${who.actor} is an agent, and an agent never ends another's session: ask a person, or wait for the lease to end (cockpit plan agents)`);
    const ended = await releaseSession(ctx.repo, ctx.plan, input.issue, who, { force: input.force === true, note: input.note }, configOf(ctx));
    return { issue: input.issue, released: ended !== undefined, ...(ended ? { holder: ended.actor, session: ended.session } : {}) };
  },
});
