import { TickSchema } from "../execution/shapes";
import { tick } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { EmptyInput } from "./inputs";


export const plansTickCapability = defineCapability({
  id: "plans.tick",
  kind: "command",
  title: "Fail children that ran past their timeout",
  description: "Every child processing longer than its plan's timeout fails with category timeout (and may be retried).",
  input: EmptyInput,
  output: TickSchema,
  handler: async (ctx) => ({ timed_out: await tick(ctx.repo, { config: configOf(ctx) }) }),
});
