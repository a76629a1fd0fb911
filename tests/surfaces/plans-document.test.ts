// The execution plans' answers held to the OpenAPI document (ajv): create, get, list, claim,
// execute (advance), a transient failure and its retry, a tick; each a real call on a git copy of
// the demo, and each answer checked against its operation's 200 schema. Over MCP the same drive,
// through to a completion, and plan.import, each structuredContent held to its tool's outputSchema.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { capabilities, findCapability, httpMethod, httpPath, mcpToolName } from "@/lib/capabilities/index";
import { contextFor } from "@/lib/server/state";
import { invoke } from "@/lib/surfaces/invoke";
import { EVIDENCE, MILESTONE } from "../helpers/notifications-plan";
import { type OpenApiDocument, answersValidator, schemaValidator } from "../support/openapi-check";
import { ensureCliBuilt } from "../support/processes";
import { cleanupRepos, demoGitCopy } from "../support/repo";
import { type McpConnection, mcpMemory } from "./helpers";

let repo: string;
let check: ReturnType<typeof answersValidator>;

let mcp: McpConnection;
const outputSchemas = new Map<string, Record<string, unknown>>();
const checkSchema = schemaValidator();

beforeAll(async () => {
  repo = demoGitCopy("cockpit-plans-document-");
  check = answersValidator((await GET().json()) as OpenApiDocument);
  ensureCliBuilt();
  mcp = await mcpMemory(demoGitCopy("cockpit-plans-document-mcp-"));
  for (const tool of (await mcp.client.listTools()).tools) if (tool.outputSchema) outputSchemas.set(tool.name, tool.outputSchema as Record<string, unknown>);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

/** One MCP tool call; its structuredContent must fit the tool's outputSchema (ajv). */
async function viaMcp<T>(id: string, args: Record<string, unknown>): Promise<T> {
  const tool = mcpToolName(findCapability(id)!);
  const result = (await mcp.client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
  if (result.isError) throw new Error(`${id}: ${result.content[0]?.text}`);
  const schema = outputSchemas.get(tool);
  expect(schema, `${tool} has an outputSchema`).toBeDefined();
  expect(checkSchema(tool, schema!, result.structuredContent), id).toEqual([]);
  called.add(id);
  return result.structuredContent as T;
}
const called = new Set<string>();

/** One call, as every surface makes it; its answer must fit the document. */
async function call<T>(id: string, input: Record<string, unknown>): Promise<T> {
  const c = findCapability(id)!;
  const r = await invoke(c, contextFor(repo), input);
  if (!r.ok) throw new Error(`${id}: ${r.error.code}: ${r.error.message}`);
  expect(check(httpPath(c), httpMethod(c), 200, r.value), id).toEqual([]);
  return r.value as T;
}

describe("every execution-plan answer fits the document's named schemas", () => {
  it("create, get, list, claim, execute, fail (retried), tick", async () => {
    const created = await call<{ plan_id: string; children: { plan_id: string }[] }>("plans.create", { milestone: MILESTONE });
    expect(created.children.length).toBeGreaterThan(0);
    await call("plans.get", { id: created.plan_id });
    await call("plans.get", { id: created.children[0].plan_id });
    await call("plans.list", {});
    const claim = await call<{ claimed: { plan_id: string } | null }>("plans.claim", { root: created.plan_id });
    expect(claim.claimed).not.toBeNull();
    const executed = await call<{ moved: boolean }>("plans.advance", { child: claim.claimed!.plan_id, to: "execute" });
    expect(executed.moved).toBe(true);
    const failed = await call<{ retry: unknown }>("plans.fail", { child: claim.claimed!.plan_id, category: "transient", message: "the network blinked" });
    expect(failed.retry).not.toBeNull();
    await call("plans.tick", {});
    // The claim when none can run: claimed null, with the reason.
    await call("plans.claim", { root: created.plan_id });
    // A dry run's answer, and a delete's.
    const preview = await call<{ dry_run: boolean; children: unknown[] }>("plans.create", { milestone: MILESTONE, dry_run: true });
    expect(preview.dry_run).toBe(true);
    const deleted = await call<{ deleted: string; plans: number }>("plans.delete", { id: created.plan_id, force: true });
    expect(deleted.deleted).toBe(created.plan_id);
  });

  it("the checks can fail: a plan view without its phase does not fit", () => {
    expect(check("/api/v1/plans/get", "GET", 200, { plan_id: "x" }).length).toBeGreaterThan(0);
  });
});

describe("over MCP, every execution-plan tool and plan.import answer structuredContent that fits their outputSchema", () => {
  it("create, get, list, claim, execute, fail (retried), claim the retry, apply, complete, tick; an import", async () => {
    const created = await viaMcp<{ plan_id: string; children: { plan_id: string }[] }>("plans.create", { milestone: MILESTONE });
    await viaMcp("plans.get", { id: created.plan_id });
    await viaMcp("plans.list", {});
    const first = await viaMcp<{ claimed: { plan_id: string; issue: string } | null }>("plans.claim", { root: created.plan_id });
    await viaMcp("plans.advance", { child: first.claimed!.plan_id, to: "execute" });
    const failed = await viaMcp<{ retry: { plan_id: string } | null }>("plans.fail", { child: first.claimed!.plan_id, category: "transient", message: "the network blinked" });
    expect(failed.retry).not.toBeNull();
    // The retry runs next (sequential), through apply to its completion with the evidence its issue requires.
    const retry = await viaMcp<{ claimed: { plan_id: string; issue: string } | null }>("plans.claim", { root: created.plan_id });
    expect(retry.claimed?.plan_id).toBe(failed.retry!.plan_id);
    await viaMcp("plans.advance", { child: retry.claimed!.plan_id, to: "execute" });
    await viaMcp("plans.advance", { child: retry.claimed!.plan_id, to: "apply" });
    const evidence = EVIDENCE[retry.claimed!.issue].map((covers) => ({ covers, type: "test", command: `npm test -- ${covers}` }));
    const completed = await viaMcp<{ completed: boolean }>("plans.complete", { child: retry.claimed!.plan_id, evidence });
    expect(completed.completed).toBe(true);
    await viaMcp("plans.tick", {});
    // The same completion again is refused (plans.complete's hint: not idempotent, the refusal is recorded).
    const again = (await mcp.client.callTool({ name: "plans_complete", arguments: { child: retry.claimed!.plan_id, evidence } })) as { isError?: boolean };
    expect(again.isError).toBe(true);
    const preview = await viaMcp<{ dry_run: boolean }>("plans.create", { milestone: MILESTONE, dry_run: true });
    expect(preview.dry_run).toBe(true);
    const deleted = await viaMcp<{ deleted: string }>("plans.delete", { id: created.plan_id });
    expect(deleted.deleted).toBe(created.plan_id);
    const imported = await viaMcp<{ created: { issues: string[] } }>("plan.import", {
      format: "beads",
      files: { "issues.jsonl": '{"id":"mcp-1","title":"An issue from beads","status":"open","issue_type":"task"}' },
      dry_run: true,
    });
    expect(imported.created.issues.length).toBe(1);
    expect([...called].sort()).toEqual([...capabilities.filter((c) => c.id.startsWith("plans.") && c.kind === "command").map((c) => c.id), "plans.get", "plans.list", "plan.import"].sort());
  }, 120_000);

  it("the checks can fail: a plan view without its phase does not fit plans.get's outputSchema", () => {
    const tool = mcpToolName(findCapability("plans.get")!);
    expect(checkSchema(tool, outputSchemas.get(tool)!, { plan_id: "x" }).length).toBeGreaterThan(0);
  });
});
