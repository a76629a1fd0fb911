import { z } from "zod";
import { RevisionSchema } from "../plan/history-shapes";
import { loadRecords } from "../repo/load";
import { currentVersion } from "../repo/plan-edit";
import { guardMove } from "../repo/transition";
import { MOVE_NAMES } from "../plan/seal";
import { planRecord } from "../plan/queries";
import { PlanIssueSchema, PlanMilestoneSchema } from "../plan/shapes";
import { answerAt, planFor } from "./at";
import { configOf, defineCapability } from "./capability";
import { RecordInput } from "./inputs";
import { AsWrittenMembers, recordAsWritten } from "./record-as-written";
import { issueHandoff } from "../coordination/plan-leases";

/**
 * PlanRecordSchema's two shapes, each with the optional `at` member, and (for the files as they
 * are now) the record as written and its evidence by name.
 */
export const PlanRecordAtSchema = z.xor([
  z.object({ milestone: PlanMilestoneSchema, issues: z.array(PlanIssueSchema), at: RevisionSchema.optional(), ...AsWrittenMembers }),
  z.object({ issue: PlanIssueSchema, depends_on: z.array(PlanIssueSchema), at: RevisionSchema.optional(), ...AsWrittenMembers }),
]);

export const planRecordCapability = defineCapability({
  id: "plan.record",
  kind: "query",
  title: "One milestone or issue, with everything derived about it",
  description:
    "A milestone with its issues, or an issue with the issues it depends on, all in full, with the record's fields as written, its version, its evidence by name and (an issue) which moves the model allows now. Milestones are looked up first.",
  input: RecordInput,
  output: PlanRecordAtSchema,
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    const answer = planRecord(plan, input);
    // At a revision the answer is the derivation's alone: the file as written is the one of now.
    if (at) return answerAt(answer, at);
    if (!("issue" in answer)) return { ...answer, ...recordAsWritten(ctx.repo, "milestone", input.id) };
    const handoff = await issueHandoff(ctx.repo, ctx.plan, answer.issue.id, configOf(ctx));
    // What each move would answer now: the guards of the transition itself, over the same records.
    const records = loadRecords(ctx.repo, ctx.cache);
    const moves = MOVE_NAMES.map((move) => {
      const refusal = guardMove(plan, records, answer.issue, move, undefined, ctx.moves?.derive);
      return refusal === undefined ? { move } : { move, refusal };
    });
    return { ...answer, ...recordAsWritten(ctx.repo, "issue", input.id), ...(handoff ? { handoff } : {}), moves };
  },
  // A record read at a revision has no version an edit could carry back.
  version: (ctx, input) => (input.at === undefined ? currentVersion(ctx.repo, input.id) : undefined),
});
