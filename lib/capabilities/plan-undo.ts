import { z } from "zod";
import { undoMove } from "../repo/undo";
import { configOf, defineCapability } from "./capability";
import { IdempotencyKeyField } from "./inputs";
import { PublishedFields } from "../repo/sync-shapes";
import { releaseUndoneStarts } from "../coordination/plan-leases";

export const UndoInput = z.strictObject({
  ledger_id: z
    .number({ error: (issue) => (issue.input === undefined ? "ledger_id is required: the ledger line of the move (a move's answer carries it)" : "ledger_id is a line number") })
    .int("ledger_id is a whole number")
    .min(1, "ledger_id is 1 or more")
    .max(2 ** 40, "ledger_id is at most 2^40")
    .describe("The move's or edit's ledger line, as its answer gave it (ledger_id)."),
  idempotency_key: IdempotencyKeyField.optional(),
});

export const UndoResultSchema = z.object({
  record: z.string(),
  undoes: z.number().int(),
  undone: z.string(),
  from: z.string(),
  to: z.string(),
  event: z.literal("plan_undo"),
  at: z.string(),
  ledger_id: z.number().int(),
  batch: z
    .array(z.object({ record: z.string(), undoes: z.number().int(), from: z.string(), to: z.string(), ledger_id: z.number().int() }))
    .optional()
    .describe("A batch edit's undo: every record put back, each with its own plan_undo line."),
  ...PublishedFields,
});

export const planUndoCapability = defineCapability({
  id: "plan.undo",
  kind: "command",
  title: "Undo a move or an edit",
  description:
    "Put a record's file back exactly as it was before one move or edit (its ledger_id); only its author, and refused (409) when the record changed since.",
  input: UndoInput,
  output: UndoResultSchema,
  handler: async (ctx, input) => {
    const result = await undoMove(ctx.repo, input.ledger_id, { by: ctx.by, cache: ctx.cache, ...ctx.moves });
    // A start undone held nothing: its session goes with it.
    if (result.undone === "plan_start") await releaseUndoneStarts(ctx.repo, ctx.plan, [result.record], configOf(ctx));
    return result;
  },
});
