import { afterIssueWrite } from "../coordination/plan-leases";
import { recordEvidence } from "../repo/transition";
import { configOf, defineCapability } from "./capability";
import { EvidenceInput } from "./inputs";
import { EvidenceResultSchema } from "../repo/move-shapes";

export const planEvidenceCapability = defineCapability({
  id: "plan.evidence",
  kind: "command",
  title: "Record evidence on an issue or a milestone",
  description:
    "Append an evidence entry covering one required token, proved by a command or an artifact. Refused when the record does not require that token.",
  input: EvidenceInput,
  output: EvidenceResultSchema,
  handler: async (ctx, input) => {
    const result = await recordEvidence(ctx.repo, input, { by: ctx.by, cache: ctx.cache, ...ctx.moves });
    await afterIssueWrite(ctx.repo, ctx.plan, input.record, "evidence", configOf(ctx)); // work on an issue renews its lease
    return result;
  },
});
