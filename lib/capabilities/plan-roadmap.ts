import { planRoadmap } from "../plan/queries";
import { PlanRoadmapSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { AtInput } from "./inputs";

export const planRoadmapCapability = defineCapability({
  id: "plan.roadmap",
  kind: "query",
  title: "The milestones in derived order",
  description:
    "Milestones ordered by rank, order and id, with the first unblocked unfinished one as now and the one after it as next.",
  input: AtInput,
  output: withAtMember(PlanRoadmapSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planRoadmap(plan), at);
  },
});
