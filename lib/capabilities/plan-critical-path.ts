import { deriveCriticalPath } from "../graph/critical-path";
import { requireMilestone } from "../plan/nearest";
import { PlanCriticalPathSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { MilestoneFilterInput } from "./inputs";

export const planCriticalPathCapability = defineCapability({
  id: "plan.critical_path",
  kind: "query",
  title: "The longest chain of unfinished work",
  description:
    "The heaviest chain of unfinished issues in the waves, each depending on the one before, first to do first; with a milestone, the heaviest one ending in it. Weights are days: the median sealed start-to-done time of the issue's milestone, else 1; ties go to the byte-wise smallest ids.",
  input: MilestoneFilterInput,
  output: withAtMember(PlanCriticalPathSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    requireMilestone(plan, input.milestone);
    return answerAt(deriveCriticalPath(plan, { milestone: input.milestone }), at);
  },
});
