import { COORDINATION_EVENTS } from "../plan/events";
import { lstatSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { conflict, notFound, refused } from "../plan/errors";
import { derivePlan } from "../plan/derive";
import { appendLedger, checkEvent, envelope, readLedger } from "./ledger";
import { loadRecords } from "./load";
import type { Plan } from "../plan/shapes";
import { by, locked, stampNow, type WriteOptions } from "./transition";
import { readRecordText } from "./load";
import { idProblem, journalWrite, refuseFolderOutside, writeFileAtomic } from "./write";
import { ISSUES_DIR, MILESTONES_DIR } from "../plan/constants";
import { markUndone, readUndo, UNDO_DIR, UNDO_KEPT, type UndoRecord } from "./undo-store";

/** What one undo did: the record's file holds its bytes from before the move again. */
export interface UndoResult {
  record: string;
  /** The ledger line undone. */
  undoes: number;
  /** Its event (plan_start, plan_record_edited, …). */
  undone: string;
  /** The record's derived status before and after the undo ("" for a record the undo removes). */
  from: string;
  to: string;
  event: "plan_undo";
  at: string;
  ledger_id: number;
  /** A batch edit's undo: every record it put back (the one asked among them). */
  batch?: { record: string; undoes: number; from: string; to: string; ledger_id: number }[];
}

const statusIn = (plan: Plan, id: string) => plan.issues.find((i) => i.id === id)?.status ?? plan.milestones.find((m) => m.id === id)?.status ?? "";

/**
 * Refuses an undo record that names any file but its record's own: `<records folder>/<id>.yaml`
 * with an id that names a file of that folder. The store is the clone's own, yet its bytes are
 * data: a path that leaves the records folder is never written.
 */
function checkUndoPath(u: UndoRecord): void {
  const folder = u.kind === "issue" ? ISSUES_DIR : MILESTONES_DIR;
  const problem = idProblem(u.record);
  if (problem === undefined && u.path === `${folder}/${u.record}.yaml`) return;
  const shown = (s: string) => JSON.stringify(s.replace(/[\x00-\x1f\x7f-\x9f]/g, "?").slice(0, 200));
  throw refused(
    `${UNDO_DIR}/${u.ledger_id}.json names the file ${shown(u.path)}, not the record file of ${u.kind} ${shown(u.record)}${problem ? ` (${problem})` : ""}, so the Cockpit does not write it; remove ${UNDO_DIR}/${u.ledger_id}.json and edit the record instead`,
  );
}

/** The file's text now, or null when there is no file. */
function textNow(repo: string, u: UndoRecord): string | null {
  refuseFolderOutside(repo, dirname(u.path));
  const read = readRecordText(join(repo, u.path), repo);
  if (read === undefined) return null;
  if ("refused" in read) throw refused(read.refused);
  return read.text;
}

/** The ledger lines about the record written after line `after`, in words; the newest last. */
function changesSince(repo: string, u: UndoRecord): string[] {
  const out: string[] = [];
  readLedger(repo).entries.forEach((line, i) => {
    const n = i + 1; // lines that are not JSON are rare; a count that drifts only names the change less well
    if (n <= u.ledger_id) return;
    if (line.record !== u.record && line.issue !== u.record) return;
    // A session's or an ask's line changes no record's bytes.
    if (typeof line.event === "string" && COORDINATION_EVENTS.has(line.event)) return;
    out.push(`${String(line.event)} by ${String(line.by)} at ${String(line.ts)}`);
  });
  return out;
}

/**
 * What undoing ledger line `ledgerId` puts back: its undo record, or every one of its batch (a
 * batch edit is undone whole), each checked to name its record's own file. Undefined when the
 * line's undo is not kept.
 */
async function undoGroup(repo: string, ledgerId: number): Promise<UndoRecord[] | undefined> {
  const u = await readUndo(repo, ledgerId);
  if (!u) return undefined;
  checkUndoPath(u);
  if (!u.batch) return [u];
  const group: UndoRecord[] = [];
  for (const n of u.batch) {
    const m = n === ledgerId ? u : await readUndo(repo, n);
    if (!m) throw notFound(`ledger line ${ledgerId} is one of a batch edit of ${u.batch.length} records, and this clone no longer keeps the undo of line ${n}; edit the records instead`);
    checkUndoPath(m);
    if (m.batch?.join() !== u.batch.join()) throw refused(`${UNDO_DIR}/${n}.json is not of the batch of ledger line ${ledgerId}; remove it and edit the records instead`);
    group.push(m);
  }
  return group;
}

/** Why one undo record cannot be put back now (its author aside), or undefined when it can. */
function changedSince(repo: string, u: UndoRecord): string | undefined {
  const now = textNow(repo, u);
  if (now === u.after) return undefined;
  const since = changesSince(repo, u);
  return `${u.record} changed since${since.length ? `: ${since.join("; ")}` : now === null ? ": its file is gone" : ": its file was changed outside the Cockpit"}`;
}

/** Whether ledger line `ledgerId` can be undone now (its author aside, which plan.undo checks), and if not, why. */
export async function undoState(repo: string, ledgerId: number): Promise<{ possible: boolean; why: string | null }> {
  let group: UndoRecord[] | undefined;
  try {
    group = await undoGroup(repo, ledgerId);
  } catch (error) {
    return { possible: false, why: error instanceof Error ? error.message : String(error) };
  }
  if (!group) return { possible: false, why: `this clone keeps no undo of it (it keeps the last ${UNDO_KEPT} moves and edits)` };
  for (const u of group) {
    if (u.undone_by !== undefined) return { possible: false, why: `undone by ledger line ${u.undone_by}` };
    let why: string | undefined;
    try {
      why = changedSince(repo, u);
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
    if (why) return { possible: false, why };
  }
  return { possible: true, why: null };
}

/**
 * Undo one move or edit (plan.undo): only its author, only while the record's file still holds
 * the bytes the move wrote. The file gets its bytes from before back exactly (`updated_at` too),
 * and a `plan_undo` line names the line undone. A line of a batch edit undoes the whole batch,
 * all or nothing. A refusal writes nothing.
 */
export async function undoMove(repo: string, ledgerId: number, o: WriteOptions = {}): Promise<UndoResult> {
  const who = by(o);
  return locked(repo, o, async () => {
    const group = await undoGroup(repo, ledgerId);
    if (!group) {
      throw notFound(`ledger line ${ledgerId} is no move or edit this clone can undo (it keeps the last ${UNDO_KEPT}); cockpit plan history ID lists a record's moves`);
    }
    const asked = group.find((u) => u.ledger_id === ledgerId)!;
    const ofBatch = group.length > 1 ? ` (of a batch edit of ${group.length} records)` : "";
    for (const u of group) {
      if (u.undone_by !== undefined) throw conflict(`ledger line ${u.ledger_id} (${u.event} of ${u.record})${ofBatch} is already undone, by ledger line ${u.undone_by}`, { record: u.record });
      if (u.by !== who) throw refused(`ledger line ${u.ledger_id} (${u.event} of ${u.record})${ofBatch} was made by ${u.by}; only they may undo it`);
      const why = changedSince(repo, u);
      if (why) throw conflict(`${why.replace(" changed since", ` changed since ledger line ${u.ledger_id} (${u.event})${ofBatch}`)}; undo the later change first, or edit the record`, { record: u.record });
    }
    const before = derivePlan(loadRecords(repo, o.cache));
    const at = (o.now ?? stampNow)();
    const env = await envelope(repo, at, who);
    const lines = group.map((u) => {
      const payload = { record: u.record, undoes: String(u.ledger_id), undone: u.event };
      checkEvent("plan_undo", payload);
      return { ...env, event: "plan_undo", payload };
    });
    for (const u of group) {
      const abs = join(repo, u.path);
      if (u.before === null) {
        journalWrite(abs);
        if (lstatSync(abs).isFile()) unlinkSync(abs);
      } else {
        writeFileAtomic(abs, u.before);
      }
      o.written?.(abs);
    }
    let last: number;
    try {
      last = appendLedger(repo, lines);
    } catch (error) {
      throw refused(`the record was restored but its ledger line was not (${error instanceof Error ? error.message : String(error)})`);
    }
    const lineOf = (i: number) => last - group.length + 1 + i;
    group.forEach((u, i) => markUndone(repo, u, lineOf(i)));
    const after = derivePlan(loadRecords(repo, o.cache));
    const i = group.indexOf(asked);
    const result: UndoResult = { record: asked.record, undoes: ledgerId, undone: asked.event, from: statusIn(before, asked.record), to: statusIn(after, asked.record), event: "plan_undo", at, ledger_id: lineOf(i) };
    if (group.length === 1) return result;
    return { ...result, batch: group.map((u, k) => ({ record: u.record, undoes: u.ledger_id, from: statusIn(before, u.record), to: statusIn(after, u.record), ledger_id: lineOf(k) })) };
  });
}
