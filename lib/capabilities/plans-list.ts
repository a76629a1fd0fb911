import { PlansListSchema } from "../execution/shapes";
import { listPlans } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { EmptyInput } from "./inputs";
import { open } from "./plans-inputs";

export const plansListCapability = defineCapability({
  id: "plans.list",
  kind: "query",
  title: "Every execution plan",
  description: "The root plans of this repository, newest first, with their children counted by state.",
  input: EmptyInput,
  output: PlansListSchema,
  handler: async (ctx) => ({ plans: (await listPlans(ctx.repo, { config: configOf(ctx) })).map(open) }),
});
