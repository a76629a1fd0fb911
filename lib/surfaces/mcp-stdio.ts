import { repoFolderProblem } from "../repo/repo-folder";
import type { CockpitConfig } from "../config";
import { asksForHelp, commandHelp } from "./cli/command-help";
import { terminalWidth } from "./cli/terminal-width";
import { configOfArgs } from "./cli/args";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { resolve } from "node:path";
import { parseArgs, UsageError, type OptionKind } from "./cli/args";
import { contextFor } from "../server/state";
import { createMcpServer } from "./mcp";
import { actorNameProblem } from "../repo/identity";
import { actorFromEnv } from "../config";
import type { McpNames } from "../capabilities/index";

/** The options of `cockpit mcp` (docs/cli.md lists them from here). */
export const MCP_OPTIONS = { repo: "value", database: "value", "lease-ttl": "value", "stale-after": "value", "reference-names": "flag" } as const satisfies Record<string, OptionKind>;

/**
 * A line that is not JSON is answered -32700 (parse error), one that is JSON but no JSON-RPC
 * message -32600 (invalid request), with id null as JSON-RPC says; the SDK only reports them.
 */
function answerUnreadableLines(transport: StdioServerTransport): void {
  const reported = transport.onerror;
  transport.onerror = (error) => {
    const parse = error instanceof SyntaxError;
    const invalid = !parse && Array.isArray((error as { issues?: unknown }).issues);
    if (parse || invalid) {
      const message = parse ? `parse error: the line is not JSON (${error.message})` : "invalid request: the line is JSON but no JSON-RPC 2.0 message";
      void transport.send({ jsonrpc: "2.0", id: null, error: { code: parse ? -32700 : -32600, message } } as never).catch(() => undefined);
    }
    reported?.(error);
  };
}

/** `cockpit mcp --repo DIR [--database URL]`: the MCP server over stdio (stdout is the protocol; logs go to stderr). */
/** What each option of `cockpit mcp` does (its --help and docs/cli.md). */
export const MCP_HELP: Record<keyof typeof MCP_OPTIONS, string> = {
  repo: "the repository to serve (default: the current folder)",
  database: "the shared PostgreSQL (default: `COCKPIT_DATABASE_URL`)",
  "lease-ttl": "seconds a session's lease lives after its last word (default: `COCKPIT_LEASE_TTL_S`, else 1800)",
  "stale-after": "seconds a session may be silent before it is stale (default: `COCKPIT_STALE_AFTER_S`, else 300)",
  "reference-names": "name the tools as the reference does (`majordomus_plan_next`, not `plan_next`), for clients written for it",
};

export async function runMcpStdio(argv: readonly string[]): Promise<number> {
  if (asksForHelp(argv)) {
    process.stdout.write(commandHelp("usage: cockpit mcp [options]", "The MCP server over stdio: stdout is the protocol, logs go to stderr.", MCP_OPTIONS, MCP_HELP, terminalWidth()) + "\n");
    return 0;
  }
  let repo: string;
  let config: CockpitConfig;
  // Who acts: COCKPIT_ACTOR when whoever started this server named it, else the client (lib/surfaces/mcp.ts).
  let actor: string | undefined;
  let names: McpNames = "cockpit";
  try {
    const args = parseArgs(argv, MCP_OPTIONS);
    config = configOfArgs(args);
    if (args.words.length) throw new UsageError(`cockpit mcp takes no argument, but was given '${args.words[0]}'`);
    repo = resolve(args.options.get("repo") ?? ".");
    const problem = repoFolderProblem(repo);
    if (problem) throw new UsageError(problem);
    actor = actorFromEnv();
    if (args.options.has("reference-names")) names = "reference";
    const badName = actor === undefined ? undefined : actorNameProblem(actor, "COCKPIT_ACTOR");
    if (badName) throw new UsageError(badName);
  } catch (error) {
    process.stderr.write(`cockpit mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const server = createMcpServer(() => contextFor(repo, actor, config), { names });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  answerUnreadableLines(transport);
  process.stderr.write(`cockpit mcp: serving ${repo} on stdio\n`);
  return new Promise<number>((done) => {
    server.server.onclose = () => {
      done(0);
    };
  });
}
