import { planRoadmap } from "../plan/queries";
import { PlanRoadmapSchema } from "../plan/shapes";
import { defineCapability } from "./capability";
import { EmptyInput } from "./inputs";

export const planRoadmapCapability = defineCapability({
  id: "plan.roadmap",
  kind: "query",
  title: "The milestones in derived order",
  description:
    "Milestones ordered by rank, order and id, with the first unblocked unfinished one as now and the one after it as next.",
  input: EmptyInput,
  output: PlanRoadmapSchema,
  handler: (ctx) => planRoadmap(ctx.plan()),
});
