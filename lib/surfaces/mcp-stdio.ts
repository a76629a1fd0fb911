import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { resolve } from "node:path";
import { DATABASE_ENV } from "../coordination/database";
import { startLeaseRenewal } from "../coordination/plan-leases";
import { parseArgs, UsageError, type OptionKind } from "./cli/args";
import { contextFor } from "../server/state";
import { createMcpServer } from "./mcp";

/** The options of `cockpit mcp` (docs/cli.md lists them from here). */
export const MCP_OPTIONS = { repo: "value", database: "value" } as const satisfies Record<string, OptionKind>;

/** `cockpit mcp --repo DIR [--database URL]`: the MCP server over stdio (stdout is the protocol; logs go to stderr). */
export async function runMcpStdio(argv: readonly string[]): Promise<number> {
  let repo: string;
  try {
    const args = parseArgs(argv, MCP_OPTIONS);
    const database = args.options.get("database");
    if (database !== undefined) process.env[DATABASE_ENV] = database;
    if (args.words.length) throw new UsageError(`cockpit mcp takes no argument, but was given '${args.words[0]}'`);
    repo = resolve(args.options.get("repo") ?? ".");
  } catch (error) {
    process.stderr.write(`cockpit mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const server = createMcpServer(() => contextFor(repo));
  await server.connect(new StdioServerTransport());
  const stopRenewal = startLeaseRenewal(repo);
  process.stderr.write(`cockpit mcp: serving ${repo} on stdio\n`);
  return new Promise<number>((done) => {
    server.server.onclose = () => {
      stopRenewal();
      done(0);
    };
  });
}
