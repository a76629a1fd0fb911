// What the moves of transition.ts answer, declared once: the types below are inferred from these
// schemas, and the capabilities (through lib/results/outputs.ts) answer with the same schemas.
import { z } from "zod";
import { PublishedFields } from "./sync-shapes";

/** What one transition did (§6.5): `from` and `to` are both derived, before and after the write. */
export const TransitionResultSchema = z.object({
  issue: z.string(),
  transition: z.enum(["start", "verify", "done"]),
  from: z.string(),
  to: z.string(),
  field: z.string(),
  at: z.string(),
  event: z.string(),
  ledger_id: z.number().int().optional().describe("The move's line in this clone's ledger: cockpit plan undo (POST /api/v1/plan/undo) takes it."),
  next_ready: z.string().optional(),
  ...PublishedFields,
});

export type TransitionResult = z.infer<typeof TransitionResultSchema>;

export const EvidenceResultSchema = z.object({
  record: z.string(),
  covers: z.string(),
  event: z.string(),
  at: z.string(),
  evidence_have: z.number().int(),
  evidence_need: z.number().int(),
  evidence_missing: z.array(z.string()).describe("The required tokens no entry covers yet."),
  ...PublishedFields,
});

export type EvidenceResult = z.infer<typeof EvidenceResultSchema>;
