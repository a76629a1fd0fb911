import { conflict, invalidInput, refused } from "../plan/errors";
import { SCHEMA_ORDER, type EditableKind } from "../plan/edit-fields";
import { derivePlan } from "../plan/derive";
import { diffPlans, type PlanDiff } from "../plan/plan-diff";
import { fieldChanges, type FieldChange } from "../plan/field-changes";
import { recordVersion, recordsWithText } from "../plan/records-with";
import type { PlanFinding } from "../plan/shapes";
import { appendLedger, checkEvent, envelope, type LedgerLine } from "./ledger";
import { loadRecords } from "./load";
import { applyEdits, checkId, describeFindings, fieldEdits, findRecordFile, folderOf, underLock, type EditOptions, type FieldChanges } from "./plan-edit";
import { by, stampNow } from "./transition";
import { keepUndo } from "./undo-store";
import { writeFileAtomic } from "./write";

// One edit of many records (plan.edit with `ids`): the same changes applied to every record, one
// preview of the derived effect of the whole batch, all or nothing. Written under one hold of the
// plan lock, with a ledger line per record appended in one write; the undo of any of its lines
// puts every record of the batch back (lib/repo/undo.ts).

/** The most records one batch edits. */
export const BATCH_MAX = 500;

export interface BatchEditRequest extends FieldChanges {
  ids: string[];
  /** The versions the edit was made against, by id: a record that changed since is refused. */
  if_versions?: Record<string, string>;
  dry_run?: boolean;
  allow_findings?: boolean;
}

/** What the batch does to one of its records. */
export interface BatchRecordChange {
  id: string;
  kind: EditableKind;
  path: string;
  previous_version: string;
  version: string;
  fields: FieldChange[];
  ledger_id?: number;
}

export interface BatchWriteResult {
  ids: string[];
  action: "edited";
  dry_run: boolean;
  written: boolean;
  refused?: string;
  fail_findings: PlanFinding[];
  /** What the whole batch does to the derived plan. */
  preview: PlanDiff;
  records: BatchRecordChange[];
  /** The changes, in words, as each ledger line lists them. */
  changes: string[];
  event?: "plan_record_edited";
  at?: string;
  /** The batch's ledger lines, one per record in the order of `ids`: plan.undo of any one undoes the batch. */
  ledger_ids?: number[];
}

/** Edit many records at once (plan.edit with ids). A refusal, a stale version or a dry run writes nothing. */
export async function editRecords(repo: string, request: BatchEditRequest, o: EditOptions = {}): Promise<BatchWriteResult> {
  const ids = request.ids;
  if (ids.length === 0) throw invalidInput("ids lists at least one milestone or issue");
  if (ids.length > BATCH_MAX) throw invalidInput(`ids lists at most ${BATCH_MAX} records; edit the rest in another batch`);
  const seen = new Set<string>();
  for (const id of ids) {
    checkId(id);
    if (seen.has(id)) throw invalidInput(`${id} is given twice in ids; give each record once`);
    seen.add(id);
  }
  for (const id of Object.keys(request.if_versions ?? {})) {
    if (!seen.has(id)) throw invalidInput(`if_versions names ${id}, which is not in ids`);
  }
  return underLock(repo, o, request.dry_run === true, async () => {
    const records = loadRecords(repo, o.cache);
    const milestones = new Set(records.milestones.map((m) => m.id));
    const at = (o.now ?? stampNow)();
    let after = records;
    let words: string[] = [];
    const prepared = ids.map((id) => {
      const file = findRecordFile(repo, id);
      const version = recordVersion(file.text);
      const asked = request.if_versions?.[id];
      if (asked !== undefined && asked !== version) {
        throw conflict(`${id} changed since version ${asked}: it is now ${version}; re-apply the edit to the current records`, { id, version });
      }
      let edits;
      try {
        ({ edits, words } = fieldEdits(file.kind, request, milestones));
      } catch (error) {
        if (error instanceof Error && ids.length > 1) error.message = `${id}: ${error.message}`;
        throw error;
      }
      const text = applyEdits(id, file.text, [...edits, { op: "set", field: "updated_at", value: at, plain: true }], file.kind, SCHEMA_ORDER[file.kind]);
      after = recordsWithText(after, file.kind, id, text);
      return { id, kind: file.kind, path: `${folderOf(file.kind)}/${id}.yaml`, absolute: file.path, before: file.text, text };
    });
    const preview = diffPlans(derivePlan(records), derivePlan(after));
    const fail = preview.findings.new.filter((f) => f.level === "FAIL");
    const refusal = fail.length > 0 && !request.allow_findings ? `the batch adds ${fail.length} FAIL finding(s): ${describeFindings(fail)}; fix them or pass allow_findings` : undefined;
    const result: BatchWriteResult = {
      ids,
      action: "edited",
      dry_run: request.dry_run === true,
      written: false,
      ...(refusal ? { refused: refusal } : {}),
      fail_findings: fail,
      preview,
      records: prepared.map((p) => ({ id: p.id, kind: p.kind, path: p.path, previous_version: recordVersion(p.before), version: recordVersion(p.text), fields: fieldChanges(p.before, p.text) })),
      changes: words,
    };
    if (request.dry_run) return result;
    if (refusal) throw refused(refusal);
    const event = "plan_record_edited" as const;
    const env = await envelope(repo, at, by(o)); // asked before the write: git refused, nothing is written
    const lines: LedgerLine[] = prepared.map((p) => ({ ...env, event, payload: { record: p.id, kind: p.kind, changes: words.join("; "), batch: String(ids.length) } }));
    for (const line of lines) checkEvent(line.event, line.payload);
    for (const p of prepared) writeFileAtomic(p.absolute, p.text);
    let last: number;
    try {
      last = appendLedger(repo, lines);
    } catch (error) {
      throw refused(`the records were written but their ledger lines were not (${error instanceof Error ? error.message : String(error)})`);
    }
    const ledgerIds = prepared.map((_, i) => last - prepared.length + 1 + i);
    prepared.forEach((p, i) => keepUndo(repo, { ledger_id: ledgerIds[i], event, record: p.id, kind: p.kind, path: p.path, by: env.by, before: p.before, after: p.text, ...(ids.length > 1 ? { batch: ledgerIds } : {}) }));
    return { ...result, written: true, event, at, ledger_ids: ledgerIds, records: result.records.map((r, i) => ({ ...r, ledger_id: ledgerIds[i] })) };
  });
}
