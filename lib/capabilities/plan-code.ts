import { planCode } from "../code/answer";
import { PlanCodeAnswerSchema } from "../code/shapes";
import { defineCapability } from "./capability";
import { CodeInput } from "./inputs";

export const planCodeCapability = defineCapability({
  id: "plan.code",
  kind: "query",
  title: "The code linked to an issue",
  description:
    "The branches and commits that mention an issue, whether and where its code was merged, and what the code says its status should be (code findings); without an id, every linked issue. Read from the clone's branches: git fetch brings teammates'.",
  input: CodeInput,
  output: PlanCodeAnswerSchema,
  handler: (ctx, input) => planCode(ctx.repo, () => ctx.plan(), input),
});
