import { transition } from "../plan/transition";
import { defineCapability } from "./capability";
import { TransitionInput } from "./inputs";
import { TransitionResultSchema } from "./outputs";

export const planTransitionCapability = defineCapability({
  id: "plan.transition",
  kind: "command",
  title: "Move one issue through its lifecycle",
  description:
    "start a READY issue, verify an ACTIVE one, or mark it done once its evidence is complete; the stamp is sealed and logged. A forbidden move is refused with what is in the way; from and to are derived.",
  input: TransitionInput,
  output: TransitionResultSchema,
  handler: (ctx, input) => transition(ctx.repo, input.issue, input.transition, { by: ctx.by, cache: ctx.cache, ...ctx.moves }),
});
