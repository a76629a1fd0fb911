import { closeSync, constants, ftruncateSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { writeAll } from "./write";
import { refused } from "../plan/errors";
import { LOCAL_DIR, openStateFile, readStateFile, stateLinkProblem, stateProblem, warnOnce } from "./state-path";

// What a move or an edit needs to be undone: the record's bytes before and after it, kept in the
// clone's own state under the number of the ledger line that wrote it. Undo puts the bytes before
// back only while the file still holds the bytes after, so nothing written since is lost.

export const UNDO_DIR = `${LOCAL_DIR}/state/undo`;
/**
 * The undo store as a state path for requireState: a plain folder, no link, nothing in it tracked
 * by git. A repository may commit an undo file naming any path and any text; every write (a move
 * keeps its undo, an undo reads one) is refused while it does.
 */
export const UNDO_STATE = `${UNDO_DIR}/`;
/** The undo records kept: the newest; an older move can no longer be undone (it is refused as not found). */
export const UNDO_KEPT = 200;

export interface UndoRecord {
  /** The ledger line (its number, from 1) of the move or edit. */
  ledger_id: number;
  event: string;
  record: string;
  kind: "issue" | "milestone";
  /** The record's file, from the repository root. */
  path: string;
  /** Who made it: only they may undo it. */
  by: string;
  /** The file's text before; null when the move created it. */
  before: string | null;
  after: string;
  /** The ledger line of the undo, once undone. */
  undone_by?: number;
  /** The ledger lines of a batch edit this line belongs to (itself among them): undone together. */
  batch?: number[];
}

const fileOf = (ledgerId: number) => `${UNDO_DIR}/${ledgerId}.json`;

/**
 * Keep what undoes one write; a failure to keep it is said on stderr, never fails the move (it is
 * written). A move is refused before it writes while the undo store is a link or tracked (UNDO_STATE
 * is among the state every write requires), and the file is opened without following a link.
 */
export function keepUndo(repo: string, record: UndoRecord): void {
  try {
    writeState(repo, fileOf(record.ledger_id), JSON.stringify(record) + "\n");
    pruneUndo(repo);
  } catch (error) {
    warnOnce(`${repo}\0undo\0${record.ledger_id}`, `${UNDO_DIR}: the undo of ledger line ${record.ledger_id} was not kept (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Whether a parsed undo file has the shape keepUndo writes. */
function isUndoRecord(v: unknown, ledgerId: number): v is UndoRecord {
  const u = v as Partial<UndoRecord> | null;
  return (
    typeof u === "object" &&
    u !== null &&
    u.ledger_id === ledgerId &&
    (u.kind === "issue" || u.kind === "milestone") &&
    [u.event, u.record, u.path, u.by, u.after].every((f) => typeof f === "string") &&
    (u.before === null || typeof u.before === "string") &&
    (u.undone_by === undefined || typeof u.undone_by === "number") &&
    (u.batch === undefined || (Array.isArray(u.batch) && u.batch.length <= 500 && u.batch.includes(ledgerId) && u.batch.every((n) => Number.isSafeInteger(n) && n > 0)))
  );
}

/**
 * What undoes ledger line `ledgerId`, or undefined when none is kept. Refused (naming the path and
 * the fix) while the undo store or the file is a link, not a plain folder or file, or tracked by
 * git: then it is not this clone's own. The file is opened without following a link.
 */
export async function readUndo(repo: string, ledgerId: number): Promise<UndoRecord | undefined> {
  const problem = (await stateProblem(repo, UNDO_STATE)) ?? (await stateProblem(repo, fileOf(ledgerId)));
  if (problem) throw refused(problem);
  const bytes = readStateFile(repo, fileOf(ledgerId));
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return isUndoRecord(value, ledgerId) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Mark ledger line `ledgerId` as undone by line `by`. */
export function markUndone(repo: string, record: UndoRecord, by: number): void {
  writeState(repo, fileOf(record.ledger_id), JSON.stringify({ ...record, undone_by: by }) + "\n");
}

function writeState(repo: string, rel: string, text: string): void {
  const fd = openStateFile(repo, rel, constants.O_WRONLY | constants.O_CREAT, 0o600);
  try {
    ftruncateSync(fd, 0);
    writeAll(fd, Buffer.from(text, "utf8"));
  } finally {
    closeSync(fd);
  }
}

/** Drop the oldest undo records past UNDO_KEPT. */
function pruneUndo(repo: string): void {
  if (stateLinkProblem(repo, `${UNDO_DIR}/0.json`)) return;
  const numbers = readdirSync(join(repo, UNDO_DIR))
    .map((name) => /^([1-9][0-9]{0,15})\.json$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  for (const n of numbers.slice(0, Math.max(0, numbers.length - UNDO_KEPT))) unlinkSync(join(repo, fileOf(n)));
}
