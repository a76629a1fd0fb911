import { optionForm, type OptionKind, type VerbDoc } from "./args";
import { commandsHelp, planVerbs } from "./plan";
import { plansVerbs } from "./plans";
import { usersUsage } from "./users";
import { SERVE_HELP, SERVE_OPTIONS } from "../../server/serve";
import { MCP_HELP, MCP_OPTIONS } from "../mcp-stdio";
import { EXIT } from "../exit-codes";
import { DATABASE_ENV } from "../../coordination/database";
import { ISSUE_STATUSES } from "../../plan/constants";

// docs/cli.md, made from the verb tables the command parses its arguments with, so the reference
// cannot say what the command does not do. `npm run docs` writes it; tests/docs/generated.test.ts fails
// when the file and the tables differ.

const EXIT_MEANING: Record<keyof typeof EXIT, string> = {
  ok: "the answer was given",
  usage: "usage or invalid input (an unknown verb or option, a `--repo` that does not exist or is a file): the message says what is valid",
  contract: "`validate` found a failure (it still prints everything)",
  missing: "no such record",
  internal: "an internal error (logged on stderr); also a missing `dist/` bundle",
  refused: "refused: a guard, a busy repository, an issue another clone holds, a database that cannot be reached, an edit that adds FAIL findings, a stale `--if-version`, a push that is behind",
  waiting: "`ask --wait` or `wait` ran out of `--timeout` with the ask still open (the answer names it: wait again)",
};

/**
 * The environment variables a person sets, and those `cockpit serve` sets for the app it starts
 * (not to be set by hand). tests/docs/generated.test.ts checks that the code reads exactly these.
 */
export const ENVIRONMENT: Record<string, string> = {
  COCKPIT_TOKEN: "a server's shared bearer token ([security.md](security.md))",
  COCKPIT_USERS: "the users file, when `--users` is not given",
  COCKPIT_DATABASE_URL: "the shared PostgreSQL, when `--database` is not given ([many-machines.md](many-machines.md))",
  COCKPIT_WEBHOOK_SECRET: "the secret a GitHub or GitLab push webhook is checked with on `POST /api/v1/sync` ([team-server.md](team-server.md))",
  COCKPIT_ACTOR: "who acts: the name a command's moves are signed with, when `--as` is not given (else git's `user.name`; [agents.md](agents.md#who-acts))",
  COCKPIT_AUTHOR: "`Name <email>`: the author of `cockpit plan commit`'s commits, when `--author` is not given",
  COCKPIT_DEFAULT_BRANCH: "the branch `cockpit plan code` measures merges on, when `--default-branch` is not given",
  COCKPIT_LOCK_WAIT_MS: "how long a writer waits for the plan lock before it is refused (default 60000)",
  COCKPIT_LEASE_TTL_S: "seconds a session's lease on an issue lives after its last word: a heartbeat, evidence (default 1800)",
  COCKPIT_STALE_AFTER_S: "seconds a session may be silent before plan agents calls it stale (default 300)",
  COCKPIT_SESSION_TTL: "seconds a sign-in lasts (default 43200, 12 hours)",
  COCKPIT_SESSION_SECRET: "the key sign-in cookies are sealed with, 32 characters or more (default: a random one per server, so a restart signs everyone out)",
  COCKPIT_DIST_DIR: "the web app's build folder (default `.next`)",
  COCKPIT_NOTIFY_URLS: "where a server POSTs its events, separated by spaces or commas, when no `--notify-url` is given ([inbox.md](inbox.md#webhooks))",
  COCKPIT_NOTIFY_SECRET: "the key of each event's `X-Cockpit-Signature-256` (HMAC-SHA256 of the body); unset: events go unsigned",
  COCKPIT_ASK_ESCALATE_AFTER_S: "seconds an ask waits before `ask.escalated` is sent, when `--ask-escalate-after` is not given (default 14400)",
  COCKPIT_NOTIFY_INTERVAL_S: "seconds between two looks of the notifier at the plan (default 10)",
};
export const SERVER_SET_ENVIRONMENT = [
  "COCKPIT_REPO",
  "COCKPIT_BIND_HOST",
  "COCKPIT_PORT",
  "COCKPIT_ALLOWED_HOSTS",
  "COCKPIT_TRUST_PROXY",
  "COCKPIT_FRONT_NONCE",
  "COCKPIT_FOLLOW",
  "COCKPIT_FOLLOW_INTERVAL",
] as const;

function optionTable(options: Record<string, OptionKind>, help: Record<string, string>): string[] {
  return [
    "| option | what it does |",
    "| --- | --- |",
    ...Object.entries(options).map(([name, kind]) => `| \`${optionForm(name, kind)}\` | ${cell(help[name])} |`),
  ];
}

/** Markdown of `|`-free table cells: a pipe inside a cell would end it. */
const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The options most verbs of a table take: listed once above it, and a verb without one says so. */
function shared(verbs: readonly VerbDoc[]): string[] {
  const names = [...new Set(verbs.flatMap((v) => Object.keys(v.options)))];
  return names.filter((name) => verbs.filter((v) => name in v.options).length * 2 > verbs.length);
}

