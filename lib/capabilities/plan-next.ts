import { planNext } from "../plan/queries";
import { PlanNextIssueSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { MilestoneFilterInput } from "./inputs";

export const planNextCapability = defineCapability({
  id: "plan.next",
  kind: "query",
  title: "The one issue to take now",
  description:
    "The lowest-wave, highest-priority READY issue of the milestone (default: the active one), widening to the whole plan. Ask this before starting work.",
  input: MilestoneFilterInput,
  output: withAtMember(PlanNextIssueSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planNext(plan, input), at);
  },
});
