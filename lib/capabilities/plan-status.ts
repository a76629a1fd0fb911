import { planStatus } from "../plan/queries";
import { PlanStatusReportSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { MilestoneFilterInput } from "./inputs";

export const planStatusCapability = defineCapability({
  id: "plan.status",
  kind: "query",
  title: "Where the plan stands",
  description:
    "Every milestone's status and counts, the active milestone, the next ready issue and the plan's totals. An unknown milestone is not found.",
  input: MilestoneFilterInput,
  output: withAtMember(PlanStatusReportSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planStatus(plan, input), at);
  },
});
