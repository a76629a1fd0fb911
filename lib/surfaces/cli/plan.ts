import { resolve } from "node:path";
import { READ_VERBS } from "./read-verbs";
import { WRITE_VERBS } from "./write-verbs";
import { ASK_VERBS } from "./ask-verbs";
import type { Verb } from "./verb";
import { CapabilityError } from "../../plan/errors";
import { ISSUE_STATUSES } from "../../plan/constants";
import { COCKPIT_VERSION } from "../../version";
import { UsageError, optionForm, parseArgs, type VerbDoc } from "./args";
import { EXIT } from "../exit-codes";
import { DATABASE_ENV } from "../../config";
import { closeDatabases } from "../../coordination/database";
import type { Io } from "./io";
import { runUsersCommand } from "./users";
import { escapeForTerminal } from "./terminal-text";
import { fitLines, fitMessage, helpList, terminalWidth } from "./terminal-width";
import { nearest } from "../../plan/nearest";
import { asksForHelp } from "./command-help";
import { ownValue } from "../../plan/own";
import { SERVE_USAGE_LINE } from "../../server/serve-options";
import { asksForJson, reportFailure, type Failure } from "./failure";
import { repoFolderProblem } from "../../repo/repo-folder";

export { EXIT };
export type { Io };

// The plan verbs: read-verbs.ts and write-verbs.ts declare them (verb.ts is what a verb is).

const VERBS: Record<string, Verb> = { ...READ_VERBS, ...WRITE_VERBS, ...ASK_VERBS };

/** The plan verbs as data, in the order `usage()` lists them (and docs/cli.md, made by `npm run docs`). */
export function planVerbs(): VerbDoc[] {
  return Object.entries(VERBS).map(([verb, d]) => ({ verb, args: d.usage ?? (d.takesId ? "ID" : ""), summary: d.summary, options: d.options }));
}

export function usage(width = terminalWidth()): string {
  // The verb's words keep at most a third of the line; its summary wraps in the rest.
  const verbs = planVerbs().map((v) => [`cockpit plan ${v.verb}${v.args ? ` ${v.args}` : ""}`, v.summary] as const);
  return fitLines([
    "usage: cockpit plan <verb> [--repo DIR] [--json] [options] [ID]",
    "",
    helpList(verbs, width),
    "",
    "--repo defaults to the current folder; --json prints the capability's output as one JSON document.",
    "--at REV answers a read from a git revision (sha, branch, tag, HEAD~3) or a date/ISO time, read from git's objects.",
    `--database URL (or ${DATABASE_ENV}) coordinates clones through a shared PostgreSQL: leases on issues, and the execution plans (cockpit plans).`,
    `statuses: ${ISSUE_STATUSES.join(", ")}`,
    "exit codes: 0 ok, 2 usage or invalid input, 10 validate found a failure, 12 no such record, 15 refused, 16 a wait ran out with the ask open",
  ].join("\n"), width);
}

/** `cockpit plan <verb> --help`: the verb's words, what it does and its options, laid out to `width`. */
export function verbUsage(verb: string, width = terminalWidth()): string {
  const v = planVerbs().find((d) => d.verb === verb)!;
  return fitLines(
    [
      `usage: cockpit plan ${verb}${v.args ? ` ${v.args}` : ""} [options]`,
      "",
      v.summary,
      "",
      "options:",
      helpList(Object.entries(v.options).map(([name, kind]) => [optionForm(name, kind), ""] as const), width),
      "",
      "cockpit plan --help lists every verb and what the common options do.",
    ].join("\n"),
    width,
  );
}

/**
 * A capability's message as the command line spells its fields: a field of two words or more that
 * is one of the verb's options (`allow_findings`) is named as the option (`--allow-findings`).
 */
export function spelledAsOptions(message: string, options: Record<string, unknown>): string {
  return message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (field) => {
    const option = field.replace(/_/g, "-");
    return Object.hasOwn(options, option) ? `--${option}` : field;
  });
}

