// Record values are text: no NUL, DEL, C1 or C0 control but tab, and a newline only in prose.
// A value is refused at the door, so nothing downstream (a commit message, a terminal, a page)
// meets one; text that came in by hand is escaped where it leaves (`\x00`).

/** Controls a value never holds: C0 but tab and newline, DEL, C1. */
const NEVER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Why `value` cannot be written to `field`, naming the character; undefined when it can. */
export function controlProblem(field: string, value: string, prose: boolean): string | undefined {
  const at = value.search(NEVER);
  if (at >= 0) {
    const code = value.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0");
    return `${field} holds the control character U+${code} (character ${at + 1}); a record value is text: remove it (tab is the only control allowed${prose ? ", and newline" : ""})`;
  }
  if (!prose) {
    const bidi = bidiProblem(field, value);
    if (bidi) return bidi;
  }
  if (!prose && value.includes("\n")) {
    return `${field} is one line: remove the newline (character ${value.indexOf("\n") + 1}); only prose fields such as objective, problem and why hold several lines`;
  }
  return undefined;
}

/** Text with every control but tab and newline shown as `\xNN`, so it reads as it was written. */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** The bidirectional controls and the line and paragraph separators, by name: each reorders or breaks a line as shown. */
const BIDI_NAMES = new Map([
  ["\u061c", "Arabic letter mark"],
  ["\u200e", "left-to-right mark"],
  ["\u200f", "right-to-left mark"],
  ["\u202a", "left-to-right embedding"],
  ["\u202b", "right-to-left embedding"],
  ["\u202c", "pop directional formatting"],
  ["\u202d", "left-to-right override"],
  ["\u202e", "right-to-left override"],
  ["\u2066", "left-to-right isolate"],
  ["\u2067", "right-to-left isolate"],
  ["\u2068", "first strong isolate"],
  ["\u2069", "pop directional isolate"],
  ["\u2028", "line separator"],
  ["\u2029", "paragraph separator"],
]);

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const BIDI_ALL = new RegExp(BIDI.source, "g");

const codeOf = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** Why a one-line `value` cannot be written to `field` (a bidirectional control or a separator, named); undefined when it can. */
export function bidiProblem(field: string, value: string): string | undefined {
  const at = value.search(BIDI);
  if (at < 0) return undefined;
  const c = value[at];
  return `${field} contains ${codeOf(c)} (${BIDI_NAMES.get(c)}) at character ${at + 1}; a one-line value may not hold a bidirectional control or a line or paragraph separator, which reorder or break what a person reads: remove it`;
}

/** Text with every bidirectional control and separator shown as a visible mark (`⟨U+202E⟩`), for a value written by hand. */
export function showBidi(text: string): string {
  return text.replace(BIDI_ALL, (c) => `\u27e8${codeOf(c)}\u27e9`);
}
