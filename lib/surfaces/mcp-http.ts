import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { capabilities, mcpToolName } from "../capabilities/index";
import { contextFor } from "../server/state";
import { admit, errorResponse, isSameOrigin, settingsFromEnv } from "./http";
import { securityFromEnv } from "../server/security";
import { createMcpServer } from "./mcp";

// A command tool under either name: a request's doors do not depend on which names it asked for.
const COMMAND_TOOLS = new Set(capabilities.filter((c) => c.kind === "command").flatMap((c) => [mcpToolName(c), mcpToolName(c, "reference")]));
const MAX_BODY_BYTES = 1_000_000;

/**
 * Whether a JSON-RPC body (one message or a batch) calls a command tool. Everything else
 * (`initialize`, `tools/list`, `resources/*`, a query tool's call) only reads.
 */
export function callsCommandTool(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const message = m as { method?: unknown; params?: { name?: unknown } } | null;
    return message?.method === "tools/call" && typeof message.params?.name === "string" && COMMAND_TOOLS.has(message.params.name);
  });
}

/**
 * MCP over streamable HTTP at /api/mcp, stateless: each request gets its own server and transport
 * over the same registry. The doors are HTTP's: on loopback reads are open and a command tool
 * needs a caller when a token or users are configured; beyond loopback every request needs one.
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const settings = settingsFromEnv();
  const security = settings.security ?? securityFromEnv();
  if (request.method !== "POST" && request.method !== "DELETE") {
    return errorResponse("method_not_allowed", 405, "MCP here is stateless: POST JSON-RPC messages to /api/mcp", { allow: "POST" });
  }
  if (!isSameOrigin(request, security)) {
    return errorResponse("forbidden", 403, `an MCP request from origin ${request.headers.get("origin")} is refused; MCP clients send no Origin, or this server's own`);
  }
  // The body is read here to see which tools it calls, then handed on as it came.
  const text = request.method === "POST" ? await request.text() : "";
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return errorResponse("too_large", 413, `the body is over ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined; // the transport answers a parse error in JSON-RPC's words
  }
  const { by, user, denied } = await admit(request, security, callsCommandTool(body) ? "command" : "query");
  if (denied) return denied;
  // `/api/mcp?reference_names` serves the reference's tool names (majordomus_plan_next), as `cockpit mcp --reference-names`.
  const names = new URL(request.url).searchParams.has("reference_names") ? "reference" : "cockpit";
  const server = createMcpServer(() => contextFor(settings.repo, by), { names, user, usersFile: Boolean(security.usersFile) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(new Request(request.url, { method: request.method, headers: request.headers, ...(request.method === "POST" ? { body: text } : {}) }));
  } finally {
    void server.close();
  }
}
