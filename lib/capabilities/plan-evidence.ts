import { actorOf, afterIssueWrite, guardWrite } from "../coordination/plan-leases";
import { recordEvidence } from "../repo/transition";
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
    const who = actorOf(ctx.by, ctx.kind);
    // Only the holder records evidence on an issue another session holds (milestones have no sessions).
    if (ctx.plan().issues.some((i) => i.id === input.record)) await guardWrite(ctx.repo, ctx.plan, input.record, who, configOf(ctx));
    const result = await recordEvidence(ctx.repo, input, { by: ctx.by, cache: ctx.cache, ...ctx.moves });
    await afterIssueWrite(ctx.repo, ctx.plan, input.record, "evidence", who, configOf(ctx)); // work on an issue renews its lease
    return result;
  },
});
