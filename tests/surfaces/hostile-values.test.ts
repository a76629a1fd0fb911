// Hostile values through a served Cockpit (`next start` over a real git repository) and `cockpit
// mcp`: a control character in an edit is 400 naming the field, a NUL an earlier writer left
// commits escaped, a leftover index.lock is 422 naming it, and a push that waits on its remote
// holds no other request.

import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AT, LEDGER, cleanupRepos, gatedRemote, makePlanRepo, type PlanRepo } from "../support/repo";
import { type McpConnection, type RunningServer, cleanup, ensureBuild, mcpMemory, startServer } from "./helpers";

let dist: string;
let repo: PlanRepo;
let server: RunningServer;
let mcp: McpConnection;

beforeAll(async () => {
  dist = await ensureBuild();
  repo = makePlanRepo({ issues: [{ id: "I0001" }, { id: "I0002" }], files: { ".gitignore": ".ai/local/\n" }, commit: true });
  server = await startServer(dist, repo.root);
  mcp = await mcpMemory(repo.root);
}, 600_000);

afterAll(async () => {
  await mcp?.close();
  await server?.stop();
  cleanup();
  cleanupRepos();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}/api/v1/plan/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function errorOf(r: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await r.json()) as { error?: { code: string; message: string } };
  return { status: r.status, code: body.error?.code ?? "", message: body.error?.message ?? "" };
}

describe("control characters in values, over HTTP and MCP", () => {
  it("plan.edit, plan.create and plan.evidence refuse a NUL with 400 naming the field, and write nothing", async () => {
    const before = repo.snapshot();
    const edit = await errorOf(await post("edit", { id: "I0001", set: { title: "Before\u0000After" } }));
    expect(edit).toMatchObject({ status: 400, code: "invalid_input", message: expect.stringMatching(/^title holds the control character U\+0000/) });
    const prose = await errorOf(await post("edit", { id: "I0001", set: { objective: "ok\u0000" } }));
    expect(prose).toMatchObject({ status: 400, message: expect.stringMatching(/^objective holds/) });
    const create = await errorOf(
      await post("create", { kind: "issue", milestone: "M1", title: "New\nissue", add: { acceptance_criteria: ["ok"], validation: ["true"] } }),
    );
    expect(create).toMatchObject({ status: 400, message: expect.stringMatching(/^title is one line/) });
    const evidence = await errorOf(await post("evidence", { record: "I0001", covers: "proof", type: "test", command: "npm test", result: "ok\u0000" }));
    expect(evidence).toMatchObject({ status: 400, message: expect.stringMatching(/^result holds the control character U\+0000/) });
    const viaMcp = (await mcp.client.callTool({ name: "plan_edit", arguments: { id: "I0001", set: { title: "Before\u0000After" } } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content[0].text).toMatch(/title holds the control character U\+0000/);
    expect(repo.snapshot()).toEqual(before);
  });
});

describe("plan.commit over HTTP", () => {
  it("commits a NUL an earlier writer left in a title and its ledger line, escaped (it was a 500)", async () => {
    writeFileSync(repo.issuePath("I0001"), repo.read("I0001").replace("title: Issue I0001", 'title: "Before\\0After"'));
    const line = { ts: AT, event: "plan_record_edited", head: repo.git("rev-parse", "HEAD"), branch: "main", by: "alice", record: "I0001", kind: "issue", changes: "set title=Before\u0000After" };
    mkdirSync(dirname(repo.path(LEDGER)), { recursive: true });
    appendFileSync(repo.path(LEDGER), JSON.stringify(line) + "\n");
    const r = await post("commit", {});
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ committed: true, count: 1 });
    expect(repo.git("log", "-1", "--format=%B")).toContain("- I0001: edit: set title=Before\\x00After [alice]");
  });

  it("a leftover .git/index.lock is 422 naming it and how to check that no git process runs", async () => {
    writeFileSync(repo.issuePath("I0002"), repo.read("I0002") + "owner: bob\n");
    writeFileSync(repo.path(".git/index.lock"), "");
    const head = repo.git("rev-parse", "HEAD");
    try {
      const refused = await errorOf(await post("commit", {}));
      expect(refused).toMatchObject({ status: 422, code: "refused" });
      expect(refused.message).toContain("check that no git process is running in this repository (ps), then remove .git/index.lock");
      expect(repo.git("rev-parse", "HEAD")).toBe(head);
    } finally {
      rmSync(repo.path(".git/index.lock"), { force: true });
    }
  });

  it("while a commit's push waits on its remote, the server answers other requests", async () => {
    // A repository and a server of its own, so that nothing an earlier case left plays a part.
    const own = makePlanRepo({ issues: [{ id: "I0001" }], files: { ".gitignore": ".ai/local/\n" }, commit: true });
    const served = await startServer(dist, own.root);
    const { gate, outcome } = gatedRemote(own.root);
    writeFileSync(own.issuePath("I0001"), own.read("I0001") + "owner: bob\n");
    const committing = fetch(`${served.url}/api/v1/plan/commit`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    // Once the commit is made (its push is then waiting), a read is answered, and only then is the gate opened.
    const deadline = Date.now() + 20_000;
    while (!own.git("log", "-1", "--format=%B").includes("I0001") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const read = await fetch(`${served.url}/api/v1/plan/next`);
    expect(read.status).toBe(200);
    writeFileSync(gate, "");
    const done = await committing.finally(() => served.stop());
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ committed: true, push: { remote: "origin", status: "failed" } });
    expect(outcome()).toBe("released");
  }, 60_000);
});
