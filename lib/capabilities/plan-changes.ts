import { planChanges } from "../history/plan-changes";
import { PlanChangesSchema } from "../plan/history-shapes";
import { defineCapability } from "./capability";
import { ChangesInput } from "./inputs";

export const planChangesCapability = defineCapability({
  id: "plan.changes",
  kind: "query",
  title: "What changed between two revisions",
  description:
    "Every issue whose derived status, wave or milestone changed since a revision (until another, or the files now), with what caused each status change. Also milestone statuses, findings new and resolved, the next issue and the roadmap's now and next.",
  input: ChangesInput,
  output: PlanChangesSchema,
  handler: (ctx, input) => planChanges(ctx.repo, input, ctx.cache ? ctx.plan : undefined),
});
