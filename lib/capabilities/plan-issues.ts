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
    "Issues with derived status, wave, blockers and dependents, filtered by milestone, status or wave, the first limit of them. status READY is the ready set; BLOCKED the blocked set.",
  input: IssueFilterInput,
  output: withAtMember(PlanIssueListSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    const list = planIssues(plan, input);
    return answerAt(input.limit === undefined ? list : { ...list, issues: list.issues.slice(0, input.limit) }, at);
  },
});
