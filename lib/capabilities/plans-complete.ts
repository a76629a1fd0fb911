import { CompleteResultSchema } from "../execution/shapes";
import { complete } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { PlansCompleteInput, open } from "./plans-inputs";

export const plansCompleteCapability = defineCapability({
  id: "plans.complete",
  kind: "command",
  title: "Complete a child that has applied",
  description: "Record the evidence its issue requires and move the issue to DONE, which lets the next wave's dependents start.",
  input: PlansCompleteInput,
  output: CompleteResultSchema,
  handler: async (ctx, input) => open(await complete(ctx.repo, input.child, input.evidence, { config: configOf(ctx) })),
});
