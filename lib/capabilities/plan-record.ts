import { z } from "zod";
import { RevisionSchema } from "../plan/history-shapes";
import { currentVersion } from "../repo/plan-edit";
import { planRecord } from "../plan/queries";
import { PlanIssueSchema, PlanMilestoneSchema } from "../plan/shapes";
import { answerAt, planFor } from "./at";
import { defineCapability } from "./capability";
import { RecordInput } from "./inputs";

/** PlanRecordSchema's two shapes, each with the optional `at` member. */
export const PlanRecordAtSchema = z.xor([
  z.object({ milestone: PlanMilestoneSchema, issues: z.array(PlanIssueSchema), at: RevisionSchema.optional() }),
  z.object({ issue: PlanIssueSchema, depends_on: z.array(PlanIssueSchema), at: RevisionSchema.optional() }),
]);

export const planRecordCapability = defineCapability({
  id: "plan.record",
  kind: "query",
  title: "One milestone or issue, with everything derived about it",
  description:
    "A milestone with its issues, or an issue with the issues it depends on, all in full. Milestones are looked up first.",
  input: RecordInput,
  output: PlanRecordAtSchema,
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planRecord(plan, input), at);
  },
  // A record read at a revision has no version an edit could carry back.
  version: (ctx, input) => (input.at === undefined ? currentVersion(ctx.repo, input.id) : undefined),
});
