import { z } from "zod";
import { toPlain } from "../plan/edit";
import { missingEvidence } from "../plan/evidence-coverage";
import { issueFromMap, milestoneFromMap } from "../plan/records";
import { currentVersion } from "../repo/plan-edit";
import { readRecordFileFields } from "../repo/record-file";
import { HandoffSchema } from "../coordination/handoff";

// What plan.record adds to the reference's answer, so one call gives the whole record: its fields
// as its file writes them, and its evidence by name.

export const RecordAsWrittenSchema = z
  .record(z.string(), z.unknown())
  .describe("Every field of the record's file as written (owner, objective, scope, acceptance_criteria, validation, evidence_required, evidence, …).");

export const EvidenceByNameSchema = z
  .object({
    required: z.array(z.string()).describe("The evidence tokens the record requires."),
    covered: z.array(z.string()).describe("The required tokens some evidence entry covers."),
    missing: z.array(z.string()).describe("The required tokens no entry covers yet."),
  })
  .describe("The record's evidence by name.");

export const MoveOptionSchema = z
  .object({
    move: z.enum(["start", "verify", "done"]),
    refusal: z.string().optional().describe("Why the model refuses the move now, in the words the move itself would refuse it with; absent when the move is allowed."),
  })
  .describe("One move of the issue and whether the model allows it now.");

export const AsWrittenMembers = {
  path: z.string().optional().describe("The record's file, relative to the repository."),
  version: z.string().optional().describe("The record's version now: an edit passes it back as if_version."),
  record: RecordAsWrittenSchema.optional(),
  evidence: EvidenceByNameSchema.optional(),
  handoff: HandoffSchema.optional(),
  moves: z.array(MoveOptionSchema).optional().describe("An issue's three moves (start, verify, done), each with the model's refusal when it refuses it now."),
};

/** The record's file and version, its fields as written and its evidence by name; no fields when its file does not parse. */
export function recordAsWritten(
  repo: string,
  kind: "issue" | "milestone",
  id: string,
): { path?: string; version?: string; record?: Record<string, unknown>; evidence?: z.infer<typeof EvidenceByNameSchema> } {
  const file = readRecordFileFields(repo, kind, id);
  const version = currentVersion(repo, id);
  const where = { ...(file ? { path: file.path } : {}), ...(version !== undefined ? { version } : {}) };
  const fields = file?.fields;
  if (!fields) return where;
  const map = new Map(fields);
  const parsed = kind === "issue" ? issueFromMap(id, map) : milestoneFromMap(id, map);
  const missing = missingEvidence(parsed);
  return {
    ...where,
    record: Object.fromEntries(fields.map(([k, v]) => [k, toPlain(v)])),
    evidence: { required: parsed.evidence_required, covered: parsed.evidence_required.filter((t) => !missing.includes(t)), missing },
  };
}
