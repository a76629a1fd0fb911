import { actorOf, afterIssueWrite, guardWrite } from "../coordination/plan-leases";
import { recordEvidence } from "../repo/transition";
import { invalidInput } from "../plan/errors";
import { configOf, defineCapability } from "./capability";
import { EvidenceInput } from "./inputs";
import { EvidenceResultSchema } from "../repo/move-shapes";

export const planEvidenceCapability = defineCapability({
  id: "plan.evidence",
  kind: "command",
  title: "Record evidence on an issue or a milestone",
  description:
    "Append an evidence entry covering one required token, proved by a command or an artifact. Refused when the record does not require that token, or when another actor's session holds the issue; renews the holder's lease.",
  input: EvidenceInput,
  output: EvidenceResultSchema,
  handler: async (ctx, input) => {
    const { session, ...evidence } = input;
    const who = actorOf(ctx.by, ctx.kind, false, session);
    // Only the holder records evidence on an issue another session holds (milestones have no sessions).
    const onIssue = ctx.plan().issues.some((i) => i.id === input.record);
    if (session !== undefined && !onIssue) throw invalidInput(`${input.record} is no issue, and only an issue has sessions: leave session out`);
    if (onIssue) await guardWrite(ctx.repo, ctx.plan, input.record, who, configOf(ctx));
    const result = await recordEvidence(ctx.repo, evidence, { by: ctx.by, cache: ctx.cache, ...ctx.moves });
    await afterIssueWrite(ctx.repo, ctx.plan, input.record, "evidence", who, configOf(ctx)); // work on an issue renews its lease
    return result;
  },
});
