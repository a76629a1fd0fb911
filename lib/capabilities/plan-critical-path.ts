import { notFound } from "../plan/errors";
import { deriveCriticalPath } from "../graph/critical-path";
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
    if (input.milestone !== undefined && !plan.milestones.some((m) => m.id === input.milestone)) {
      throw notFound(`no milestone '${input.milestone}'; the milestones are ${plan.milestones.map((m) => m.id).join(", ") || "none"}`);
    }
    return answerAt(deriveCriticalPath(plan, { milestone: input.milestone }), at);
  },
});
