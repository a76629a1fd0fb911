import { ExecutionPlanDetailSchema } from "../execution/shapes";
import { createExecutionPlan } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { PlansCreateInput, open } from "./plans-inputs";

export const plansCreateCapability = defineCapability({
  id: "plans.create",
  kind: "command",
  title: "Decompose work into an execution plan",
  description:
    "Make a root plan with one child per issue of the milestone (or list) that is not DONE or CANCELLED, grouped by wave. Config defaults: sequential, max_parallel 5, fail_fast false, 2 retries.",
  input: PlansCreateInput,
  output: ExecutionPlanDetailSchema,
  handler: async (ctx, input) =>
    open(
      await createExecutionPlan(
        ctx.repo,
        input.milestone !== undefined ? { milestone: input.milestone } : { issues: input.issues! },
        input.config ?? {},
        { automation_profile: input.automation_profile ?? null, config: configOf(ctx) },
      ),
    ),
});
