import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as openApiRoute } from "@/app/api/v1/openapi.json/route";
import { type AnyCapability, capabilities, cliCommand, httpMethod, httpPath, mcpToolName } from "@/lib/capabilities/index";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { invoke } from "@/lib/surfaces/invoke";
import { MCP_DESCRIPTIONS, mcpDescription } from "@/lib/surfaces/mcp-words";
import { contextFor } from "@/lib/server/state";
import { type McpConnection, cleanup, copyRepo, hashRepo, mcpMemory } from "./helpers";

// One declaration per capability, projected everywhere: the names each surface gives it, pinned
// literally here so that a rename anywhere is a decision and not an accident.

interface Row {
  id: string;
  kind: "query" | "command";
  method: "GET" | "POST";
  route: string;
  tool: string;
  /** `cliCommand(c)`: the command the projection names. */
  cli: string;
  /** The `cockpit plan` verbs that reach the capability. */
  verbs: string[];
}

const TABLE: readonly Row[] = [
  { id: "plan.model", kind: "query", method: "GET", route: "/api/v1/plan", tool: "plan", cli: "cockpit plan model", verbs: ["model"] },
  { id: "plan.status", kind: "query", method: "GET", route: "/api/v1/plan/status", tool: "plan_status", cli: "cockpit plan status", verbs: ["status"] },
  { id: "plan.issues", kind: "query", method: "GET", route: "/api/v1/plan/issues", tool: "plan_issues", cli: "cockpit plan issues", verbs: ["issues"] },
  { id: "plan.waves", kind: "query", method: "GET", route: "/api/v1/plan/waves", tool: "plan_waves", cli: "cockpit plan waves", verbs: ["waves"] },
  { id: "plan.next", kind: "query", method: "GET", route: "/api/v1/plan/next", tool: "plan_next", cli: "cockpit plan next", verbs: ["next"] },
  { id: "plan.roadmap", kind: "query", method: "GET", route: "/api/v1/plan/roadmap", tool: "plan_roadmap", cli: "cockpit plan roadmap", verbs: ["roadmap"] },
  {
    id: "plan.critical_path",
    kind: "query",
    method: "GET",
    route: "/api/v1/plan/critical_path",
    tool: "plan_critical_path",
    cli: "cockpit plan critical-path",
    verbs: ["critical-path"],
  },
  { id: "plan.validate", kind: "query", method: "GET", route: "/api/v1/plan/validate", tool: "plan_validate", cli: "cockpit plan validate", verbs: ["validate"] },
  { id: "plan.record", kind: "query", method: "GET", route: "/api/v1/plan/record", tool: "plan_record", cli: "cockpit plan record", verbs: ["record"] },
  { id: "plan.changes", kind: "query", method: "GET", route: "/api/v1/plan/changes", tool: "plan_changes", cli: "cockpit plan changes", verbs: ["changes"] },
  { id: "plan.history", kind: "query", method: "GET", route: "/api/v1/plan/history", tool: "plan_history", cli: "cockpit plan history", verbs: ["history"] },
  { id: "plan.burnup", kind: "query", method: "GET", route: "/api/v1/plan/burnup", tool: "plan_burnup", cli: "cockpit plan burnup", verbs: ["burnup"] },
  { id: "plan.forecast", kind: "query", method: "GET", route: "/api/v1/plan/forecast", tool: "plan_forecast", cli: "cockpit plan forecast", verbs: ["forecast"] },
  { id: "plan.code", kind: "query", method: "GET", route: "/api/v1/plan/code", tool: "plan_code", cli: "cockpit plan code", verbs: ["code"] },
  { id: "plan.standup", kind: "query", method: "GET", route: "/api/v1/plan/standup", tool: "plan_standup", cli: "cockpit plan standup", verbs: ["standup"] },
  {
    id: "plan.transition",
    kind: "command",
    method: "POST",
    route: "/api/v1/plan/transition",
    tool: "plan_transition",
    cli: "cockpit plan transition",
    verbs: ["start", "verify", "done"],
  },
  { id: "plan.evidence", kind: "command", method: "POST", route: "/api/v1/plan/evidence", tool: "plan_evidence", cli: "cockpit plan evidence", verbs: ["evidence"] },
  { id: "plan.claim", kind: "command", method: "POST", route: "/api/v1/plan/claim", tool: "plan_claim", cli: "cockpit plan claim", verbs: ["claim"] },
  { id: "plan.heartbeat", kind: "command", method: "POST", route: "/api/v1/plan/heartbeat", tool: "plan_heartbeat", cli: "cockpit plan heartbeat", verbs: ["heartbeat"] },
  { id: "plan.release", kind: "command", method: "POST", route: "/api/v1/plan/release", tool: "plan_release", cli: "cockpit plan release", verbs: ["release"] },
  { id: "plan.agents", kind: "query", method: "GET", route: "/api/v1/plan/agents", tool: "plan_agents", cli: "cockpit plan agents", verbs: ["agents"] },
  { id: "plan.ask", kind: "command", method: "POST", route: "/api/v1/plan/ask", tool: "plan_ask", cli: "cockpit plan ask", verbs: ["ask"] },
  { id: "plan.wait", kind: "query", method: "GET", route: "/api/v1/plan/wait", tool: "plan_wait", cli: "cockpit plan wait", verbs: ["wait"] },
  { id: "plan.answer", kind: "command", method: "POST", route: "/api/v1/plan/answer", tool: "plan_answer", cli: "cockpit plan answer", verbs: ["answer"] },
  { id: "plan.withdraw", kind: "command", method: "POST", route: "/api/v1/plan/withdraw", tool: "plan_withdraw", cli: "cockpit plan withdraw", verbs: ["withdraw"] },
  { id: "plan.inbox", kind: "query", method: "GET", route: "/api/v1/plan/inbox", tool: "plan_inbox", cli: "cockpit plan inbox", verbs: ["inbox"] },
  { id: "plan.digest", kind: "query", method: "GET", route: "/api/v1/plan/digest", tool: "plan_digest", cli: "cockpit plan digest", verbs: ["digest"] },
  { id: "plan.create", kind: "command", method: "POST", route: "/api/v1/plan/create", tool: "plan_create", cli: "cockpit plan create", verbs: ["new"] },
  { id: "plan.edit", kind: "command", method: "POST", route: "/api/v1/plan/edit", tool: "plan_edit", cli: "cockpit plan edit", verbs: ["edit"] },
  { id: "plan.undo", kind: "command", method: "POST", route: "/api/v1/plan/undo", tool: "plan_undo", cli: "cockpit plan undo", verbs: ["undo"] },
  { id: "plan.activity", kind: "query", method: "GET", route: "/api/v1/plan/activity", tool: "plan_activity", cli: "cockpit plan activity", verbs: ["activity"] },
  { id: "plan.import", kind: "command", method: "POST", route: "/api/v1/plan/import", tool: "plan_import", cli: "cockpit plan import", verbs: ["import"] },
  { id: "plan.commit", kind: "command", method: "POST", route: "/api/v1/plan/commit", tool: "plan_commit", cli: "cockpit plan commit", verbs: ["commit"] },
  { id: "plan.sync_status", kind: "query", method: "GET", route: "/api/v1/plan/sync_status", tool: "plan_sync_status", cli: "cockpit plan sync-status", verbs: ["sync-status"] },
];

