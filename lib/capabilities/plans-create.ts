import { z } from "zod";
import { ExecutionPlanDetailSchema } from "../execution/shapes";
import { SubplanConfigSchema } from "../execution/config";
import { createExecutionPlan } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { PlansCreateInput, open } from "./plans-inputs";

/** What a decomposition would make (dry_run), written nowhere. */
export const DecomposePreviewSchema = z.object({
  dry_run: z.literal(true),
  title: z.string(),
  children: z.array(z.object({ issue: z.string(), title: z.string(), wave: z.number().int(), status: z.string() })).describe("One child per issue, in the order they would run: by wave."),
  skipped: z.array(z.object({ issue: z.string(), status: z.string() })).describe("The issues left out: DONE or CANCELLED."),
  waves: z.number().int(),
  config: SubplanConfigSchema,
  integration_branch: z.string().nullable().describe("The branch it would make at HEAD (null: no commit yet)."),
  base_commit: z.string().nullable(),
});

export const plansCreateCapability = defineCapability({
  id: "plans.create",
  kind: "command",
  title: "Decompose work into an execution plan",
  description:
    "Make a root plan with one child per issue of the milestone (or list) that is not DONE or CANCELLED, grouped by wave; dry_run answers what it would make and writes nothing. Config defaults: sequential, max_parallel 5, fail_fast false, 2 retries.",
  input: PlansCreateInput,
  output: z.union([ExecutionPlanDetailSchema, DecomposePreviewSchema]),
  handler: async (ctx, input) => {
    const target = input.milestone !== undefined ? { milestone: input.milestone } : { issues: input.issues! };
    const options = { automation_profile: input.automation_profile ?? null, config: configOf(ctx) };
    if (input.dry_run) return createExecutionPlan(ctx.repo, target, input.config ?? {}, { ...options, dryRun: true });
    return open(await createExecutionPlan(ctx.repo, target, input.config ?? {}, options));
  },
});
