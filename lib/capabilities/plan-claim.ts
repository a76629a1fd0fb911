import { codeFindingsOf } from "../code/answer";
import { leaseWriteOptions } from "../coordination/plan-leases";
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
    "Start the next ready issue in one locked step, so two agents never get the same one (across clones too, with a shared database: it skips leased issues); with a milestone, only its issues. Refused when nothing is ready; code_findings warns when commits already worked on it.",
  input: ClaimInput,
  output: ClaimResultSchema,
  handler: async (ctx, input) => {
    if (!hasPlanFolder(ctx.repo)) throw refused(noPlanAt(ctx.repo));
    // The code findings are of the issue as it stood before the claim: "never started, yet worked on".
    const before = ctx.plan();
    const result = await claim(ctx.repo, input.milestone, { by: ctx.by, cache: ctx.cache, ...ctx.moves, ...leaseWriteOptions(ctx.repo, ctx.plan, configOf(ctx)) });
    return { ...result, code_findings: await codeFindingsOf(ctx.repo, before, result.issue) };
  },
});
