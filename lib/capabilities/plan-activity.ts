import { z } from "zod";
import { summarise } from "../repo/commit";
import { readLedger } from "../repo/ledger";
import { undoState } from "../repo/undo";
import { defineCapability } from "./capability";

// The undo history (docs/undo-and-retries.md#activity): the recent moves and edits of this clone,
// newest first, from its ledger, each with whether plan.undo would put it back now.

/** Ledger lines about asks are the inbox's, not moves or edits. */
const NOT_ACTIVITY = new Set(["plan_ask", "plan_answer", "plan_ask_ended"]);

export const ActivityInput = z.strictObject({
  limit: z.number().int().min(1, "limit must be 1 or more").max(200, "limit is at most 200").optional().describe("At most this many, the newest (default 50)."),
});

export const ActivityResultSchema = z.object({
  entries: z.array(
    z.object({
      ledger_id: z.number().int(),
      at: z.string(),
      event: z.string(),
      record: z.string(),
      by: z.string(),
      summary: z.string(),
      undo: z.object({ possible: z.boolean(), why: z.string().nullable() }).describe("Whether an undo would put it back now (its author alone may undo it), and if not why."),
    }),
  ),
  total: z.number().int().describe("How many moves and edits the ledger holds."),
});

export const planActivityCapability = defineCapability({
  id: "plan.activity",
  kind: "query",
  title: "Recent moves and edits, with what can be undone",
  description: "The recent moves and edits of this clone (its ledger), newest first: who, when, what, and whether an undo (by its ledger_id) would put each back now.",
  input: ActivityInput,
  output: ActivityResultSchema,
  handler: async (ctx, input) => {
    const read = readLedger(ctx.repo);
    const rows = read.entries
      .map((e, i) => ({ e, line: read.lines[i] }))
      .filter(({ e }) => typeof e.event === "string" && !NOT_ACTIVITY.has(e.event) && (typeof e.record === "string" || typeof e.issue === "string"));
    const recent = rows.slice(-(input.limit ?? 50)).reverse();
    const entries = await Promise.all(
      recent.map(async ({ e, line }) => {
        const { ts, event, head: _h, branch: _b, by, session: _s, ...payload } = e as Record<string, string>;
        return {
          ledger_id: line,
          at: String(ts ?? ""),
          event,
          record: String(payload.record ?? payload.issue),
          by: String(by ?? ""),
          summary: summarise(event, payload),
          undo: await undoState(ctx.repo, line),
        };
      }),
    );
    return { entries, total: rows.length };
  },
});