/** A valid input of each capability (against the demo plan, or any plan: validity is the schema's). */
const VALID_INPUT: Record<string, Record<string, unknown>> = {
  "plan.model": { at: "HEAD" },
  "plan.status": { milestone: "m", at: "HEAD~1" },
  "plan.issues": { milestone: "m", status: "READY", wave: 1, limit: 2, at: "main" },
  "plan.waves": { milestone: "m", at: "2026-11-30" },
  "plan.next": { milestone: "m", at: "2026-11-30T09:00:00Z" },
  "plan.roadmap": { at: "v1.0" },
  "plan.critical_path": { milestone: "m", at: "HEAD" },
  "plan.validate": { at: "HEAD" },
  "plan.record": { id: "I0001", at: "HEAD" },
  "plan.changes": { since: "HEAD~1", until: "HEAD", milestone: "m" },
  "plan.history": { id: "I0001", limit: 5 },
  "plan.burnup": { milestone: "m", since: "2026-11-01", until: "2026-11-30" },
  "plan.forecast": { milestone: "m", seed: 42 },
  "plan.code": { id: "I0001", default_branch: "main", stale_days: 3 },
  "plan.standup": { since: "HEAD~1", until: "HEAD", stuck: 3 },
  "plan.transition": { issue: "I0001", transition: "start" },
  "plan.evidence": { record: "I0001", covers: "token", type: "test", command: "npm test" },
  "plan.claim": { milestone: "m" },
  "plan.heartbeat": { issue: "I0001", note: "tests" },
  "plan.release": { issue: "I0001", force: true },
  "plan.agents": {},
  "plan.ask": { issue: "I0001", question: "which?", kind: "choose", options: ["a", "b"] },
  "plan.wait": { id: "a-000000000000", timeout: 1 },
  "plan.answer": { id: "a-000000000000", choice: "a", comment: "c" },
  "plan.withdraw": { id: "a-000000000000", reason: "r" },
  "plan.inbox": { issue: "I0001" },
  "plan.digest": { since: "HEAD~1", person: "ada" },
  "plan.create": { kind: "issue", milestone: "m", title: "t", set: { priority: "p1" }, add: { scope: ["x"] }, dry_run: true },
  "plan.edit": { id: "I0001", set: { priority: "p1" }, unset: ["risk"], add: { scope: ["x"] }, remove: { scope: ["y"] }, if_version: "v", dry_run: true, allow_findings: true },
  "plan.undo": { ledger_id: 1, idempotency_key: "k" },
  "plan.activity": { limit: 5 },
  "plan.import": { format: "github", files: { "issues.json": "[]" }, source: "issues.json", prefix: "GH", dependencies: "[]", dry_run: true },
  "plan.commit": { message: "m", push: false, pull_rebase: true, dry_run: true },
  "plan.sync_status": {},
};

