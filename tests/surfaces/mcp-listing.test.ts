import Ajv, { type ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpTools } from "@/lib/surfaces/mcp-listing";
import { ROOT_REFUSED } from "@/lib/surfaces/mcp-schemas";
import { MILESTONE } from "../helpers/notifications-plan";
import { mcpInMemory } from "../support/mcp-memory";
import { cleanupRepos, demoGitCopy, makePlanRepo } from "../support/repo";

// The MCP listing as a client reads it (the server linked in memory): every tool's input and output
// schema declares its JSON Schema dialect (draft-07) and is a valid schema of that dialect, which a
// validator the project did not write (ajv) compiles; what a model reads of it (names, descriptions,
// input schemas) fits in 16 KB, and the test prints what it weighs. Answers of a set of tools, called
// as an agent calls them, are held to the output schemas listed (ajv, draft-07), as the SDK's client
// holds them itself on every callTool.

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const KB = 1024;
let mcp: Client;

beforeAll(async () => {
  const repo = makePlanRepo({ issues: [{ id: "I1" }], commit: true });
  mcp = await mcpInMemory(repo.root, "listing");
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

describe("the MCP listing", () => {
  it("every schema declares draft-07 and validates under it", async () => {
    const { tools } = await mcp.listTools();
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const tool of tools) {
      for (const [what, schema] of [["input", tool.inputSchema], ["output", tool.outputSchema]] as const) {
        if (schema === undefined) continue;
        expect((schema as { $schema?: string }).$schema, `${tool.name} ${what}`).toBe(DRAFT_07);
        expect(ajv.validateSchema(schema), `${tool.name} ${what}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
        expect(() => ajv.compile(schema), `${tool.name} ${what}`).not.toThrow();
      }
      expect(tool.outputSchema, `${tool.name} declares its output`).toBeDefined();
    }
  });

  it("prints what the listing weighs and what a model reads of it: at most 16 KB", async () => {
    const { tools } = await mcp.listTools();
    const whole = JSON.stringify({ tools }).length;
    const read = JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).length;
    const outputs = JSON.stringify(tools.map((t) => t.outputSchema)).length;
    console.log(`MCP tools/list: ${tools.length} tools, ${(whole / KB).toFixed(1)} KB in all (output schemas ${(outputs / KB).toFixed(1)} KB); a model reads ${(read / KB).toFixed(1)} KB`);
    expect(read).toBeLessThanOrEqual(16 * KB);
    // Every output schema complete (each member, type, enum, required list and
    // additionalProperties of each of the 43 answers, nested shapes included) weighs about 86 KB on
    // its own: the whole listing stays under 112 KB (it was 183 KB).
    expect(whole).toBeLessThanOrEqual(112 * KB);
    expect(read).toBeLessThan(whole);
    expect(outputs).toBeLessThan(whole);
  });

  it("an input schema is strict, and has no oneOf, anyOf or allOf at its top (a model's API refuses the tool)", async () => {
    const { tools } = await mcp.listTools();
    for (const tool of tools) {
      const input = tool.inputSchema as Record<string, unknown>;
      expect(input.type, tool.name).toBe("object");
      expect(input.additionalProperties, tool.name).toBe(false);
      for (const key of ROOT_REFUSED) expect(input, `${tool.name} ${key}`).not.toHaveProperty(key);
    }
  });

  it("is made once per process: every server answers with the same listing", async () => {
    expect(mcpTools("cockpit")).toBe(mcpTools("cockpit"));
    expect(Object.isFrozen(mcpTools("cockpit")[0].outputSchema)).toBe(true);
    const other = await mcpInMemory(makePlanRepo({ issues: [{ id: "I2" }], commit: true }).root, "listing-again");
    try {
      expect((await other.listTools()).tools).toEqual((await mcp.listTools()).tools);
    } finally {
      await other.close();
    }
  });
});

describe("answers called as an agent calls them fit their tool's listed output schema", () => {
  let agent: Client;
  const validators = new Map<string, ValidateFunction>();
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const checked = new Set<string>();

  beforeAll(async () => {
    agent = await mcpInMemory(demoGitCopy("cockpit-mcp-listing-"), "listing-agent");
    for (const tool of (await agent.listTools()).tools) validators.set(tool.name, ajv.compile(tool.outputSchema!));
  });
  afterAll(() => agent?.close());

  /** What the validator says of a value against a tool's listed output schema (empty: it fits). */
  const problems = (tool: string, value: unknown): string[] => {
    const validate = validators.get(tool)!;
    return validate(value) ? [] : (validate.errors ?? []).slice(0, 5).map((e) => `${tool}: ${e.instancePath || "(root)"} ${e.message}`);
  };

  /** One call through the SDK's client (which checks structuredContent itself), then held to the schema here. */
  async function call<T = Record<string, unknown>>(tool: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = (await agent.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
    expect(result.isError, `${tool}: ${result.content[0]?.text}`).toBeFalsy();
    expect(problems(tool, result.structuredContent)).toEqual([]);
    checked.add(tool);
    return result.structuredContent as T;
  }

  it("the plan's reads, a claim and its session's moves, a refusal, previews, an execution plan", async () => {
    await call("plan");
    await call("plan_status");
    await call("plan_status", { milestone: MILESTONE });
    const next = await call<{ issue?: { id: string } | null }>("plan_next");
    await call("plan_issues", { status: "READY" });
    await call("plan_issues", { milestone: MILESTONE, limit: 2 });
    await call("plan_waves");
    await call("plan_roadmap");
    await call("plan_validate");
    await call("plan_critical_path");
    await call("plan_changes", { since: "HEAD" });
    await call("plan_record", { id: MILESTONE });
    if (next.issue) await call("plan_record", { id: next.issue.id });
    await call("plan_inbox");
    await call("plan_code");

    const claim = await call<{ issue?: string | null; session?: string }>("plan_claim", { milestone: MILESTONE });
    expect(claim.issue).toEqual(expect.any(String));
    await call("plan_record", { id: claim.issue! });
    await call("plan_agents");
    await call("plan_heartbeat", { issue: claim.issue!, note: "under way" });
    await call("plan_history", { id: claim.issue! });
    await call("plan_activity");

    // A refused command: an isError result with its code and no structured content, which the client lets through.
    const refused = (await agent.callTool({ name: "plan_transition", arguments: { issue: claim.issue!, transition: "done" } })) as {
      isError?: boolean;
      structuredContent?: unknown;
      _meta?: Record<string, unknown>;
    };
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    expect(refused._meta?.["cockpit/error_code"]).toEqual(expect.any(String));

    await call("plan_edit", { id: claim.issue!, set: { priority: "p1" }, dry_run: true });
    await call("plan_create", { kind: "issue", milestone: MILESTONE, title: "A preview only", dry_run: true });
    await call("plan_release", { issue: claim.issue!, note: "handing it back" });

    const preview = await call<{ dry_run?: boolean }>("plans_create", { milestone: MILESTONE, dry_run: true });
    expect(preview.dry_run).toBe(true);
    const created = await call<{ plan_id: string }>("plans_create", { milestone: MILESTONE });
    await call("plans_get", { id: created.plan_id });
    await call("plans_list");
    await call("plans_claim", { root: created.plan_id });
    await call("plans_tick");

    expect(checked.size).toBeGreaterThanOrEqual(25);
  }, 120_000);

  it("the checks can fail: a member missing, a member too many, a word out of its enum, a wrong type", async () => {
    const status = (await agent.callTool({ name: "plan_status", arguments: {} })) as unknown as { structuredContent: Record<string, unknown> };
    const answer = status.structuredContent;
    expect(problems("plan_status", answer)).toEqual([]);
    const [first] = Object.keys(answer);
    const { [first]: _dropped, ...missing } = answer;
    expect(problems("plan_status", missing).length).toBeGreaterThan(0);
    expect(problems("plan_status", { ...answer, unknown_member: 1 }).length).toBeGreaterThan(0);
    const plan = (await agent.callTool({ name: "plan", arguments: {} })) as unknown as { structuredContent: { issues: Record<string, unknown>[] } };
    const issues = plan.structuredContent.issues;
    expect(problems("plan", { ...plan.structuredContent, issues: [{ ...issues[0], status: "SOMEWHERE" }, ...issues.slice(1)] }).length).toBeGreaterThan(0);
    expect(problems("plan", { ...plan.structuredContent, issues: [{ ...issues[0], wave: "one" }, ...issues.slice(1)] }).length).toBeGreaterThan(0);
  });
});
