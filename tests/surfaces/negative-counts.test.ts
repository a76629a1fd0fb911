import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";
import { ensureCliBuilt, spawnCli, refusalOf } from "../support/processes";
import { type McpConnection, mcpMemory } from "./helpers";

// A negative count (`--limit -5`, `?wave=-5`) is refused in the same words on every surface:
// "must be 0 or more", never a type error, an internal prefix or a NUL.

let repo: PlanRepo;
let mcp: McpConnection;
beforeAll(async () => {
  ensureCliBuilt();
  repo = makePlanRepo({ issues: [{ id: "I1" }], commit: true });
  mcp = await mcpMemory(repo.root);
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

describe("a negative count on the command line", () => {
  it.each([
    [["history", "I1", "--limit", "-5"], "--limit must be 0 or more, not '-5'"],
    [["history", "I1", "--limit=-5"], "--limit must be 0 or more, not '-5'"],
    [["issues", "--wave", "-5"], "--wave must be 0 or more, not '-5'"],
    [["forecast", "--milestone", "M1", "--seed", "-1"], "--seed must be 0 or more, not '-1'"],
    [["code", "--stale-days", "-1"], "--stale-days must be 0 or more, not '-1'"],
    [["standup", "--since", "HEAD", "--stuck", "-1"], "--stuck must be 0 or more, not '-1'"],
  ])("cockpit plan %j says %s and exits 2", async (args, message) => {
    const r = await spawnCli([...args, "--repo", repo.root]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`cockpit plan ${args[0]}: ${message}`);
    expect(refusalOf(r)).not.toContain("\u0000");
  });

  it("--limit 0 answers no entry and says that some were left out", async () => {
    const r = await spawnCli(["history", "I1", "--limit", "0", "--json", "--repo", repo.root]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ entries: [], truncated: true });
  });
});

describe("a negative count over HTTP and MCP", () => {
  const http = async (path: string) => {
    const response = await handleCapabilityRequest(new Request(`http://127.0.0.1${path}`), new URL(`http://127.0.0.1${path}`).pathname, { repo: repo.root });
    return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
  };

  // The name said once, as the command line says it: never "limit: limit must…" or "is at least 0".
  it.each([
    ["/api/v1/plan/history?id=I1&limit=-5", "limit must be 0 or more"],
    ["/api/v1/plan/issues?wave=-5", "wave must be 0 or more"],
    ["/api/v1/plan/forecast?milestone=M1&seed=-1", "seed must be 0 or more"],
    ["/api/v1/plan/code?stale_days=-1", "stale_days must be 0 or more"],
    ["/api/v1/plan/standup?since=HEAD&stuck=-1", "stuck must be 0 or more"],
  ])("GET %s is a 400 saying %s", async (path, message) => {
    const r = await http(path);
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toBe(message);
  });

  it.each([
    ["plan_history", { id: "I1", limit: -5 }, "limit must be 0 or more"],
    ["plan_issues", { wave: -5 }, "wave must be 0 or more"],
    ["plan_code", { stale_days: -1 }, "stale_days must be 0 or more"],
    ["plan_standup", { since: "HEAD", stuck: -1 }, "stuck must be 0 or more"],
  ])("MCP %s %j is an error saying %s", async (name, args, message) => {
    const result = (await mcp.client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(message);
  });
});