let repo: string;
let mcp: McpConnection;

beforeAll(async () => {
  repo = copyRepo("cockpit-projection-");
  mcp = await mcpMemory(repo);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  cleanup();
});

const byId = (id: string): AnyCapability => capabilities.find((c) => c.id === id)!;

/** Run `cockpit plan <words>` in-process; nothing can be written: every call here fails on its options. */
async function plan(words: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runPlanCommand(words, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") }, repo);
  return { code, out, err };
}

/** One request through the HTTP projection, in-process (`target` may carry a query string). */
function request(method: string, target: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(target, "http://127.0.0.1:3000");
  return handleCapabilityRequest(new Request(url, { method, ...init }), url.pathname, { repo });
}

/** The capabilities of the plan (other modules may declare more: plans.*, …). */
const PLAN = capabilities.filter((c) => c.id.startsWith("plan."));

describe("the projection table", () => {
  it("the plan.* capabilities are these, listed first and in this order", () => {
    expect(PLAN.map((c) => c.id)).toEqual(TABLE.map((r) => r.id));
    expect(capabilities.slice(0, TABLE.length).map((c) => c.id)).toEqual(TABLE.map((r) => r.id));
  });

  it.for(capabilities.map((c) => ({ id: c.id })))("$id: every capability is projected by the one rule", ({ id }) => {
    const c = byId(id);
    const segments = id.split(".");
    const named = segments[segments.length - 1] === "model" ? segments.slice(0, -1) : segments;
    expect(httpPath(c)).toBe(`/api/v1/${named.join("/")}`);
    expect(httpMethod(c)).toBe(c.kind === "command" ? "POST" : "GET");
    expect(mcpToolName(c)).toBe(named.join("_"));
    expect(mcpToolName(c, "reference")).toBe(`majordomus_${named.join("_")}`);
  });

  it.for(TABLE)("$id: $method $route, $tool, $cli", (row) => {
    const c = byId(row.id);
    expect({ kind: c.kind, method: httpMethod(c), route: httpPath(c), tool: mcpToolName(c), cli: cliCommand(c) }).toEqual({
      kind: row.kind,
      method: row.method,
      route: row.route,
      tool: row.tool,
      cli: row.cli,
    });
  });

  it("names are unique on every surface (every module's capabilities)", () => {
    for (const name of [httpPath, mcpToolName, cliCommand] as const) {
      const names = capabilities.map((c) => name(c));
      expect(new Set(names).size, name.name).toBe(names.length);
    }
  });

  it.for(TABLE)("$id: every verb of the table is a verb of cockpit plan", async (row) => {
    for (const verb of row.verbs) {
      const r = await plan([verb, "--no-such-option", "--repo", repo]);
      expect(r.err, `cockpit plan ${verb}`).not.toMatch(/unknown verb/);
      expect(r.err).toMatch(/unknown option '--no-such-option'/);
    }
  });

  it.for(TABLE)("$id: the command cliCommand() names is one cockpit runs", async (row) => {
    const [program, group, verb] = cliCommand(byId(row.id)).split(" ");
    expect(`${program} ${group}`).toBe("cockpit plan");
    const r = await plan([verb, "--no-such-option", "--repo", repo]);
    expect(r.err, `${cliCommand(byId(row.id))} is not a command of the CLI`).not.toMatch(/unknown verb/);
  });
});

describe("queries and commands", () => {
  it("among the plan.* capabilities exactly transition, evidence, claim, heartbeat, release, ask, answer, withdraw, create, edit, undo, import and commit are commands", () => {
    const commands = capabilities.filter((c) => c.id.startsWith("plan.") && c.kind === "command").map((c) => c.id);
    expect(commands.sort()).toEqual([
      "plan.answer",
      "plan.ask",
      "plan.claim",
      "plan.commit",
      "plan.create",
      "plan.edit",
      "plan.evidence",
      "plan.heartbeat",
      "plan.import",
      "plan.release",
      "plan.transition",
      "plan.undo",
      "plan.withdraw",
    ]);
    for (const c of capabilities) expect(["query", "command"]).toContain(c.kind);
  });

  it.for(TABLE.filter((r) => r.kind === "command"))("$id is POST only: GET, HEAD, PUT, PATCH and DELETE are 405, and nothing is written", async (row) => {
    const before = hashRepo(repo);
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE"]) {
      const query = new URLSearchParams(Object.entries(VALID_INPUT[row.id]).map(([k, v]) => [k, String(v)])).toString();
      const r = await request(method, `${row.route}${query ? `?${query}` : ""}`);
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      if (method !== "HEAD") {
        const body = (await r.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("method_not_allowed");
        expect(body.error.message).toMatch(/POST/);
      }
    }
    expect(hashRepo(repo)).toBe(before);
  });

  it.for(TABLE.filter((r) => r.kind === "query"))("$id is GET only: POST, PUT, PATCH and DELETE are 405", async (row) => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const r = await request(method, row.route, { body: "{}", headers: { "content-type": "application/json" } });
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow")).toBe("GET");
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("method_not_allowed");
    }
    expect((await request("GET", row.route + (row.id === "plan.record" ? "?id=nothing-here" : ""))).status).not.toBe(405);
  });

  it("the MCP annotations say which tools only read", async () => {
    const { tools } = await mcp.client.listTools();
    for (const row of TABLE) {
      const tool = tools.find((t) => t.name === row.tool)!;
      expect(tool.annotations?.readOnlyHint, row.id).toBe(row.kind === "query");
    }
  });
});

