import { z } from "zod";
import { CodeFindingSchema } from "../code/shapes";
import { EvidenceResultSchema, TransitionResultSchema } from "../repo/move-shapes";

// Outputs of the writing capabilities (the read outputs are the plan's own shapes). A move's and an
// evidence entry's answers are declared by the moves themselves (lib/repo/move-shapes.ts).

export { EvidenceResultSchema, TransitionResultSchema };

/** A claim's move, with the code findings of the issue it took (commits already working on it). */
export const ClaimResultSchema = TransitionResultSchema.extend({ code_findings: z.array(CodeFindingSchema) });

export const ReleaseResultSchema = z.object({
  issue: z.string(),
  /** Whether a lease was ended (false: the issue was not leased). */
  released: z.boolean(),
  /** Whose lease it was. */
  holder: z.string().optional(),
});
