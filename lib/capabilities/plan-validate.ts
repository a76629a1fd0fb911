import { planValidate } from "../plan/queries";
import { PlanValidationSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { AtInput } from "./inputs";

export const planValidateCapability = defineCapability({
  id: "plan.validate",
  kind: "query",
  title: "What the model refuses",
  description:
    "Every finding in derivation order, unreadable files first; valid is false when any is a FAIL. A WARN is legal and worth reading.",
  input: AtInput,
  output: withAtMember(PlanValidationSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planValidate(plan), at);
  },
});
