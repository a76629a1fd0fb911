import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AnyCapability, CapabilityContext } from "../capabilities/capability";
import { capabilities, mcpToolName, planResourceUri, type McpNames } from "../capabilities/index";
import { randomBytes } from "node:crypto";
import { actorNameProblem, claimedActorRefusal, clientSessionName } from "../repo/identity";
import { COCKPIT_VERSION } from "../version";
import { invoke } from "./invoke";
import { describeInputError } from "../plan/input-words";
import { mcpTools } from "./mcp-listing";

// The MCP projection: one tool per capability (input and output schema, structured content), and
// the whole plan as the resource majordomus://plan. A refusal is an `isError` result with the message.

/** An MCP error result: the message, and its code in `_meta`. */
function errorResult(code: string, message: string, details?: Record<string, unknown>) {
  return {
    isError: true,
    content: [{ type: "text" as const, text: message }],
    _meta: { "cockpit/error_code": code, ...(details ? { "cockpit/details": details } : {}) },
  };
}

/**
 * A command tool's `actor` argument, taken out of its arguments: the context signed with it, or
 * the error that refuses it (a name that cannot sign a move; another name than the caller's proven one).
 */
function withActorArgument(ctx: CapabilityContext, args: unknown, doors: ActorDoors): { ctx: CapabilityContext; args: unknown } | { error: ReturnType<typeof errorResult> } {
  if (!args || typeof args !== "object" || Array.isArray(args) || !Object.hasOwn(args, "actor")) return { ctx, args };
  const { actor, ...rest } = args as Record<string, unknown>;
  if (actor === undefined) return { ctx, args: rest };
  if (typeof actor !== "string") return { error: errorResult("invalid_input", "actor must be a text (a person's or an agent's name)") };
  const refusal = claimedActorRefusal(actor, { ...doors, source: "actor", drop: "leave actor out" });
  if (refusal) return { error: errorResult("invalid_input", refusal.message) };
  return { ctx: { ...ctx, by: actor }, args: rest };
}

/** Who may be named by a command tool's `actor` argument: with a users file, only the proved user, as themself. */
interface ActorDoors {
  user?: string;
  usersFile?: boolean;
}

async function callCapability(c: AnyCapability, ctx: CapabilityContext, args: unknown, meta?: Record<string, unknown>, doors: ActorDoors = {}) {
  if (c.kind === "command") {
    const named = withActorArgument(ctx, args, doors);
    if ("error" in named) return named.error;
    ({ ctx, args } = named);
  }
  // An edit's version may come in the call's `_meta`, as it goes out in a query's.
  const ifVersion = meta?.["cockpit/if_version"];
  if (typeof ifVersion === "string" && args && typeof args === "object" && (args as Record<string, unknown>).if_version === undefined && c.input instanceof z.ZodObject && "if_version" in c.input.shape) {
    args = { ...(args as Record<string, unknown>), if_version: ifVersion };
  }
  const result = await invoke(c, ctx, args);
  if (!result.ok) return errorResult(result.error.code, result.error.message, result.error.details);
  const version = c.version?.(ctx, args as never);
  return {
    structuredContent: result.value as Record<string, unknown>,
    content: [{ type: "text" as const, text: JSON.stringify(result.value) }],
    ...(version ? { _meta: { "cockpit/version": version } } : {}),
  };
}

/** What `initialize` tells a client: the loop an agent follows, in a few lines (docs/agents.md). */
export function mcpInstructions(names: McpNames = "cockpit"): string {
  const t = (id: string) => mcpToolName({ id }, names);
  return [
    "Cockpit serves a plan kept as YAML records in a git repository; every status is derived from the records, never written.",
    `The loop of an agent: ${t("plan.next")} (the issue to take), ${t("plan.claim")} (start it, in one locked step: its answer names the issue), ${t("plan.record")} (the whole issue: objective, acceptance criteria, validation, the evidence still missing), do the work, ${t("plan.evidence")} (once per required token), then ${t("plan.transition")} with transition verify (or done when its evidence is complete).`,
    `A refused call says what is in the way; its code is in _meta["cockpit/error_code"]. ${t("plan.undo")} puts back your own last move; ${t("plan.release")} gives an issue back.`,
  ].join("\n");
}

/**
 * An MCP server over the registry. Tools are listed lean (lib/surfaces/mcp-listing.ts): strict
 * input schemas and complete output schemas; calls are validated and answered by the same `invoke`
 * as every other surface, so a bad input gets the same words here as over HTTP. An error's code
 * travels in `_meta`.
 *
 * `names`: which names the tools get. `user`: the caller a token proved (a users file's user), who
 * acts as themself: a command tool's `actor` argument may only repeat that name.
 */
export function createMcpServer(surfaceContext: () => CapabilityContext, { names = "cockpit", ...doors }: { names?: McpNames } & ActorDoors = {}): McpServer {
  const server = new McpServer({ name: "cockpit", version: COCKPIT_VERSION }, { capabilities: { logging: {} }, instructions: mcpInstructions(names) });
  // A caller nobody named is its client (`clientInfo.name` of the initialize), with this session's suffix.
  const session = randomBytes(2).toString("hex");
  const context = (): CapabilityContext => {
    const ctx = surfaceContext();
    if (ctx.by !== undefined) return ctx;
    const client = server.server.getClientVersion()?.name;
    const by = client === undefined ? undefined : clientSessionName(client, session);
    return by !== undefined && actorNameProblem(by, "clientInfo.name") === undefined ? { ...ctx, by } : ctx;
  };
  // The tools as made once per process (lib/surfaces/mcp-listing.ts): the list never changes.
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(names) }));
  // Answer calls with the registry's own validation (the SDK's would word errors differently).
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const c = capabilities.find((x) => mcpToolName(x, names) === request.params.name);
    if (!c) throw rpcError(ErrorCode.InvalidParams, `no tool '${request.params.name}'; tools/list names every one`);
    return callCapability(c, context(), request.params.arguments ?? {}, request.params._meta as Record<string, unknown> | undefined, doors);
  });
  server.registerResource(
    "plan",
    planResourceUri(names),
    { title: "The derived plan", description: "The whole derived plan (GET /api/v1/plan) as JSON.", mimeType: "application/json" },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(context().plan()) }],
    }),
  );
  paramsRefusedInWords(server);
  return server;
}

/**
 * A JSON-RPC error as the SDK sends it: its code, and the message as given. (An McpError would
 * carry "MCP error -32602: " in its message, and a client prefixes it again.)
 */
export function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * The SDK checks a request's params with its schemas before a handler runs, and answers a mismatch
 * as -32603 with the raw zod text. Every handler is wrapped so that a mismatch is -32602 (invalid
 * params) in words: `params.arguments must be an object, not array`.
 */
function paramsRefusedInWords(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, (request: unknown, extra: unknown) => Promise<unknown>> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        // The SDK's zod may be another copy than ours: a zod error is known by its issues.
        if (error instanceof Error && Array.isArray((error as { issues?: unknown }).issues)) {
          throw rpcError(ErrorCode.InvalidParams, `invalid params of ${method}: ${describeInputError(error as z.ZodError)}`);
        }
        throw error;
      }
    });
  }
}
