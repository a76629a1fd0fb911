// The disagreements an outside check found between the document, the server and MCP, one case
// each, against the production server and the real MCP servers (stdio and streamable HTTP).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import Ajv2020 from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capabilities, httpPath, mcpToolName } from "@/lib/capabilities/index";
import { loadPlan } from "@/lib/repo";
import { COMMAND_HINTS } from "@/lib/surfaces/mcp-annotations";
import { type OpenApiDocument, answersValidator } from "../support/openapi-check";
import { CLI, type McpConnection, type RunningServer, ROOT, cleanup, copyRepo, ensureBuild, hashRepo, mcpHttp, mcpStdio, startServer } from "./helpers";

const TOKEN = "s3cret-token-for-the-document-test";
let server: RunningServer;
let guarded: RunningServer;
let stdio: McpConnection;
let document: OpenApiDocument;
let check: ReturnType<typeof answersValidator>;
const plan = loadPlan(copyRepo("cockpit-document-plan-"));
const READY = plan.issues.find((i) => i.status === "READY")!;

beforeAll(async () => {
  const dist = await ensureBuild();
  const repo = copyRepo("cockpit-document-");
  [server, guarded, stdio] = await Promise.all([startServer(dist, repo), startServer(dist, copyRepo("cockpit-document-token-"), { COCKPIT_TOKEN: TOKEN }), mcpStdio(copyRepo("cockpit-document-stdio-"))]);
  document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  check = answersValidator(document);
}, 300_000);

afterAll(async () => {
  await stdio?.close();
  await Promise.all([server?.stop(), guarded?.stop()]);
  cleanup();
});