describe("descriptions", () => {
  /** Sentences end with . ! or ? followed by a space or the end. */
  const sentences = (text: string) => text.match(/[.!?](?=\s|$)/g)?.length ?? 0;

  it.for(capabilities.map((c) => ({ id: c.id })))("$id: at most two sentences, and not empty", (row) => {
    const c = byId(row.id);
    expect(c.description.trim()).not.toBe("");
    expect(c.title.trim()).not.toBe("");
    expect(sentences(c.description), c.description).toBeGreaterThanOrEqual(1);
    expect(sentences(c.description), c.description).toBeLessThanOrEqual(2);
    expect(c.description).toMatch(/[.!?]$/);
  });

  // What a model reads of a tool on every turn: one short sentence, naming no capability and no
  // tool (a tool's name depends on how the server names them).
  it.for(capabilities.map((c) => ({ id: c.id })))("$id: its MCP description is one short sentence", (row) => {
    const words = mcpDescription(byId(row.id));
    expect(sentences(words), words).toBe(1);
    expect(words).toMatch(/^[A-Z].*\.$/);
    expect(words.length, words).toBeLessThanOrEqual(80);
    expect(words).not.toMatch(/\bplans?[._][a-z_]+/);
  });

  it("the MCP descriptions are one per capability, no more", () => {
    expect(Object.keys(MCP_DESCRIPTIONS).sort()).toEqual(capabilities.map((c) => c.id).sort());
  });
});

