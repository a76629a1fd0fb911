import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { contextFor } from "./context";
import { admit, errorResponse, settingsFromEnv } from "./http";
import { securityFromEnv } from "./security";
import { createMcpServer } from "./mcp";

/**
 * MCP over streamable HTTP at /api/mcp, stateless: each request gets its own server and transport
 * over the same registry. With credentials configured, every MCP
 * request carries a token (or a session).
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const settings = settingsFromEnv();
  if (request.method !== "POST" && request.method !== "DELETE") {
    return errorResponse("method_not_allowed", 405, "MCP here is stateless: POST JSON-RPC messages to /api/mcp", { allow: "POST" });
  }
  const { by, denied } = await admit(request, settings.security ?? securityFromEnv(), "command");
  if (denied) return denied;
  const server = createMcpServer(() => contextFor(settings.repo, by));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}
