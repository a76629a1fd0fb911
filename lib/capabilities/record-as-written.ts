import { z } from "zod";
import { toPlain } from "../plan/edit";
import { missingEvidence } from "../plan/evidence-coverage";
import { issueFromMap, milestoneFromMap } from "../plan/records";
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

export const AsWrittenMembers = { record: RecordAsWrittenSchema.optional(), evidence: EvidenceByNameSchema.optional(), handoff: HandoffSchema.optional() };

/** The record's file as written and its evidence by name; nothing when its file does not parse. */
export function recordAsWritten(repo: string, kind: "issue" | "milestone", id: string): { record?: Record<string, unknown>; evidence?: z.infer<typeof EvidenceByNameSchema> } {
  const fields = readRecordFileFields(repo, kind, id)?.fields;
  if (!fields) return {};
  const map = new Map(fields);
  const parsed = kind === "issue" ? issueFromMap(id, map) : milestoneFromMap(id, map);
  const missing = missingEvidence(parsed);
  return {
    record: Object.fromEntries(fields.map(([k, v]) => [k, toPlain(v)])),
    evidence: { required: parsed.evidence_required, covered: parsed.evidence_required.filter((t) => !missing.includes(t)), missing },
  };
}
