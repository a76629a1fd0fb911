import { editRecord } from "../repo/plan-edit";
import { defineCapability } from "./capability";
import { EditInput, RecordWriteResultSchema } from "./edit-shapes";

export const planEditCapability = defineCapability({
  id: "plan.edit",
  kind: "command",
  title: "Edit a milestone's or an issue's fields",
  description:
    "Set or unset fields, add or remove list entries (depends_on, scope, …), cancel or un-cancel; answers with what it changes in the derived plan. Refused if it adds a FAIL finding (unless allow_findings) or if_version is stale; dry_run writes nothing.",
  input: EditInput,
  output: RecordWriteResultSchema,
  handler: (ctx, input) => editRecord(ctx.repo, input, { by: ctx.by, cache: ctx.cache }),
});
