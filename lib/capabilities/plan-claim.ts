import { codeFindingsOf } from "../code/answer";
import { actorOf, leaseWriteOptions, type OpenedBy } from "../coordination/plan-leases";
import { claim } from "../repo/transition";
import { refused } from "../plan/errors";
import { hasPlanFolder, noPlanAt } from "../repo/repo-folder";
import { configOf, defineCapability } from "./capability";
import { ClaimInput } from "./inputs";
import { ClaimResultSchema } from "../results/outputs";

export const planClaimCapability = defineCapability({
  id: "plan.claim",
  kind: "command",
  // Losing the issue to the remote is no answer: the next ready one is claimed, up to 3 issues.
  publish: { retry: 3 },
  title: "Take the next ready issue",
  description:
    "Start the next ready issue in one locked step, as a session of the actor (its id and epoch in the answer), so two agents never get the same one; an abandoned ACTIVE issue (its lease expired) is taken over first, unless no_reclaim. With a milestone, only its issues.",
  input: ClaimInput,
  output: ClaimResultSchema,
  handler: async (ctx, input) => {
    if (!hasPlanFolder(ctx.repo)) throw refused(noPlanAt(ctx.repo));
    // The code findings are of the issue as it stood before the claim: "never started, yet worked on".
    const before = ctx.plan();
    const out: OpenedBy = {};
    const sessions = leaseWriteOptions(ctx.repo, ctx.plan, configOf(ctx), actorOf(ctx.by, ctx.kind, true), out);
    const result = await claim(ctx.repo, input.milestone, {
      by: ctx.by,
      cache: ctx.cache,
      ...ctx.moves,
      ...sessions,
      ...(input.no_reclaim ? { reclaim: undefined } : {}),
      reclaimed: () => {
        const r = out.opened?.reclaimed;
        return r && out.opened ? { previous: r.actor, previous_session: r.session, epoch: out.opened.session.epoch } : undefined;
      },
    });
    const opened = out.opened;
    return {
      ...result,
      code_findings: await codeFindingsOf(ctx.repo, before, result.issue),
      ...(opened ? { session: opened.session.session, epoch: opened.session.epoch } : {}),
      ...(opened?.reclaimed ? { reclaimed_from: { actor: opened.reclaimed.actor, session: opened.reclaimed.session, epoch: opened.reclaimed.epoch } } : {}),
    };
  },
});
