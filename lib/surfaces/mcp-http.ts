import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { contextFor } from "./context";
import { errorResponse, guardCommand, settingsFromEnv } from "./http";
import { createMcpServer } from "./mcp";

/**
 * MCP over streamable HTTP at /api/mcp, stateless: each request gets its own server and transport
 * over the same registry. With a token configured, every MCP request carries it.
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const settings = settingsFromEnv();
  if (request.method === "POST") {
    const denied = guardCommand(request, settings);
    if (denied) return denied;
  } else if (request.method !== "DELETE") {
    return errorResponse("method_not_allowed", 405, "MCP here is stateless: POST JSON-RPC messages to /api/mcp", { allow: "POST" });
  }
  const server = createMcpServer(() => contextFor(settings.repo, settings.by));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}
