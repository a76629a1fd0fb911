import { z } from "zod";

// The serialised shapes of the time answers: field order is the order written here.

export const RevisionSchema = z.object({
  rev: z.string(),
  commit: z.string().nullable(),
  committed_at: z.string().nullable(),
});

export type RevisionInfo = z.infer<typeof RevisionSchema>;
