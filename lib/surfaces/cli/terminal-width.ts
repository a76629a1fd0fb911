// How wide the command line's answers may be: COLUMNS when it names a width, else the terminal's,
// else 80. Help, tables and long lines are laid out to it: nothing is padded past it, and a long
// cell wraps inside its column.

export const DEFAULT_WIDTH = 80;
/** Narrower than this, columns cannot be laid out side by side; it is the least we lay out to. */
export const MIN_WIDTH = 40;

export function terminalWidth(env: Record<string, string | undefined> = process.env, stdout: { isTTY?: boolean; columns?: number } = process.stdout): number {
  const asked = env.COLUMNS?.trim();
  if (asked && /^[0-9]{1,5}$/.test(asked) && Number(asked) > 0) return Math.max(MIN_WIDTH, Number(asked));
  if (stdout.isTTY && stdout.columns && stdout.columns > 0) return Math.max(MIN_WIDTH, stdout.columns);
  return DEFAULT_WIDTH;
}

/**
 * A message on stderr, wrapped only where someone reads it at a known width: COLUMNS, or stderr a
 * terminal. Piped to a script or a log (and with --json, whose reader is a program) each message
 * stays one line, as it was written, so a line read back is the whole message.
 */
export function fitMessage(text: string, json: boolean, env: Record<string, string | undefined> = process.env, stderr: { isTTY?: boolean; columns?: number } = process.stderr): string {
  const asked = env.COLUMNS?.trim();
  const known = (!!asked && /^[0-9]{1,5}$/.test(asked) && Number(asked) > 0) || !!stderr.isTTY;
  return json || !known ? text : fitLines(text, terminalWidth(env, stderr));
}

/** Code points, so a wrapped line never splits a character; wide characters count as one. */
const length = (s: string) => [...s].length;

/**
 * One text broken into lines of at most `width` characters: at spaces where it can, inside a
 * word longer than the line where it must. Continuation lines get `indent` before them.
 */
export function wrapText(text: string, width: number, indent = ""): string[] {
  if (length(text) <= width) return [text];
  const room = Math.max(1, width - length(indent));
  const out: string[] = [];
  let line = "";
  let first = true;
  const limit = () => (first ? width : room);
  const push = () => {
    out.push(first ? line : indent + line);
    first = false;
    line = "";
  };
  for (const word of text.split(/(?<= )/)) {
    let rest = word;
    while (length(line) + length(rest.trimEnd()) > limit()) {
      if (line !== "") {
        line = line.trimEnd();
        push();
        continue;
      }
      const chars = [...rest];
      line = chars.slice(0, limit()).join("");
      rest = chars.slice(limit()).join("");
      push();
    }
    line += rest;
  }
  if (line.trimEnd() !== "" || out.length === 0) push();
  return out.map((l) => l.trimEnd());
}

/** Every line of a text kept to `width`, a long one wrapped under its own indentation. */
export function fitLines(text: string, width: number): string {
  return text
    .split("\n")
    .flatMap((l) => wrapText(l, width, /^ */.exec(l)![0] + "  "))
    .join("\n");
}

/**
 * A help listing laid out to `width`: each entry's words on the left, in a column at most a third
 * of the line, its summary wrapped in the rest. Words wider than the column take their own line,
 * and their summary starts on the next, still under the summaries' column.
 */
export function helpList(entries: readonly (readonly [string, string])[], width: number, indent = "  "): string {
  const third = Math.floor(width / 3);
  const fitting = entries.map(([words]) => length(words)).filter((n) => n <= third);
  const left = fitting.length ? Math.max(...fitting) : third;
  const room = Math.max(10, width - length(indent) - left - 2);
  const under = " ".repeat(length(indent) + left + 2);
  return entries
    .flatMap(([words, summary]) => {
      const lines = summary ? wrapText(summary, room) : [];
      if (length(words) <= left) {
        const first = indent + words + " ".repeat(left - length(words)) + (lines.length ? "  " + lines[0] : "");
        return [first.trimEnd(), ...lines.slice(1).map((l) => under + l)];
      }
      return [...wrapText(indent + words, width, indent + "  "), ...lines.map((l) => under + l)];
    })
    .join("\n");
}
