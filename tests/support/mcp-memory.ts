// An MCP client linked in memory to the server over one repository (the SDK's InMemoryTransport):
// the MCP surface in process, for tests whose subject is not the process.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpNames } from "../../lib/capabilities/index";
import { actorFromEnv } from "../../lib/config";
import { createMcpServer } from "../../lib/surfaces/mcp";
import { contextFor } from "../../lib/server/state";

/** As `cockpit mcp --repo REPO` serves it (`names: "reference"` is its `--reference-names`), linked in memory. */
export async function mcpInMemory(repo: string, name = "cockpit-tests", { names = "cockpit" }: { names?: McpNames } = {}): Promise<Client> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const actor = actorFromEnv();
  await createMcpServer(() => contextFor(repo, actor), { names }).connect(server);
  const mcp = new Client({ name, version: "1.0.0" });
  await mcp.connect(client);
  return mcp;
}
