import { z } from "zod";
import { PlanDiffSchema as ChangesDiffSchema } from "../plan/history-shapes";
import { PlanFindingSchema } from "../plan/shapes";
import { IdempotencyKeyField } from "./inputs";
import { PublishedFields } from "../repo/sync-shapes";

// Inputs and outputs of plan.create and plan.edit. Field names are checked by the core against
// the allowlists (so the refusal names the fields there are); here only the shape is strict.

const id = (what: string) => z.string().min(1, `${what} is an id, not empty`).max(200, `${what} is at most 200 characters`);
const fieldName = z.string().min(1).max(100);
const entries = z.array(z.string().max(10_000)).min(1).max(100);

const SetFields = z
  .record(fieldName, z.xor([z.string().max(10_000), z.boolean(), z.number()]))
  .describe("Fields to set, by name: { priority: 'p0', cancelled: true }.");
const ListEntries = (what: string) => z.record(fieldName, entries).describe(`Entries to ${what}, by list field: { depends_on: ['I0002'] }.`);

export const EditInput = z.strictObject({
  id: id("The milestone or issue").optional().describe("The milestone or issue to edit."),
  ids: z.array(id("Each record")).min(1, "ids lists at least one record").max(500, "ids lists at most 500 records").optional().describe("Edit these records instead, all alike, all or nothing: one preview of the whole batch, one write, one undo."),
  set: SetFields.optional(),
  unset: z.array(fieldName).max(100).optional().describe("Fields to remove."),
  add: ListEntries("add").optional(),
  remove: ListEntries("remove").optional(),
  if_version: z.string().min(1).max(100).optional().describe("The record's version the edit was made against (the ETag of GET /api/v1/plan/record); a changed record is refused."),
  if_versions: z.record(z.string().min(1).max(200), z.string().min(1).max(100)).optional().describe("With ids: the version of each record, by id."),
  dry_run: z.boolean().optional().describe("Answer with the preview; write nothing."),
  allow_findings: z.boolean().optional().describe("Write even if the change adds FAIL findings."),
  idempotency_key: IdempotencyKeyField.optional(),
});

/** Which records an edit names: exactly one of id and ids, with the version member that goes with it. */
export function editTargetProblem(input: { id?: string; ids?: string[]; if_version?: string; if_versions?: Record<string, string> }): string | undefined {
  if ((input.id === undefined) === (input.ids === undefined)) return "give id (one record) or ids (a batch), not both and not neither";
  if (input.ids !== undefined && input.if_version !== undefined) return "a batch takes if_versions (a version by id), not if_version";
  if (input.id !== undefined && input.if_versions !== undefined) return "one record takes if_version, not if_versions";
  return undefined;
}

export const CreateInput = z.strictObject({
  kind: z.enum(["issue", "milestone"]),
  id: id("The new record").optional().describe("The new record's id; minted in the plan's own pattern when absent."),
  title: z.string().min(1, "a new record has a title").max(10_000),
  milestone: id("The milestone").optional().describe("The milestone of a new issue (required for an issue)."),
  set: SetFields.optional(),
  add: ListEntries("write").optional(),
  dry_run: z.boolean().optional().describe("Answer with the preview; write nothing."),
  allow_findings: z.boolean().optional().describe("Write even if the record adds FAIL findings."),
  idempotency_key: IdempotencyKeyField.optional(),
});

/**
 * What an edit changes in the derived plan: plan.changes's own members (issues, milestones,
 * findings {new, resolved}, next, roadmap), one schema for both, and the preview's own two.
 */
export const PlanDiffSchema = ChangesDiffSchema.extend({
  scope_conflicts: z.array(PlanFindingSchema).describe("The scope conflicts among the new findings."),
  is_empty: z.boolean().describe("Whether nothing derived changes."),
});

export const RecordWriteResultSchema = z.object({
  id: z.string(),
  kind: z.enum(["issue", "milestone"]),
  action: z.enum(["created", "edited"]),
  path: z.string(),
  dry_run: z.boolean(),
  written: z.boolean(),
  refused: z.string().optional(),
  fail_findings: z.array(PlanFindingSchema),
  previous_version: z.string().optional(),
  version: z.string(),
  preview: PlanDiffSchema,
  fields: z
    .array(z.object({ field: z.string(), from: z.string(), to: z.string() }))
    .describe("What the change does to the record itself, field by field, old → new (\"\" when absent)."),
  changes: z.array(z.string()),
  event: z.string().optional(),
  at: z.string().optional(),
  ledger_id: z.number().int().optional().describe("The write's line in this clone's ledger: cockpit plan undo (POST /api/v1/plan/undo) takes it."),
  ...PublishedFields,
});

export const BatchWriteResultSchema = z.object({
  ids: z.array(z.string()),
  action: z.literal("edited"),
  dry_run: z.boolean(),
  written: z.boolean(),
  refused: z.string().optional(),
  fail_findings: z.array(PlanFindingSchema),
  preview: PlanDiffSchema.describe("What the whole batch does to the derived plan."),
  records: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["issue", "milestone"]),
      path: z.string(),
      previous_version: z.string(),
      version: z.string(),
      fields: z.array(z.object({ field: z.string(), from: z.string(), to: z.string() })),
      ledger_id: z.number().int().optional(),
    }),
  ),
  changes: z.array(z.string()),
  event: z.literal("plan_record_edited").optional(),
  at: z.string().optional(),
  ledger_ids: z.array(z.number().int()).optional().describe("One ledger line per record: cockpit plan undo of any one undoes the whole batch."),
  ...PublishedFields,
});

export const CommitInput = z.strictObject({
  message: z.string().min(1).max(500).optional().describe("The first line of the commit message (default: what changed, in words)."),
  push: z.boolean().optional().describe("Push when a remote is configured (default true)."),
  pull_rebase: z.boolean().optional().describe("When the push is behind: git pull --rebase, then push (a conflict is shown and undone)."),
  dry_run: z.boolean().optional().describe("List the uncommitted record changes; commit nothing."),
});

const PendingEventSchema = z.object({ ts: z.string(), event: z.string(), by: z.string(), summary: z.string() });

export const CommitResultSchema = z.object({
  dry_run: z.boolean(),
  committed: z.boolean(),
  files: z.array(
    z.object({
      path: z.string(),
      status: z.enum(["modified", "added", "deleted"]),
      record: z.string(),
      events: z.array(PendingEventSchema),
    }),
  ),
  count: z.number().int(),
  message: z.string(),
  commit: z.string().optional(),
  author: z.string().optional(),
  push: z
    .object({
      remote: z.string(),
      branch: z.string(),
      status: z.enum(["pushed", "behind", "conflict", "failed"]),
      message: z.string(),
      conflicts: z.array(z.string()).optional(),
    })
    .optional(),
});