describe("every input is strict", () => {
  it.for(TABLE)("$id: its valid input passes, the same with an unknown field is refused", async (row) => {
    const c = byId(row.id);
    expect(c.input.safeParse(VALID_INPUT[row.id]).success, "the valid input").toBe(true);
    const ctx = contextFor(repo);
    const r = await invoke(c, ctx, { ...VALID_INPUT[row.id], unknown_field: "x" });
    expect(r).toEqual({ ok: false, error: { code: "invalid_input", message: expect.stringContaining("unknown field 'unknown_field'") } });
  });

  it.for(TABLE)("$id: over HTTP an unknown field is 400 and writes nothing", async (row) => {
    const before = hashRepo(repo);
    const input = { ...VALID_INPUT[row.id], unknown_field: "x" };
    const r =
      row.method === "GET"
        ? await request("GET", `${row.route}?${new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]))}`)
        : await request("POST", row.route, { body: JSON.stringify(input), headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({ code: "invalid_input", message: expect.stringContaining("unknown field 'unknown_field'") });
    expect(hashRepo(repo)).toBe(before);
  });

  // `input[key] = value` with key "__proto__" sets the object's prototype instead of a field, so
  // the field vanishes before validation (lib/surfaces/http.ts, queryInput).
  it("over HTTP a query field named __proto__ is refused like any unknown field, on every GET route", async () => {
    const statuses: Record<string, number> = {};
    for (const row of TABLE.filter((r) => r.method === "GET")) {
      const input = new URLSearchParams(Object.entries(VALID_INPUT[row.id]).map(([k, v]) => [k, String(v)]));
      input.append("__proto__", "x");
      const r = await request("GET", `${row.route}?${input}`);
      const body = (await r.json()) as { error?: { message: string } };
      statuses[`GET ${row.route}?${input}`] = r.status === 400 && body.error?.message.includes("__proto__") ? 400 : r.status;
    }
    expect(statuses).toEqual(Object.fromEntries(Object.keys(statuses).map((k) => [k, 400])));
  });

  it.for(TABLE)("$id: over MCP an unknown field is an error naming it", async (row) => {
    const r = (await mcp.client.callTool({ name: row.tool, arguments: { ...VALID_INPUT[row.id], unknown_field: "x" } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/unknown_field/);
  });
});

describe("the OpenAPI document", () => {
  let doc: {
    openapi: string;
    info: { title: string; version: string };
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown>; additionalProperties?: unknown }> };
  };

  beforeAll(async () => {
    const r = openApiRoute();
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    doc = (await r.json()) as typeof doc;
  });

  it("is OpenAPI 3.1", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).not.toBe("");
    expect(doc.info.version).not.toBe("");
  });

  it("has one operation per capability, at its route, with its method", () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ["get", "put", "post", "delete", "options", "head", "patch", "trace"].includes(method))
        .map(([method, op]) => ({ path, method: method.toUpperCase(), id: String(op.operationId) })),
    );
    const byName = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    // Besides the capabilities, the one route that is no capability: a following server's sync (a
    // request to sync now, and its status under a second name).
    const sync = [
      { path: "/api/v1/sync", method: "POST", id: "sync.request" },
      { path: "/api/v1/sync", method: "GET", id: "sync.status" },
    ];
    expect(operations.sort(byName)).toEqual([...capabilities.map((c) => ({ path: httpPath(c), method: httpMethod(c), id: c.id })), ...sync].sort(byName));
    // and the plan's, literally
    expect(operations.filter((o) => o.id.startsWith("plan.")).sort(byName)).toEqual(TABLE.map((r) => ({ path: r.route, method: r.method, id: r.id })).sort(byName));
  });

  it.for(TABLE)("$id: its inputs are its query parameters (GET) or its JSON body (POST), and its answers are listed", (row) => {
    const op = doc.paths[row.route][row.method.toLowerCase()] as {
      description: string;
      parameters?: { name: string; in: string }[];
      requestBody?: { content: Record<string, { schema: { $ref: string } }> };
      responses: Record<string, unknown>;
    };
    const fields = Object.keys(VALID_INPUT[row.id]).sort();
    expect(op.description).toBe(byId(row.id).description);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "405", "500"]));
    if (row.method === "GET") {
      expect(op.requestBody).toBeUndefined();
      expect((op.parameters ?? []).map((p) => p.name).sort()).toEqual(row.id === "plan.record" ? ["at", "id"] : fields);
      for (const p of op.parameters ?? []) expect(p.in).toBe("query");
    } else {
      // An edit's version may come as If-Match, a repeatable command's key as Idempotency-Key; no other parameter.
      const headers = [...(row.id === "plan.edit" ? ["header If-Match"] : []), ...("idempotency_key" in ((byId(row.id).input as { shape?: Record<string, unknown> }).shape ?? {}) ? ["header Idempotency-Key"] : [])];
      expect((op.parameters ?? []).map((p) => `${p.in} ${p.name}`).sort()).toEqual(headers.sort());
      const schema = doc.components.schemas[op.requestBody!.content["application/json"].schema.$ref.replace("#/components/schemas/", "")];
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(fields));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "403", "422"]));
    }
  });
});

