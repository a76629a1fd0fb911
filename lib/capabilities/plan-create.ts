import { idReserver } from "../coordination/record-ids";
import { createRecord } from "../repo/plan-edit";
import { configOf, defineCapability } from "./capability";
import { CreateInput, RecordWriteResultSchema } from "./edit-shapes";

export const planCreateCapability = defineCapability({
  id: "plan.create",
  kind: "command",
  title: "Create an issue or a milestone",
  description:
    "Writes a new record (an issue needs milestone and title; the id is minted in the plan's pattern, the slug made from the title) and answers with what it changes in the derived plan. Refused if it adds a FAIL finding unless allow_findings; dry_run writes nothing.",
  input: CreateInput,
  output: RecordWriteResultSchema,
  handler: (ctx, input) => createRecord(ctx.repo, input, { by: ctx.by, cache: ctx.cache, ids: idReserver(ctx.repo, ctx.plan, configOf(ctx)) }),
});
