import { optionForm, type OptionKind } from "./args";
import { helpList, wrapText } from "./terminal-width";

// What `cockpit serve --help` and `cockpit mcp --help` print, from the descriptions of their
// options that docs/cli.md lists too (SERVE_HELP in lib/server/serve.ts, MCP_HELP in mcp-stdio.ts).

/** Markdown read at a terminal: no backticks, a link's text without its target. */
const plain = (text: string) => text.replace(/\[([^\]]+)\]\([^)]+\)/g, "$1").replace(/`/g, "");

/** A command's help: its usage line, what it is, and each option with what it does, laid out to `width`. */
export function commandHelp(usage: string, what: string, options: Record<string, OptionKind>, help: Partial<Record<string, string>>, width: number): string {
  return [
    ...wrapText(usage, width, "  "),
    "",
    ...wrapText(what, width),
    "",
    "options:",
    helpList(
      Object.entries(options).map(([name, kind]) => [optionForm(name, kind), plain(help[name] ?? "")] as const),
      width,
    ),
  ].join("\n");
}

/** Whether the words ask for help (`--help` or `-h` before any `--`). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}
