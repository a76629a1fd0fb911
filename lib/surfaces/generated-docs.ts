import { withCapabilityTable } from "./capability-table";
import { cliReference } from "./cli/reference";

/**
 * The pages of docs/ made from the declarations, by path: the whole CLI reference, and the HTTP
 * and MCP page with its capability table made again. `read` gives a page as it is now.
 */
export function generatedDocs(read: (path: string) => string): Record<string, string> {
  return {
    "docs/cli.md": cliReference(),
    "docs/http-and-mcp.md": withCapabilityTable(read("docs/http-and-mcp.md")),
  };
}
