import { planHistory } from "../history/history";
import { PlanHistorySchema } from "../plan/history-shapes";
import { defineCapability } from "./capability";
import { HistoryInput } from "./inputs";

export const planHistoryCapability = defineCapability({
  id: "plan.history",
  kind: "query",
  title: "The timeline of one milestone or issue",
  description:
    "Each commit that changed the record's file, newest first, with its author, time, message and the record's derived status after it. Moves in this clone's ledger not yet committed come first, marked uncommitted.",
  input: HistoryInput,
  output: PlanHistorySchema,
  handler: (ctx, input) => planHistory(ctx.repo, input, ctx.plan),
});