/** Run `cockpit plan <verb> …` and return the exit code. */
export async function runPlanCommand(argv: readonly string[], terminal: Io, cwd = process.cwd()): Promise<number> {
  // Messages name record text (an id, a title): on stderr, and in every answer but --json, escaped.
  // A message wraps to the width where one is known (fitMessage).
  const io: Io = { out: (text) => terminal.out(escapeForTerminal(text)), err: (text) => terminal.err(fitMessage(escapeForTerminal(text), argv.includes("--json"))) };
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
    io.out(usage());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  const json = asksForJson(rest);
  const fail = (failure: Failure) => reportFailure(failure, `cockpit plan ${verb}`, json, { answer: terminal.out, err: io.err });
  const spec = ownValue(VERBS, verb);
  if (!spec) {
    const near = nearest(verb, Object.keys(VERBS));
    return reportFailure({ code: "invalid_input", message: `unknown verb '${verb}'; ${near ? `did you mean ${near}? ` : ""}the verbs are ${Object.keys(VERBS).join(", ")}` }, "cockpit plan", json, { answer: terminal.out, err: io.err });
  }
  if (asksForHelp(rest)) {
    io.out(verbUsage(verb));
    return EXIT.ok;
  }
  try {
    const args = parseArgs(rest, spec.options);
    if (spec.takesId && args.words.length !== 1) {
      throw new UsageError(`cockpit plan ${verb} takes one ID (a milestone or an issue)`);
    }
    if (!spec.takesId && !spec.usage && args.words.length > 0) {
      throw new UsageError(`cockpit plan ${verb} takes no argument, but was given '${args.words[0]}'`);
    }
    const repo = resolve(cwd, args.options.get("repo") ?? ".");
    const problem = repoFolderProblem(repo);
    if (problem) throw new UsageError(problem);
    const result = await spec.run(repo, args);
    if (args.options.has("json")) terminal.out(JSON.stringify(result.value));
    else io.out(spec.raw ? result.text() : fitLines(result.text(), terminalWidth()));
    return result.exit ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) return fail({ code: "invalid_input", message: error.message });
    if (error instanceof CapabilityError) return fail({ code: error.code, message: spelledAsOptions(error.message, spec.options), details: error.details });
    // The process reports it on stderr and exits 13; under --json stdout still carries an error.
    if (json) fail({ code: "internal", message: "internal error; stderr has the details" });
    throw error;
  } finally {
    await closeDatabases();
  }
}

/** The commands `cockpit` runs (bin/cockpit picks the bundle of serve, mcp and plans). */
const COMMANDS = ["plan", "plans", "serve", "mcp", "users", "version"];

/** The `cockpit` command. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "plan") return runPlanCommand(rest, io);
  if (command === "users") return runUsersCommand(rest, io);
  if (command === "--version" || command === "version") {
    io.out(`cockpit ${COCKPIT_VERSION}`);
    return EXIT.ok;
  }
  const width = terminalWidth();
  if (command !== undefined && command !== "help" && command !== "--help" && command !== "-h") {
    const near = nearest(command, COMMANDS);
    io.err(fitMessage(escapeForTerminal(`cockpit: unknown command ${command}; ${near ? `did you mean ${near}? ` : ""}the commands are ${COMMANDS.join(", ")} (cockpit --help)`), false));
    return EXIT.usage;
  }
  io.out([commandsHelp(width), "", usage(width)].join("\n"));
  return EXIT.ok;
}

/** The commands of `cockpit`, each with what it does, as its help lists them. */
const COMMANDS_LIST: readonly (readonly [string, string])[] = [
  ["plan <verb> …", "read and move the plan in a repository (the verbs are below)"],
  ["plans <verb> …", "execution plans: decompose a milestone and run it (cockpit plans help)"],
  [
    SERVE_USAGE_LINE,
    "the browser Cockpit, the HTTP API and MCP over HTTP (cockpit serve --help)",
  ],
  ["mcp [--repo DIR] [--database URL]", "the MCP server over stdio (cockpit mcp --help)"],
  ["users add|set|remove|list [NAME] [--email ADDR] --users FILE", "the people and agents a server knows by name (cockpit users help)"],
  ["--version", "the version"],
];

/** `cockpit`'s commands laid out to `width`: each summary wraps under the summaries' own column. */
export function commandsHelp(width = terminalWidth()): string {
  return ["usage: cockpit <command> …", "", "commands:", helpList(COMMANDS_LIST, width)].join("\n");
}
