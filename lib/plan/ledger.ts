import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { LEDGER_FILE } from "./constants";
import { eventProblem } from "./events";
import { gitWhere } from "./git";

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

/** Append one validated line to `.ai/local/state/ledger.jsonl` (created with its folders). */
export function appendLedger(repo: string, line: LedgerLine): void {
  checkEvent(line.event, line.payload);
  const path = join(repo, LEDGER_FILE);
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a");
  try {
    appendFileSync(fd, formatLedgerLine(line) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
