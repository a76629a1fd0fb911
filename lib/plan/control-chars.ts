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
  if (!prose && value.includes("\n")) {
    return `${field} is one line: remove the newline (character ${value.indexOf("\n") + 1}); only prose fields such as objective, problem and why hold several lines`;
  }
  return undefined;
}

/** Text with every control but tab and newline shown as `\xNN`, so it reads as it was written. */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
