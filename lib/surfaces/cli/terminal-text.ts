import { mapStrings } from "../map-strings";
import { ownValue } from "../../plan/own";

// Record text shown to a person at a terminal: a control character in a title or a message must
// not move the cursor, clear the screen or hide the line (ESC sequences, NUL, DEL, C1, and the
// bidirectional overrides that reorder what is shown). JSON output is never passed through here.

// C0 except tab and newline, DEL, C1, the bidirectional marks, embeddings, overrides and isolates,
// and the line and paragraph separators.
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
// In one field, tab and newline are escaped too: a value stays on its line and in its column.
const CONTROL_IN_FIELD = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return ownValue(NAMED, c) ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
}

/** A whole text for the terminal: its own lines and tabs kept, every other control character escaped (`\x1b`). */
export function escapeForTerminal(text: string): string {
  return text.replace(CONTROL_IN_TEXT, escapeOne);
}

/** One value for a table cell or a line of text: newlines and tabs escaped as well (`\n`, `\t`). */
export function escapeField(text: string): string {
  return text.replace(CONTROL_IN_FIELD, escapeOne);
}

/** A capability's answer with every string in it escaped as one field, for a renderer that lays it out. */
export function escapeFields<T>(value: T): T {
  return mapStrings(value, escapeField);
}
