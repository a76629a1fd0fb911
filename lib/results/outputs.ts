import { z } from "zod";
import { CodeFindingSchema } from "../code/shapes";
import { PublishedFields } from "../repo/sync-shapes";

// Outputs of the writing capabilities (the read outputs are the plan's own shapes).

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

/** A claim's move, with the code findings of the issue it took (commits already working on it). */
export const ClaimResultSchema = TransitionResultSchema.extend({ code_findings: z.array(CodeFindingSchema) });

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

export const ReleaseResultSchema = z.object({
  issue: z.string(),
  /** Whether a lease was ended (false: the issue was not leased). */
  released: z.boolean(),
  /** Whose lease it was. */
  holder: z.string().optional(),
});
