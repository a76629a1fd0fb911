import { ExecutionPlanDetailSchema } from "../execution/shapes";
import { getPlan } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { PlanIdInput, open } from "./plans-inputs";

export const plansGetCapability = defineCapability({
  id: "plans.get",
  kind: "query",
  title: "One execution plan, its children and its timeline",
  description: "The plan as the CLI dict, its children (retries included) and every decision with its reason.",
  input: PlanIdInput,
  output: ExecutionPlanDetailSchema,
  handler: async (ctx, input) => open(await getPlan(ctx.repo, input.id, { config: configOf(ctx) })),
});
