import { planValidate } from "../plan/queries";
import { PlanValidationSchema } from "../plan/shapes";
import { defineCapability } from "./capability";
import { EmptyInput } from "./inputs";

export const planValidateCapability = defineCapability({
  id: "plan.validate",
  kind: "query",
  title: "What the model refuses",
  description:
    "Every finding in derivation order, unreadable files first; valid is false when any is a FAIL. A WARN is legal and worth reading.",
  input: EmptyInput,
  output: PlanValidationSchema,
  handler: (ctx) => planValidate(ctx.plan()),
});
