import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { GET as unknownApiGet, POST as unknownApiPost } from "@/app/api/[...path]/route";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { mcpInMemory } from "../support/mcp-memory";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// HTTP answers in words and in JSON: a path no route answers is a JSON 404 naming the nearest
// routes, a body that fails its schema says what to fix, and a read's options on the command line
// (--limit on issues) are accepted over HTTP and MCP too, with the same answer.

let repo: PlanRepo;
let mcp: Client;
beforeAll(async () => {
  repo = makePlanRepo({ issues: [{ id: "I1" }, { id: "I2" }, { id: "I3", depends_on: ["I1"] }], commit: true });
  mcp = await mcpInMemory(repo.root, "http-words");
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

const http = async (path: string, init?: RequestInit) => {
  const url = `http://127.0.0.1${path}`;
  const response = await handleCapabilityRequest(new Request(url, init), new URL(url).pathname, { repo: repo.root });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string; nearest?: string[] } } };
};

describe("a path no route answers", () => {
  it.each([
    ["GET", "/api/v1/nope", unknownApiGet],
    ["POST", "/api/v1/plan/isues/x", unknownApiPost],
  ] as const)("%s %s is a JSON 404 naming the nearest routes, even to Accept: application/json", async (method, path, handler) => {
    const response = await handler(new Request(`http://127.0.0.1${path}`, { method, headers: { accept: "application/json" } }));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string; nearest: string[] } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).toContain(`no route ${path}`);
    expect(body.error.message).toContain("GET /api/v1/openapi.json lists every one");
    expect(body.error.nearest).toHaveLength(3);
  });

  it("a mistyped capability names the one meant first", async () => {
    const r = await http("/api/v1/plan/isues");
    expect(r.status).toBe(404);
    expect(r.body.error?.nearest?.[0]).toBe("GET /api/v1/plan/issues");
    expect(r.body.error?.message).toMatch(/^no route \/api\/v1\/plan\/isues; the nearest: GET \/api\/v1\/plan\/issues, /);
  });
});

describe("a body that fails its schema says what to fix", () => {
  it.each([
    ["/api/v1/plan/record", "GET", undefined, "id is required"],
    ["/api/v1/plan/evidence", "POST", { record: "I1", covers: "proof", type: "unit", command: "true" }, "type must be one of test, build, ci, artifact, manual"],
    ["/api/v1/plan/release", "POST", { issue: "I1", force: "yes" }, "force must be true or false, not string"],
    ["/api/v1/plan/transition", "POST", { transition: "start" }, "issue is required"],
  ])("%s %s %j: 400, %s", async (path, method, body, message) => {
    const r = await http(path, method === "GET" ? undefined : { method, body: JSON.stringify(body) });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ code: "invalid_input", message });
  });
});

describe("a read's command-line options are accepted over HTTP and MCP", () => {
  it("limit on issues: the first N, total counting every match, the same on every surface", async () => {
    const overHttp = await http("/api/v1/plan/issues?limit=2");
    expect(overHttp.status).toBe(200);
    expect((overHttp.body.issues as { id: string }[]).map((i) => i.id)).toEqual(["I1", "I2"]);
    expect(overHttp.body.total).toBe(3);
    const overMcp = (await mcp.callTool({ name: "plan_issues", arguments: { limit: 2 } })) as { structuredContent: unknown };
    expect(overMcp.structuredContent).toEqual(overHttp.body);
    const out: string[] = [];
    expect(await runPlanCommand(["issues", "--limit", "2", "--json", "--repo", repo.root], { out: (t) => out.push(t), err: () => undefined })).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual(overHttp.body);
  });

  it("the command line's text still says how many were left out", async () => {
    const out: string[] = [];
    await runPlanCommand(["issues", "--limit", "1", "--repo", repo.root], { out: (t) => out.push(t), err: () => undefined });
    expect(out.join("\n")).toContain("… and 2 more issue(s) (a larger --limit shows them)");
    expect(out.join("\n")).toContain("3 issue(s)");
  });
});

describe("no wrong input answers as a success", () => {
  it("a claim with nothing to hand out says why, kind by kind", async () => {
    const gated = makePlanRepo({
      milestones: [{ id: "M1" }, { id: "M2", depends_on: ["M1"] }],
      issues: [{ id: "A1" }, { id: "A2", depends_on: ["A1"] }, { id: "B1", milestone: "M2" }],
    });
    const run = async (argv: string[]) => {
      const out: string[] = [];
      const code = await runPlanCommand([...argv, "--repo", gated.root, "--json"], { out: (t) => out.push(t), err: () => undefined });
      return { code, body: JSON.parse(out.join("")) as { error?: { code: string; message: string } } };
    };
    expect((await run(["claim"])).code).toBe(0);
    const none = await run(["claim"]);
    expect(none.code).toBe(15);
    expect(none.body.error).toEqual({
      code: "refused",
      message: "no issue is READY: 1 taken, started and not done (A1); 1 blocked by an unfinished dependency (A2); 1 gated: milestone M2 waits on an unfinished milestone (B1)",
    });
  });

  it("next and claim in a folder with no plan say that no plan was found there", async () => {
    const empty = makePlanRepo({});
    const bare = `${empty.root}/sub`;
    mkdirSync(bare);
    const out: string[] = [];
    expect(await runPlanCommand(["next", "--repo", bare, "--json"], { out: (t) => out.push(t), err: () => undefined })).toBe(0);
    expect((JSON.parse(out.pop()!) as { reason: string }).reason).toBe(`no plan found at ${bare}: it has no .ai/repo/project/ folder (--repo names the repository that holds it)`);
    expect(await runPlanCommand(["claim", "--repo", bare, "--json"], { out: (t) => out.push(t), err: () => undefined })).toBe(15);
    expect(JSON.parse(out.pop()!)).toEqual({ error: { code: "refused", message: `no plan found at ${bare}: it has no .ai/repo/project/ folder (--repo names the repository that holds it)` } });
    // A plan with no issue is an answer, as before.
    expect(await runPlanCommand(["next", "--repo", empty.root, "--json"], { out: (t) => out.push(t), err: () => undefined })).toBe(0);
    expect((JSON.parse(out.pop()!) as { reason: string }).reason).toBe("the plan declares no issue to hand out");
  });
});

describe("a refusal names an option as its surface spells it", () => {
  it("allow_findings in JSON over HTTP, --allow-findings on the command line", async () => {
    const edit = makePlanRepo({ issues: [{ id: "E1" }] });
    const url = "http://127.0.0.1/api/v1/plan/edit";
    const response = await handleCapabilityRequest(new Request(url, { method: "POST", body: JSON.stringify({ id: "E1", add: { depends_on: ["E9"] } }) }), "/api/v1/plan/edit", { repo: edit.root });
    const overHttp = ((await response.json()) as { error: { message: string } }).error.message;
    expect(overHttp).toMatch(/or pass allow_findings$/);
    const out: string[] = [];
    expect(await runPlanCommand(["edit", "E1", "--add", "depends_on=E9", "--repo", edit.root, "--json"], { out: (t) => out.push(t), err: () => undefined })).toBe(15);
    expect(JSON.parse(out.join(""))).toEqual({ error: { code: "refused", message: overHttp.replace(/allow_findings$/, "--allow-findings") } });
  });
});
