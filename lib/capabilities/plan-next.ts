import { z } from "zod";
import { codeFindingsOf } from "../code/answer";
import { CodeFindingSchema } from "../code/shapes";
import { NOTHING_DECLARED, planNext } from "../plan/queries";
import { hasPlanFolder, noPlanAt } from "../repo/repo-folder";
import { unsealedWarning } from "../plan/unsealed";
import { PlanNextIssueSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { MilestoneFilterInput } from "./inputs";

export const planNextCapability = defineCapability({
  id: "plan.next",
  kind: "query",
  title: "The one issue to take now",
  description:
    "The lowest-wave, highest-priority READY issue of the milestone (default: the active one), widening to the whole plan. Ask this before starting work; code_findings warns when commits already work on it.",
  input: MilestoneFilterInput,
  output: withAtMember(
    PlanNextIssueSchema.extend({
      code_findings: z.array(CodeFindingSchema),
      warnings: z
        .array(z.object({ code: z.literal("unsealed_stamps"), message: z.string() }))
        .optional()
        .describe("Present when the issue named has stamps that do not count (unsealed): cockpit plan adopt may admit them."),
    }),
  ),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    const derived = planNext(plan, input);
    // An empty plan is an answer; a folder with no plan at all says so, not "nothing declared".
    const next = derived.reason === NOTHING_DECLARED && at === undefined && !hasPlanFolder(ctx.repo) ? { ...derived, reason: noPlanAt(ctx.repo) } : derived;
    const warning = next.issue ? unsealedWarning(plan, next.issue.id) : undefined;
    return answerAt({ ...next, code_findings: await codeFindingsOf(ctx.repo, plan, next.issue?.id), ...(warning ? { warnings: [warning] } : {}) }, at);
  },
});
