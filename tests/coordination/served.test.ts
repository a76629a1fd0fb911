import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCli } from "../support/processes";
import { ROOT } from "../support/repo";
import { cloneOf, holderIdOf, makeOrigin, usePostgresCluster } from "./clones";

// The long-running surfaces on a database: MCP shows leases and renews its clone's leases.

const cluster = usePostgresCluster("served");


async function mcpOn(repo: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "bin", "cockpit"), "mcp", "--repo", repo],
    cwd: ROOT,
    env: { ...(Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string"))), ...env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", () => undefined);
  const client = new Client({ name: "cockpit-lease-tests", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("MCP on a shared database", () => {
  it("shows a lease held in another clone, refuses its start naming the holder, and renews its own clone's leases while it runs", async () => {
    cluster.server.createDatabase("served");
    const url = cluster.server.urlFor("served");
    const origin = makeOrigin(3);
    const [a, b] = [cloneOf(origin, "a"), cloneOf(origin, "b")];
    const env = { COCKPIT_DATABASE_URL: url, COCKPIT_LEASE_TTL_S: "2" };
    expect((await spawnCli(["start", "I0001", "--repo", a], { env })).code).toBe(0);

    const inB = await mcpOn(b, env);
    const issues = (await inB.callTool({ name: "plan_issues", arguments: {} })) as unknown as { structuredContent: { issues: { id: string; status: string; lease?: { holder: string; since: string } }[] } };
    const leased = issues.structuredContent.issues.find((i) => i.id === "I0001")!;
    expect(leased.status).toBe("READY");
    expect(leased.lease!.holder).toBe(holderIdOf(a));
    const next = (await inB.callTool({ name: "plan_next", arguments: {} })) as unknown as { structuredContent: { issue: { id: string } } };
    expect(next.structuredContent.issue.id).toBe("I0002");
    const start = (await inB.callTool({ name: "plan_transition", arguments: { issue: "I0001", transition: "start" } })) as { isError?: boolean; content: { text: string }[] };
    expect(start.isError).toBe(true);
    expect(start.content[0].text).toContain(`I0001 is held by ${holderIdOf(a)} since ${leased.lease!.since}`);
    await inB.close();

    // An MCP session on clone a renews a's lease (every half second with a 2 s lease) while it runs.
    const inA = await mcpOn(a, env);
    await new Promise((r) => setTimeout(r, 3500));
    expect(cluster.server.sql("SELECT count(*) FROM cockpit_leases WHERE expires > now()", "served")).toBe("1");
    await inA.close();
    await new Promise((r) => setTimeout(r, 2500));
    expect(cluster.server.sql("SELECT count(*) FROM cockpit_leases WHERE expires > now()", "served")).toBe("0");
  }, 60_000);
});
