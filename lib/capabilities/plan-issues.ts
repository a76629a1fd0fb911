import { planIssues } from "../plan/queries";
import { PlanIssueListSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { IssueFilterInput } from "./inputs";

export const planIssuesCapability = defineCapability({
  id: "plan.issues",
  kind: "query",
  title: "Issues, filtered by what the graph derived",
  description:
    "Issues with derived status, wave, blockers and dependents, filtered by milestone, status or wave. status READY is the ready set; BLOCKED the blocked set.",
  input: IssueFilterInput,
  output: withAtMember(PlanIssueListSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planIssues(plan, input), at);
  },
});
