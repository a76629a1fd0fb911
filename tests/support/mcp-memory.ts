// An MCP client linked in memory to the server over one repository (the SDK's InMemoryTransport):
// the MCP surface in process, for tests whose subject is not the process.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../lib/surfaces/mcp";
import { contextFor } from "../../lib/server/state";

export async function mcpInMemory(repo: string, name = "cockpit-tests"): Promise<Client> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  await createMcpServer(() => contextFor(repo)).connect(server);
  const mcp = new Client({ name, version: "1.0.0" });
  await mcp.connect(client);
  return mcp;
}
