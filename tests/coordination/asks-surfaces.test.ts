import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { GET as events } from "@/app/api/v1/events/route";
import { findCapability, httpPath } from "@/lib/capabilities/index";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { openApiDocument } from "@/lib/surfaces/openapi";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { mcpInMemory } from "../support/mcp-memory";
import { answersValidator, type OpenApiDocument } from "../support/openapi-check";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// Asks on every surface in process: an agent asks over MCP (linked in memory), a person answers
// through the HTTP route handler, and the agent's wait (an HTTP long poll, an MCP call, the
// command line) ends with the answer; every answer holds to the OpenAPI document.

let repo: PlanRepo;
let mcp: Client;
let check: ReturnType<typeof answersValidator>;
beforeAll(async () => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }, { id: "I2" }], commit: true });
  mcp = await mcpInMemory(repo.root, "asking-agent");
  check = answersValidator(openApiDocument() as OpenApiDocument);
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

async function http(capability: string, input: Record<string, unknown>, actor?: string) {
  const c = findCapability(capability)!;
  const url = new URL(`http://127.0.0.1${httpPath(c)}`);
  const headers: Record<string, string> = actor ? { "x-cockpit-actor": actor } : {};
  let request: Request;
  if (c.kind === "query") {
    for (const [k, v] of Object.entries(input)) url.searchParams.set(k, String(v));
    request = new Request(url, { headers });
  } else {
    request = new Request(url, { method: "POST", body: JSON.stringify(input), headers: { ...headers, "content-type": "application/json" } });
  }
  const response = await handleCapabilityRequest(request, url.pathname, { repo: repo.root });
  const body = (await response.json()) as Record<string, unknown>;
  expect(check(url.pathname, c.kind === "query" ? "GET" : "POST", response.status, body)).toEqual([]);
  return { status: response.status, body };
}

async function tool(name: string, args: Record<string, unknown>) {
  const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent!;
}

async function cli(...argv: string[]) {
  const out: string[] = [];
  const code = await runPlanCommand([...argv, "--repo", repo.root, "--json"], { out: (t) => out.push(t), err: () => undefined });
  return { code, value: JSON.parse(out.join("\n")) as Record<string, unknown> };
}

describe("asks across the surfaces", () => {
  it("an MCP agent asks and waits; a person answers over HTTP; the long poll, the MCP wait and the command line all get the answer", async () => {
    const claim = await tool("plan_claim", {});
    const asked = await tool("plan_ask", { issue: claim.issue, question: "Which region?", kind: "choose", options: ["eu-west-1", "us-east-1"] });
    expect(asked).toMatchObject({ state: "open", kind: "choose", session: claim.session, repeated: false });
    expect(String(asked.asker)).toMatch(/^asking-agent#/);
    expect(asked.asker_kind).toBe("agent");

    // The same answer on every surface while it is open.
    const inboxHttp = await http("plan.inbox", {});
    const inboxMcp = await tool("plan_inbox", {});
    const inboxCli = await cli("inbox");
    expect(inboxCli.code).toBe(0);
    const ids = (v: Record<string, unknown>) => (v.asks as { id: string }[]).map((a) => a.id);
    expect(ids(inboxHttp.body)).toEqual([asked.id]);
    expect(ids(inboxMcp)).toEqual([asked.id]);
    expect(ids(inboxCli.value)).toEqual([asked.id]);

    // The agent's MCP client may not answer its own ask.
    const own = (await mcp.callTool({ name: "plan_answer", arguments: { id: asked.id, choice: "eu-west-1" } })) as { isError?: boolean; content: { text: string }[] };
    expect(own.isError).toBe(true);
    expect(own.content[0].text).toContain("an agent never answers an ask");

    const started = Date.now();
    const longPoll = http("plan.wait", { id: String(asked.id), timeout: 30 });
    const mcpWait = tool("plan_wait", { id: asked.id, timeout: 30 });
    await new Promise((r) => setTimeout(r, 200));
    const answered = await http("plan.answer", { id: asked.id, choice: "us-east-1", comment: "closer to the users" }, "lead");
    expect(answered.status).toBe(200);
    const [polled, waited] = await Promise.all([longPoll, mcpWait]);
    // Woken by the answer, not by the 30 s timeout.
    expect(Date.now() - started).toBeLessThan(15_000);
    for (const w of [polled.body, waited]) {
      expect(w).toMatchObject({ id: asked.id, state: "answered", ended_by: "lead", answer: { choice: "us-east-1", comment: "closer to the users" }, timed_out: false, max_wait_s: 50 });
    }
    const again = await cli("wait", String(asked.id));
    expect(again).toMatchObject({ code: 0, value: { state: "answered", answer: { choice: "us-east-1" } } });

    const conflict = await http("plan.answer", { id: asked.id, choice: "eu-west-1" }, "lead");
    expect(conflict.status).toBe(409);
    expect((conflict.body.error as { message: string }).message).toContain(`ask ${String(asked.id)} was already answered by lead`);
    const unknown = await http("plan.answer", { id: "a-ffffffffffff", yes: true }, "lead");
    expect(unknown.status).toBe(404);
  });

  it("a wait over HTTP is bounded by max_wait_s, and answers timed_out with the ask still open", async () => {
    const asked = await http("plan.ask", { issue: "I2", question: "Still wanted?" }, "lead");
    expect(asked.status).toBe(200);
    const waited = await http("plan.wait", { id: String(asked.body.id), timeout: 0.2 });
    expect(waited.body).toMatchObject({ state: "open", timed_out: true, max_wait_s: 50 });
    const repeated = await http("plan.ask", { issue: "I2", question: "Still wanted?" }, "lead");
    expect(repeated.body).toMatchObject({ id: asked.body.id, repeated: true });
    const bad = await http("plan.ask", { issue: "I2", question: "Still wanted?", kind: "maybe" }, "lead");
    expect(bad.status).toBe(400);
    expect((bad.body.error as { message: string }).message).toContain("kind must be one of approve, choose, answer");
  });

  it("the live events say when an ask opens and when it is answered (event: ask), so a page refreshes its inbox", async () => {
    const saved = process.env.COCKPIT_REPO;
    process.env.COCKPIT_REPO = repo.root;
    const aborted = new AbortController();
    try {
      const response = await events(new Request("http://127.0.0.1/api/v1/events", { signal: aborted.signal }));
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      const reader = response.body!.getReader();
      let text = "";
      const until = async (needle: string) => {
        while (!text.includes(needle)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended before ${needle}`);
          text += new TextDecoder().decode(value);
        }
      };
      const asked = await http("plan.ask", { issue: "I1", question: "Live?" }, "lead");
      await until(`event: ask\ndata: {"id":"${String(asked.body.id)}","issue":"I1","state":"open"}`);
      await http("plan.answer", { id: asked.body.id, text: "yes" }, "boss");
      await until(`event: ask\ndata: {"id":"${String(asked.body.id)}","issue":"I1","state":"answered"}`);
    } finally {
      aborted.abort();
      if (saved === undefined) delete process.env.COCKPIT_REPO;
      else process.env.COCKPIT_REPO = saved;
    }
  });
});