function verbTable(command: string, verbs: readonly VerbDoc[]): string[] {
  const common = shared(verbs);
  const kind = (name: string) => verbs.find((v) => name in v.options)!.options[name];
  const lines = [
    `Every verb takes ${common.map((n) => `\`${optionForm(n, kind(n))}\``).join(", ")}, unless its row says otherwise.`,
    "",
    "| verb | what it answers or does | its other options |",
    "| --- | --- | --- |",
  ];
  for (const v of verbs) {
    const options = Object.entries(v.options)
      .filter(([name]) => !common.includes(name))
      .map(([name, kind]) => `\`${optionForm(name, kind)}\``);
    const lacks = common.filter((name) => !(name in v.options)).map((name) => `\`--${name}\``);
    const others = [options.join(" ") || "none", ...(lacks.length ? [`(not ${lacks.join(", ")})`] : [])].join(" ");
    lines.push(`| \`${cell(`${command} ${v.verb}${v.args ? ` ${v.args}` : ""}`)}\` | ${cell(v.summary)} | ${cell(others)} |`);
  }
  return lines;
}

/** The whole of docs/cli.md. */
export function cliReference(): string {
  const lines = [
    "# The `cockpit` command",
    "",
    "<!-- Made by `npm run docs` from the verb tables in lib/surfaces/cli/ (plan.ts, plans.ts, users.ts):",
    "     edit those, not this file. tests/docs/generated.test.ts fails when the two differ. -->",
    "",
    "`npx cockpit` after `npm ci` (the command is bundled into `dist/` by the install). Options and the ID",
    "may come in any order; `--name value` and `--name=value` are the same; `--` ends the options.",
    "",
    "```text",
    // As `cockpit --help` lays it out at 100 columns.
    commandsHelp(100),
    "```",
    "",
    "## cockpit plan",
    "",
    "Reads and moves the plan of the repository in `--repo` (default: the current folder). `--json` prints",
    "exactly the capability's output as one JSON document, the one HTTP and MCP serve; without it, aligned",
    "text for people, with control characters in record text shown escaped (`\\x1b`, a value's newline as `\\n`).",
    "`--at <rev>` answers a read from a git revision or a date ([time.md](time.md)); `--database <url>` (or",
    `\`${DATABASE_ENV}\`) coordinates clones through a shared PostgreSQL ([many-machines.md](many-machines.md)).`,
    `The statuses are ${ISSUE_STATUSES.map((s) => `\`${s}\``).join(", ")} ([plan-semantics.md](plan-semantics.md)).`,
    "",
    ...verbTable("plan", planVerbs()),
    "",
    "Creating and editing records, the preview and committing: [editing.md](editing.md). Importing from",
    "another tool: [import.md](import.md). The code linked to an issue: [code-links.md](code-links.md).",
    "",
    "## cockpit plans",
    "",
    "Execution plans: a milestone decomposed into one child plan per unfinished issue, run wave by wave",
    "([execution-plans.md](execution-plans.md)).",
    "",
    ...verbTable("plans", plansVerbs()),
    "",
    "## cockpit users",
    "",
    "The people and agents a server knows by name ([security.md](security.md)).",
    "",
    "```text",
    usersUsage(100),
    "```",
    "",
    "## cockpit serve",
    "",
    "The browser Cockpit, the HTTP API and MCP over HTTP, for one repository ([http-and-mcp.md](http-and-mcp.md)).",
    "",
    ...optionTable(SERVE_OPTIONS, SERVE_HELP),
    "",
    "## cockpit mcp",
    "",
    "The MCP server over stdio: stdout is the protocol, logs go to stderr.",
    "",
    ...optionTable(MCP_OPTIONS, MCP_HELP),
    "",
    "## Environment",
    "",
    "| variable | what it sets |",
    "| --- | --- |",
    ...Object.entries(ENVIRONMENT).map(([name, what]) => `| \`${name}\` | ${cell(what)} |`),
    "",
    `\`cockpit serve\` also sets ${SERVER_SET_ENVIRONMENT.map((n) => `\`${n}\``).join(", ")} for the app it starts, from its options: set the options, not these.`,
    "",
    "## Exit codes",
    "",
    "| code | meaning |",
    "| --- | --- |",
    ...Object.entries(EXIT).map(([name, code]) => `| ${code} | ${cell(EXIT_MEANING[name as keyof typeof EXIT])} |`),
    "",
    "Under `--json` a command that fails prints the error HTTP and MCP answer, on stdout and nothing on",
    "stderr: `{\"error\": {\"code\", \"message\", …}}`, with `code` one of `invalid_input` (exit 2), `not_found`",
    "(12), `refused` and `conflict` (15), `internal` (13; stderr has the details), and the members HTTP adds",
    "(a conflict's `version` and `record`). Without `--json` the message goes to stderr.",
    "",
  ];
  return lines.join("\n");
}