describe("the MCP tools, as a real client lists them", () => {
  it("are one per capability, named by the table", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(capabilities.map((c) => mcpToolName(c)).sort());
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(TABLE.map((r) => r.tool)));
  });

  it("every tool, of any module, has an input and an output schema", async () => {
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it.for(TABLE)("$tool has an input schema (strict) and an output schema, and its MCP description", async (row) => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === row.tool)!;
    expect(tool).toBeDefined();
    expect(tool.inputSchema.type).toBe("object");
    expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(expect.arrayContaining(Object.keys(VALID_INPUT[row.id]).sort()));
    expect(tool.outputSchema).toBeDefined();
    expect(tool.outputSchema!.type).toBe("object");
    expect(Object.keys(tool.outputSchema!.properties ?? {}).length).toBeGreaterThan(0);
    expect(tool.description).toBe(mcpDescription(byId(row.id)));
    expect(tool.title).toBe(byId(row.id).title);
  });

  it("the plan is the resource cockpit://plan", async () => {
    const { resources } = await mcp.client.listResources();
    const plan = resources.find((r) => r.uri === "cockpit://plan");
    expect(plan).toBeDefined();
    expect(plan!.mimeType).toBe("application/json");
  });

  it("initialize gives the loop an agent follows, naming the tools as this server lists them", async () => {
    const instructions = mcp.client.getInstructions() ?? "";
    const { tools } = await mcp.client.listTools();
    const named = [...instructions.matchAll(/\bplans?_[a-z_]+\b/g)].map((m) => m[0]);
    expect(named).toEqual(expect.arrayContaining(["plan_next", "plan_claim", "plan_record", "plan_evidence", "plan_transition"]));
    for (const name of named) expect(tools.map((t) => t.name)).toContain(name);
    expect(instructions).not.toMatch(/majordomus/);
  });

  it("cockpit mcp --reference-names serves the reference's names, and answers under them as under its own", async () => {
    const reference = await mcpMemory(repo, ["--reference-names"]);
    try {
      const { tools } = await reference.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(capabilities.map((c) => `majordomus_${mcpToolName(c)}`).sort());
      const { resources } = await reference.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["majordomus://plan"]);
      const own = (await mcp.client.callTool({ name: "plan_next", arguments: {} })) as { structuredContent?: unknown };
      const theirs = (await reference.client.callTool({ name: "majordomus_plan_next", arguments: {} })) as { structuredContent?: unknown };
      expect(theirs.structuredContent).toEqual(own.structuredContent);
      expect(reference.client.getInstructions()).toMatch(/majordomus_plan_claim/);
      const unknown = await reference.client.callTool({ name: "plan_next", arguments: {} }).then(() => "answered", (e: Error) => e.message);
      expect(unknown).toMatch(/no tool 'plan_next'/);
    } finally {
      await reference.close();
    }
  });
});
