import { planModel } from "../plan/queries";
import { PlanSchema } from "../plan/shapes";
import { defineCapability } from "./capability";
import { EmptyInput } from "./inputs";

export const planModelCapability = defineCapability({
  id: "plan.model",
  kind: "query",
  title: "The whole derived plan",
  description:
    "Every milestone and issue with its derived status, wave, rank and graph, the waves, both edge lists and every finding. Derived from the records on every call.",
  input: EmptyInput,
  output: PlanSchema,
  handler: (ctx) => planModel(ctx.plan()),
});
