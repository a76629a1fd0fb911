import { z } from "zod";
import { invalidInput } from "../plan/errors";
import { editRecord } from "../repo/plan-edit";
import { editRecords } from "../repo/plan-edit-batch";
import { defineCapability } from "./capability";
import { BatchWriteResultSchema, EditInput, RecordWriteResultSchema, editTargetProblem } from "./edit-shapes";

export const planEditCapability = defineCapability({
  id: "plan.edit",
  kind: "command",
  title: "Edit a milestone's or an issue's fields",
  description:
    "Set or unset fields, add or remove list entries (depends_on, scope, …), cancel or un-cancel, on one record (id) or many alike (ids: one preview of the whole batch, one write, one undo); answers with what it changes in the derived plan. Refused if it adds a FAIL finding (unless allow_findings) or a version is stale; dry_run writes nothing.",
  input: EditInput,
  output: z.union([RecordWriteResultSchema, BatchWriteResultSchema]),
  handler: (ctx, input) => {
    const problem = editTargetProblem(input);
    if (problem) throw invalidInput(problem);
    const o = { by: ctx.by, cache: ctx.cache };
    if (input.ids !== undefined) {
      const { id: _, ids, if_version: __, ...rest } = input;
      return editRecords(ctx.repo, { ...rest, ids }, o);
    }
    const { ids: _, if_versions: __, ...rest } = input;
    return editRecord(ctx.repo, { ...rest, id: input.id! }, o);
  },
});
