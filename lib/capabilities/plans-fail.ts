import { FailResultSchema } from "../execution/shapes";
import { fail } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { PlansFailInput, open } from "./plans-inputs";

export const plansFailCapability = defineCapability({
  id: "plans.fail",
  kind: "command",
  title: "Report that a child failed",
  description:
    "The failure handler decides: a retriable failure within max_retries becomes a new attempt; a final one stops the others under fail_fast or in sequential mode.",
  input: PlansFailInput,
  output: FailResultSchema,
  handler: async (ctx, input) => open(await fail(ctx.repo, input.child, input.category, input.message, { config: configOf(ctx) })),
});
