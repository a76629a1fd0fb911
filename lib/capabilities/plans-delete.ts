import { z } from "zod";
import { deleteExecutionPlan } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { IdempotencyKeyField } from "./inputs";

export const PlansDeleteInput = z.strictObject({
  id: z.string().min(1, "id is a root plan's id, not empty").max(200, "id is at most 200 characters").describe("The root plan to delete, with every child."),
  force: z.boolean().optional().describe("Delete even while children are being worked on."),
  idempotency_key: IdempotencyKeyField.optional(),
});

export const PlansDeleteResultSchema = z.object({
  deleted: z.string(),
  plans: z.number().int().describe("Plans removed: the root and every plan under it."),
  events: z.number().int(),
  branch: z
    .object({ name: z.string(), deleted: z.boolean(), kept_because: z.string().optional() })
    .nullable()
    .describe("The integration branch the plan made, and whether it went (kept when checked out or gone)."),
});

export const plansDeleteCapability = defineCapability({
  id: "plans.delete",
  kind: "command",
  records: false,
  title: "Delete an execution plan",
  description:
    "Remove a root plan, every child and their timeline from the store (the records are not touched), and delete the integration branch it made unless it is checked out. Refused for a child, and while a child is processing unless force.",
  input: PlansDeleteInput,
  output: PlansDeleteResultSchema,
  handler: (ctx, input) => deleteExecutionPlan(ctx.repo, input.id, { config: configOf(ctx), force: input.force === true }),
});
