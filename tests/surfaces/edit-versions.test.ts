// No lost updates: a record's version (its content hash) goes out as the HTTP ETag of plan.record,
// `cockpit plan record ID --version` and MCP's _meta, and comes back as If-Match, if_version,
// --if-version or _meta; a stale one is refused (HTTP 409 with the current record, exit 15). Real
// processes race for one record and for new ids.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUES_DIR, loadPlan, planNext } from "@/lib/repo";
import { recordVersion } from "@/lib/plan/records-with";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { type McpConnection, cleanup, copyRepo, hashRepo, mcpMemory, runCli } from "./helpers";
import { refusalOf } from "../support/processes";

let repo: string;
let mcp: McpConnection;

beforeAll(async () => {
  repo = copyRepo("cockpit-edit-versions-");
  mcp = await mcpMemory(repo);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  cleanup();
});

const READY = () => planNext(loadPlan(repo)).issue!;
const fileOf = (dir: string, id: string) => readFileSync(join(dir, ISSUES_DIR, `${id}.yaml`), "utf8");

function request(method: string, target: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(target, "http://127.0.0.1:3000");
  return handleCapabilityRequest(new Request(url, { method, ...init }), url.pathname, { repo });
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request("POST", path, { body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });

describe("over HTTP", () => {
  it("plan.record carries the record's version as its ETag; an edit with If-Match of it is written, a stale one is 409 with the current record", async () => {
    const id = READY().id;
    const got = await request("GET", `/api/v1/plan/record?id=${id}`);
    expect(got.status).toBe(200);
    const etag = got.headers.get("etag")!;
    expect(etag).toBe(`"${recordVersion(fileOf(repo, id))}"`);

    const ok = await post("/api/v1/plan/edit", { id, set: { priority: "p0" } }, { "if-match": etag });
    expect(ok.status).toBe(200);
    const written = (await ok.json()) as { version: string; previous_version: string };
    expect(written.previous_version).toBe(etag.slice(1, -1));
    expect(written.version).toBe(recordVersion(fileOf(repo, id)));

    const before = hashRepo(repo);
    const stale = await post("/api/v1/plan/edit", { id, set: { priority: "p2" } }, { "if-match": etag });
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { error: { code: string; message: string; version: string; record: { issue: { id: string; priority: string } } } };
    expect(body.error.code).toBe("conflict");
    expect(body.error.message).toMatch(/changed since version/);
    expect(body.error.version).toBe(written.version);
    expect(body.error.record.issue).toMatchObject({ id, priority: "p0" });
    expect(hashRepo(repo)).toBe(before);

    // The body's if_version is used as well, and wins over the header.
    const viaBody = await post("/api/v1/plan/edit", { id, set: { priority: "p1" }, if_version: written.version }, { "if-match": etag });
    expect(viaBody.status).toBe(200);
  });
});

describe("over MCP", () => {
  it("plan.record's _meta carries the version; an edit's _meta carries it back, and a stale one is an error with the current version", async () => {
    const id = READY().id;
    const read = (await mcp.client.callTool({ name: "plan_record", arguments: { id } })) as { _meta?: Record<string, unknown> };
    const version = read._meta?.["cockpit/version"] as string;
    expect(version).toBe(recordVersion(fileOf(repo, id)));
    const ok = (await mcp.client.callTool({ name: "plan_edit", arguments: { id, set: { owner: "mcp" } }, _meta: { "cockpit/if_version": version } })) as {
      isError?: boolean;
      structuredContent?: { written: boolean };
    };
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent?.written).toBe(true);
    const stale = (await mcp.client.callTool({ name: "plan_edit", arguments: { id, set: { owner: "late" } }, _meta: { "cockpit/if_version": version } })) as {
      isError?: boolean;
      content: { text: string }[];
      _meta?: Record<string, unknown>;
    };
    expect(stale.isError).toBe(true);
    expect(stale.content[0].text).toMatch(/changed since version/);
    expect(stale._meta?.["cockpit/error_code"]).toBe("conflict");
    expect((stale._meta?.["cockpit/details"] as { version: string }).version).toBe(recordVersion(fileOf(repo, id)));
  });
});

describe("on the command line, with real processes", () => {
  it("`plan record ID --version` prints the version; a stale --if-version exits 15 and writes nothing", async () => {
    const id = READY().id;
    const v = await runCli(["plan", "record", id, "--version", "--repo", repo]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(recordVersion(fileOf(repo, id)));
    const before = hashRepo(repo);
    const stale = await runCli(["plan", "edit", id, "--set", "priority=p3", "--if-version", "0000000000000000", "--repo", repo]);
    expect(stale.code).toBe(15);
    expect(refusalOf(stale)).toMatch(/^cockpit plan edit: .* changed since version 0000000000000000/);
    expect(hashRepo(repo)).toBe(before);
  });

  it("two processes editing one record against the same version: exactly one wins, the other is refused", async () => {
    for (let round = 0; round < 3; round++) {
      const id = READY().id;
      const version = recordVersion(fileOf(repo, id));
      const [a, b] = await Promise.all(
        // Each writer changes the bytes (an edit that changes nothing keeps the version).
        ["p0", "p3"].map((p) => runCli(["plan", "edit", id, "--set", `priority=${p}`, "--set", `owner=${p}-writer-${round}`, "--if-version", version, "--repo", repo])),
      );
      expect([a.code, b.code].sort()).toEqual([0, 15]);
      const winner = a.code === 0 ? "p0" : "p3";
      const loser = a.code === 0 ? b : a;
      expect(refusalOf(loser)).toMatch(/changed since version/);
      const text = fileOf(repo, id);
      expect(text).toMatch(new RegExp(`priority: ${winner}\\n`));
      expect(text).toMatch(new RegExp(`owner: ${winner}-writer-${round}\\n`));
    }
  });

  it("five processes creating issues at once get five different ids, each in the plan's pattern", async () => {
    const milestone = READY().milestone;
    const beforeIds = new Set(readdirSync(join(repo, ISSUES_DIR)));
    const runs = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        runCli(["plan", "new", "issue", "--milestone", milestone, "--title", `Raced ${n}`, "--add", "acceptance_criteria=ok", "--add", "validation=true", "--json", "--repo", repo]),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const ids = runs.map((r) => (JSON.parse(r.stdout) as { id: string }).id);
    expect(new Set(ids).size).toBe(5);
    const created = readdirSync(join(repo, ISSUES_DIR)).filter((n) => !beforeIds.has(n));
    expect(created.sort()).toEqual(ids.map((id) => `${id}.yaml`).sort());
    const numbers = ids.map((id) => Number(/([0-9]+)$/.exec(id)![1])).sort((x, y) => x - y);
    expect(numbers[4] - numbers[0]).toBe(4);
  });
});
