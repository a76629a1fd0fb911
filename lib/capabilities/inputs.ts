import { z } from "zod";
import { ISSUE_STATUSES } from "../plan/constants";

// Input shapes shared by several capabilities. Strict objects: a misspelt field is refused, never
// silently dropped.

const id = (what: string) =>
  z
    .string()
    .min(1, `${what} is an id, not empty`)
    .max(200, `${what} is at most 200 characters`)
    .describe(`${what} id, as its file is named`);

export const EmptyInput = z.strictObject({});

export const MilestoneFilterInput = z.strictObject({
  milestone: z.string().max(200).optional().describe("Only this milestone (next: start here, then widen)."),
});

export const IssueFilterInput = z.strictObject({
  milestone: z.string().max(200).optional().describe("Only issues of this milestone."),
  status: z
    .string()
    .max(40)
    .optional()
    .describe(`Only issues in this derived status: ${ISSUE_STATUSES.join(", ")}.`),
  wave: z.number().int().min(0).max(4294967295).optional().describe("Only issues in this wave."),
});

export const RecordInput = z.strictObject({ id: id("A milestone or issue") });

export const TransitionInput = z.strictObject({
  issue: id("The issue"),
  transition: z.enum(["start", "verify", "done"]).describe("start, verify or done."),
});

export const EvidenceInput = z
  .strictObject({
    record: id("The issue or milestone"),
    covers: z.string().min(1).max(200).describe("The required evidence token this proves."),
    type: z.enum(["test", "build", "ci", "artifact", "manual"]),
    command: z.string().min(1).max(10_000).optional().describe("The command that proves it."),
    artifact: z.string().min(1).max(10_000).optional().describe("The artifact it produced."),
    result: z.string().max(10_000).optional().describe("What the command or artifact showed."),
  })
  .refine((v) => v.command !== undefined || v.artifact !== undefined, {
    message: "give command or artifact: narrative is not evidence",
  })
  .refine((v) => !(v.command !== undefined && v.artifact !== undefined), {
    message: "give command or artifact, not both",
  });

export const ClaimInput = z.strictObject({
  milestone: z.string().min(1).max(200).optional().describe("Only issues of this milestone (no widening)."),
});

export const ReleaseInput = z.strictObject({
  issue: id("The issue"),
  force: z.boolean().optional().describe("End the lease whoever holds it (a lead clearing a crashed holder)."),
});
