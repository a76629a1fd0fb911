import { afterIssueWrite, leaseWriteOptions } from "../coordination/plan-leases";
import { transition } from "../repo/transition";
import { configOf, defineCapability } from "./capability";
import { TransitionInput } from "./inputs";
import { TransitionResultSchema } from "../repo/move-shapes";

export const planTransitionCapability = defineCapability({
  id: "plan.transition",
  kind: "command",
  title: "Move one issue through its lifecycle",
  description:
    "start a READY issue, verify an ACTIVE one, or mark it done once its evidence is complete; the stamp is sealed and logged. A forbidden move (or, with a shared database, a start of an issue another clone holds) is refused with what is in the way; from and to are derived.",
  input: TransitionInput,
  output: TransitionResultSchema,
  handler: async (ctx, input) => {
    const result = await transition(ctx.repo, input.issue, input.transition, { by: ctx.by, cache: ctx.cache, ...ctx.moves, ...leaseWriteOptions(ctx.repo, ctx.plan, configOf(ctx)) });
    if (input.transition !== "start") await afterIssueWrite(ctx.repo, ctx.plan, input.issue, input.transition, configOf(ctx));
    return result;
  },
});
