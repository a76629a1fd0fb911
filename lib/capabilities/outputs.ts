import { z } from "zod";

// Outputs of the writing capabilities (the read outputs are the plan's own shapes).

export const TransitionResultSchema = z.object({
  issue: z.string(),
  transition: z.enum(["start", "verify", "done"]),
  from: z.string(),
  to: z.string(),
  field: z.string(),
  at: z.string(),
  event: z.string(),
  next_ready: z.string().optional(),
});

export const EvidenceResultSchema = z.object({
  record: z.string(),
  covers: z.string(),
  event: z.string(),
  at: z.string(),
  evidence_have: z.number().int(),
  evidence_need: z.number().int(),
});
