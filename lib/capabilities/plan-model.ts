import { planModel } from "../plan/queries";
import { PlanSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { AtInput } from "./inputs";

export const planModelCapability = defineCapability({
  id: "plan.model",
  kind: "query",
  title: "The whole derived plan",
  description:
    "Every milestone and issue with its derived status, wave, rank and graph, the waves, both edge lists and every finding. Derived from the records on every call.",
  input: AtInput,
  output: withAtMember(PlanSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planModel(plan), at);
  },
});
