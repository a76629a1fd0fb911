import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, readSync } from "node:fs";
import { openStateFile, readStateFile, warnOnce } from "./state-path";
import { LEDGER_FILE } from "../plan/constants";
import { eventProblem } from "../plan/events";
import { gitWhere } from "./git";
import { writeAll } from "./write";

/** A JSON string as the reference's ledger writes it: `"` `\` `\n` `\r` `\t` escaped, other controls as \u00XX. */
function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c < 0x20) out += "\\u00" + c.toString(16).padStart(2, "0");
    else out += s[i];
  }
  return out + '"';
}

export interface LedgerLine {
  ts: string;
  event: string;
  head: string;
  branch: string;
  by: string;
  payload: Record<string, string>;
}

/** The line's text: keys in the order ts, event, head, branch, by, then the payload's. */
export function formatLedgerLine(line: LedgerLine): string {
  const pairs: [string, string][] = [
    ["ts", line.ts],
    ["event", line.event],
    ["head", line.head],
    ["branch", line.branch],
    ["by", line.by],
    ...Object.entries(line.payload),
  ];
  return "{" + pairs.map(([k, v]) => `${jsonString(k)}:${jsonString(v)}`).join(",") + "}";
}

/** The envelope of a line written now, from real git. */
export async function envelope(repo: string, ts: string, by: string): Promise<Omit<LedgerLine, "event" | "payload">> {
  const { head, branch } = await gitWhere(repo);
  return { ts, head, branch, by };
}

/** Validate a line against the vocabulary; throws with the reason when it does not fit. */
export function checkEvent(event: string, payload: Record<string, string>): void {
  const problem = eventProblem(event, payload);
  if (problem) throw new Error(problem);
}

/**
 * Append one validated line to `.ai/local/state/ledger.jsonl` (created with its folders, never
 * through a link). A line torn by an earlier failure gets its newline first, so the new line is
 * never glued to it; a failed append cuts the file back to its length before, so it leaves no
 * fragment of its own.
 */
export function appendLedger(repo: string, line: LedgerLine | readonly LedgerLine[]): number {
  const lines = Array.isArray(line) ? line : [line as LedgerLine];
  for (const l of lines) checkEvent(l.event, l.payload);
  if (lines.length === 0) return 0;
  const fd = openStateFile(repo, LEDGER_FILE, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT);
  try {
    const before = fstatSync(fd).size;
    const last = Buffer.alloc(1);
    const torn = before > 0 && readSync(fd, last, 0, 1, before - 1) === 1 && last[0] !== 0x0a;
    const bytes = Buffer.from((torn ? "\n" : "") + lines.map((l) => formatLedgerLine(l) + "\n").join(""), "utf8");
    const first = linesBefore(fd, before) + (torn ? 1 : 0) + 1;
    try {
      writeAll(fd, bytes);
      fsyncSync(fd);
      return first + lines.length - 1;
    } catch (error) {
      try {
        ftruncateSync(fd, before);
      } catch {
        /* the error that stopped the append is the one to report */
      }
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}

/** How many lines end in the first `size` bytes of the open ledger: a line's number is its id (`ledger_id`). */
function linesBefore(fd: number, size: number): number {
  const chunk = Buffer.alloc(1 << 16);
  let count = 0;
  for (let at = 0; at < size; ) {
    const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
    if (n <= 0) break;
    for (let i = 0; i < n; i++) if (chunk[i] === 0x0a) count++;
    at += n;
  }
  return count;
}

/** What `readLedger` gives: the lines that are JSON objects, oldest first, and how many were skipped. */
export interface LedgerRead {
  entries: Record<string, unknown>[];
  skipped: number;
  /** Each entry's line number in the file (its ledger_id), when read from the start. */
  lines: number[];
}

/**
 * The ledger's lines from byte `from` (0: all of it), each parsed on its own: a line that is not a
 * JSON object (torn by a failed append, or foreign) is skipped, never joined to the next, with a
 * warning on stderr naming it. A ledger that is a link, or not a regular file, is not read at all
 * (a warning says so): every reader (history, commit messages, the served tail) reads it here.
 */
export function readLedger(repo: string, from = 0): LedgerRead {
  const out: LedgerRead = { entries: [], skipped: 0, lines: [] };
  const bytes = readStateFile(repo, LEDGER_FILE, from);
  if (!bytes) return out;
  for (let start = 0, n = 1; start < bytes.length; n++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    const text = bytes.toString("utf8", start, stop);
    const at = from + start;
    const length = stop - start;
    start = stop + 1;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      out.entries.push(value as Record<string, unknown>);
      out.lines.push(n);
      continue;
    }
    out.skipped++;
    const where = from === 0 ? `line ${n}` : `the line at byte ${at}`;
    warnOnce(`${repo}\0ledger\0${at}\0${length}`, `${LEDGER_FILE}, ${where}, is not a whole JSON line; it is skipped`);
  }
  return out;
}