const post = (url: string, path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("the document tells the whole truth about HTTP", () => {
  it("the document a running server serves passes redocly lint with 0 errors and 0 warnings, offline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-served-openapi-"));
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(document));
      const r = spawnSync(join(ROOT, "node_modules", ".bin", "redocly"), ["lint", join(dir, "openapi.json"), "--format=json"], {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
        timeout: 120_000,
      });
      const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("{"))) as { totals: { errors: number; warnings: number } };
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(document.servers).toEqual([{ url: "/", description: "the server that serves this document" }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("plan.edit: a stale If-Match is 409, the document lists it, and the body fits its schema", async () => {
    const record = await fetch(`${server.url}/api/v1/plan/record?id=${READY.id}`);
    const etag = record.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    expect(check("/api/v1/plan/record", "GET", 200, await record.json())).toEqual([]);
    const before = hashRepo(server.repo);
    const r = await post(server.url, "/api/v1/plan/edit", JSON.stringify({ id: READY.id, set: { priority: "p0" } }), { "if-match": '"not-the-version"' });
    expect(r.status).toBe(409);
    expect(check("/api/v1/plan/edit", "POST", 409, await r.json())).toEqual([]);
    expect(hashRepo(server.repo)).toBe(before);
  });

  it("plan.undo of a change already undone is 409, the document lists it, and the body fits its Conflict schema", async () => {
    const edit = await post(server.url, "/api/v1/plan/edit", JSON.stringify({ id: READY.id, set: { priority: "p0" } }));
    expect(edit.status).toBe(200);
    const { ledger_id } = (await edit.json()) as { ledger_id: number };
    const undo = await post(server.url, "/api/v1/plan/undo", JSON.stringify({ ledger_id }));
    expect(undo.status).toBe(200);
    expect(check("/api/v1/plan/undo", "POST", 200, await undo.json())).toEqual([]);
    const before = hashRepo(server.repo);
    const again = await post(server.url, "/api/v1/plan/undo", JSON.stringify({ ledger_id }));
    expect(again.status).toBe(409);
    const body = (await again.json()) as { error: { code: string; message: string; record: string } };
    expect(body.error).toMatchObject({ code: "conflict", record: READY.id });
    expect(body.error.message).toMatch(/already undone/);
    expect(check("/api/v1/plan/undo", "POST", 409, body)).toEqual([]);
    expect(hashRepo(server.repo)).toBe(before);
  });

  it("/api/v1/sync: POST (no body) is 202 with the sync state, a bad webhook signature 401, GET the state; each fits the document", async () => {
    const asked = await fetch(`${server.url}/api/v1/sync`, { method: "POST" });
    expect(asked.status).toBe(202);
    expect(check("/api/v1/sync", "POST", 202, await asked.json())).toEqual([]);
    const forged = await post(server.url, "/api/v1/sync", "{}", { "x-hub-signature-256": "sha256=00" });
    expect(forged.status).toBe(401);
    expect(check("/api/v1/sync", "POST", 401, await forged.json())).toEqual([]);
    const status = await fetch(`${server.url}/api/v1/sync`);
    expect(status.status).toBe(200);
    expect(check("/api/v1/sync", "GET", 200, await status.json())).toEqual([]);
    // A command's door: without the token, a guarded server refuses the POST (401), as documented.
    const anonymous = await fetch(`${guarded.url}/api/v1/sync`, { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect(check("/api/v1/sync", "POST", 401, await anonymous.json())).toEqual([]);
  });

  it("a read with a wrong token is 401, and a read under a foreign Host 403: both documented on GET", async () => {
    const wrong = await fetch(`${guarded.url}/api/v1/plan/status`, { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
    expect(check("/api/v1/plan/status", "GET", 401, await wrong.json())).toEqual([]);
    const { request } = await import("node:http");
    const foreign = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/plan/status`, { headers: { host: "evil.example" } }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(foreign.status).toBe(403);
    expect(check("/api/v1/plan/status", "GET", 403, JSON.parse(foreign.body))).toEqual([]);
  });

  it("a command with an empty body is 400 and commits nothing (requestBody.required)", async () => {
    const before = hashRepo(server.repo);
    for (const c of capabilities.filter((k) => k.kind === "command")) {
      const path = httpPath(c);
      const r = await post(server.url, path, "");
      expect(r.status, c.id).toBe(400);
      const body = (await r.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/the body is empty/);
      expect(check(path, "POST", 400, body)).toEqual([]);
      expect((document.paths[path].post as unknown as { requestBody: { required: boolean } }).requestBody.required).toBe(true);
    }
    expect(hashRepo(server.repo)).toBe(before);
  });

  it("the document's input schemas refuse what the server refuses: a made-up status, max_parallel out of 1–50, evidence with neither command nor artifact", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...document, $id: "https://cockpit.invalid/d.json" });
    const valid = (name: string, value: unknown) => ajv.validate({ $ref: `https://cockpit.invalid/d.json#/components/schemas/${name}` }, value);
    expect(valid("IssueStatus", "READY")).toBe(true);
    expect(valid("IssueStatus", "ALMOST_DONE")).toBe(false);
    expect(valid("PlansCreateInput", { milestone: "M", config: { max_parallel: 5 } })).toBe(true);
    expect(valid("PlansCreateInput", { milestone: "M", config: { max_parallel: 0 } })).toBe(false);
    expect(valid("PlansCreateInput", { milestone: "M", config: { max_parallel: 51 } })).toBe(false);
    expect(valid("PlanEvidenceInput", { record: "X", covers: "t", type: "test", command: "npm test" })).toBe(true);
    expect(valid("PlanEvidenceInput", { record: "X", covers: "t", type: "test" })).toBe(false);
    expect(valid("PlanEvidenceInput", { record: "X", covers: "t", type: "test", command: "a", artifact: "b" })).toBe(false);
    // …and the server refuses the same.
    const r = await post(server.url, "/api/v1/plans/create", JSON.stringify({ milestone: plan.milestones[0].id, config: { max_parallel: 51 } }));
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain("max_parallel must be at most 50");
  });

  it("an unknown milestone is 404 naming the nearest known ids, on every read but next, which says it widened", async () => {
    const known = plan.milestones[0].id;
    const typo = `${known}x`;
    // (burnup needs git history: the contract suite's time cases refuse its unknown milestone.)
    for (const read of ["status", "issues", "waves", "critical_path", "forecast"]) {
      const r = await fetch(`${server.url}/api/v1/plan/${read}?milestone=${encodeURIComponent(typo)}`);
      expect(r.status, read).toBe(404);
      const body = (await r.json()) as { error: { message: string } };
      expect(body.error.message, read).toContain(known);
      expect(check(`/api/v1/plan/${read}`, "GET", 404, body)).toEqual([]);
    }
    const next = await fetch(`${server.url}/api/v1/plan/next?milestone=${encodeURIComponent(typo)}`);
    expect(next.status).toBe(200);
    const body = (await next.json()) as { issue?: { id: string }; widened?: boolean };
    expect(body.issue).toBeDefined();
    expect(body.widened).toBe(true);
    expect(check("/api/v1/plan/next", "GET", 200, body)).toEqual([]);
    const inScope = (await (await fetch(`${server.url}/api/v1/plan/next?milestone=${encodeURIComponent(READY.milestone)}`)).json()) as { widened?: boolean };
    expect("widened" in inScope).toBe(false);
  });

  it("history?limit=-1 says 'must be 0 or more'", async () => {
    const r = await fetch(`${server.url}/api/v1/plan/history?id=${READY.id}&limit=-1`);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe("limit must be 0 or more");
  });
});

/** What a hint's reason says the same call again does: nothing more (true), more (false), or it does not say (undefined). */
function repeatOf(why: string): boolean | undefined {
  if (/again is refused and writes nothing|again finds them all there and writes nothing|again answers the same ask and writes nothing|a second call finds none/.test(why)) return true;
  if (/again (appends|is refused, the refusal recorded)|a second call (starts|adds|creates|hands|records|commits|renews)|is another change/.test(why)) return false;
  return undefined;
}

describe("MCP to the letter", () => {
  it("arguments that are no object are -32602 with the message, no zod dump and one prefix", async () => {
    const error = await stdio.client.request({ method: "tools/call", params: { name: "plan_next", arguments: [1] as never } }, CallToolResultSchema).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe("MCP error -32602: invalid params of tools/call: params.arguments must be an object, not array");
  });

  it("an unknown tool is -32602, its message prefixed once", async () => {
    const error = await stdio.client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe("MCP error -32602: no tool 'no_such_tool'; tools/list names every one");
  });

  it("a line on stdio that is not JSON is answered -32700 (id null), and the server goes on", async () => {
    const child = spawn(process.execPath, [CLI, "mcp", "--repo", server.repo], { cwd: ROOT, stdio: ["pipe", "pipe", "ignore"] });
    const lines: string[] = [];
    let buffer = "";
    const got = (n: number) =>
      new Promise<void>((resolve) => {
        const look = () => (lines.length >= n ? resolve() : setTimeout(look, 20));
        look();
      });
    child.stdout.on("data", (d: Buffer) => {
      buffer += d.toString();
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      lines.push(...parts.filter(Boolean));
    });
    try {
      child.stdin.write("garbage{\n");
      await got(1);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" })}\n`);
      await got(2);
      expect(JSON.parse(lines[0])).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
      expect(JSON.parse(lines[1])).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    } finally {
      child.kill();
    }
  });

  it("with COCKPIT_TOKEN on loopback, MCP over HTTP initializes and lists tools without it, as HTTP reads", async () => {
    const anonymous = await mcpHttp(guarded.url);
    try {
      const { tools } = await anonymous.client.listTools();
      expect(tools.length).toBe(capabilities.length);
      const { resources } = await anonymous.client.listResources();
      expect(resources.map((r) => r.uri)).toContain("cockpit://plan");
    } finally {
      await anonymous.close();
    }
  });

  describe("every tool's annotations are honest", () => {
    it("every query tool is read-only, idempotent, not destructive, closed-world: it reads the repository and writes nothing", async () => {
      const { tools } = await stdio.client.listTools();
      for (const c of capabilities.filter((k) => k.kind === "query")) {
        expect(tools.find((t) => t.name === mcpToolName(c))?.annotations, c.id).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      }
    });

    it("every command has its hints declared", () => {
      expect(Object.keys(COMMAND_HINTS).sort()).toEqual(capabilities.filter((k) => k.kind === "command").map((k) => k.id).sort());
    });

    it.each(Object.entries(COMMAND_HINTS).map(([id, hints]) => [id, hints.why, hints] as const))("%s is hinted as it is because %s", async (id, why, hints) => {
      const { tools } = await stdio.client.listTools();
      const tool = tools.find((t) => t.name === mcpToolName(capabilities.find((c) => c.id === id)!))!;
      const { why: _said, ...expected } = hints;
      expect(tool.annotations).toMatchObject({ ...expected, readOnlyHint: false });
      // The hints are what the reason says: a repeat with no further effect is idempotent, one that
      // changes more (or records its refusal) is not; unsetting, removing, cancelling, dropping or
      // ending someone else's is destructive; a push reaches beyond the repository.
      expect(repeatOf(why), `${id}: the reason says what the same call again does`).toBeDefined();
      expect(hints.idempotentHint, `${id}: idempotentHint`).toBe(repeatOf(why));
      expect(hints.destructiveHint, `${id}: destructiveHint`).toBe(/\b(unset|remove|cancel|dropping)|someone else's/.test(why));
      expect(hints.openWorldHint, `${id}: openWorldHint`).toBe(/\bpush/.test(why));
    });

    it("the reading of a reason can fail: a refusal that writes nothing is idempotent, one recorded is not, and a reason silent on a repeat is no reason", () => {
      expect(repeatOf("it adds a stamp; the same move again is refused and writes nothing")).toBe(true);
      expect(repeatOf("it completes a child; the same call again is refused, the refusal recorded as an event of the child")).toBe(false);
      expect(repeatOf("it completes a child with its evidence; the same call again is refused")).toBeUndefined();
    });

    it("plan.commit is open-world because it pushes; plan.edit is destructive because it can cancel, unset and remove", () => {
      expect(COMMAND_HINTS["plan.commit"]).toMatchObject({ openWorldHint: true });
      expect(COMMAND_HINTS["plan.edit"]).toMatchObject({ destructiveHint: true });
    });
  });
});
