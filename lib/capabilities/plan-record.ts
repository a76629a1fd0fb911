import { currentVersion } from "../plan/plan-edit";
import { planRecord } from "../plan/queries";
import { PlanRecordSchema } from "../plan/shapes";
import { defineCapability } from "./capability";
import { RecordInput } from "./inputs";

export const planRecordCapability = defineCapability({
  id: "plan.record",
  kind: "query",
  title: "One milestone or issue, with everything derived about it",
  description:
    "A milestone with its issues, or an issue with the issues it depends on, all in full. Milestones are looked up first.",
  input: RecordInput,
  output: PlanRecordSchema,
  handler: (ctx, input) => planRecord(ctx.plan(), input),
  version: (ctx, input) => currentVersion(ctx.repo, input.id),
});
