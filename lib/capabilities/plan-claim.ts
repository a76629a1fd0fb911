import { leaseWriteOptions } from "../coordination/plan-leases";
import { claim } from "../plan/transition";
import { defineCapability } from "./capability";
import { ClaimInput } from "./inputs";
import { TransitionResultSchema } from "./outputs";

export const planClaimCapability = defineCapability({
  id: "plan.claim",
  kind: "command",
  title: "Take the next ready issue",
  description:
    "Start the next ready issue in one locked step, so two agents never get the same one (across clones too, with a shared database: it skips leased issues); with a milestone, only its issues. Refused when nothing is ready.",
  input: ClaimInput,
  output: TransitionResultSchema,
  handler: (ctx, input) => claim(ctx.repo, input.milestone, { by: ctx.by, cache: ctx.cache, ...ctx.moves, ...leaseWriteOptions(ctx.repo, ctx.plan) }),
});
