import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCli } from "../support/processes";
import { ROOT } from "../support/repo";
import { actorOfClone, cloneOf, makeOrigin, usePostgresCluster } from "./clones";

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
  it("shows a lease held in another clone, refuses its start naming the holder, and renews no lease on anyone's behalf while it runs", async () => {
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
    expect(leased.lease!.holder).toBe(actorOfClone(a));
    const next = (await inB.callTool({ name: "plan_next", arguments: {} })) as unknown as { structuredContent: { issue: { id: string } } };
    expect(next.structuredContent.issue.id).toBe("I0002");
    const start = (await inB.callTool({ name: "plan_transition", arguments: { issue: "I0001", transition: "start" } })) as { isError?: boolean; content: { text: string }[] };
    expect(start.isError).toBe(true);
    expect(start.content[0].text).toContain(`I0001 is held by ${actorOfClone(a)} (session `);
    expect(start.content[0].text).toContain(`since ${leased.lease!.since}`);
    await inB.close();

    // An MCP server running on clone a does not keep a's lease alive: only the session's own word
    // (a heartbeat, evidence) does, so a silent agent's issue is open to reclaim once its lease ends.
    const live = () => cluster.server.sql("SELECT count(*) FROM cockpit_sessions WHERE ended IS NULL AND expires::timestamptz > now()", "served");
    const inA = await mcpOn(a, { ...env, COCKPIT_ACTOR: actorOfClone(a) });
    const beat = (await inA.callTool({ name: "plan_heartbeat", arguments: { issue: "I0001", note: "still here" } })) as { isError?: boolean; structuredContent?: { note: string } };
    expect(beat.isError, JSON.stringify(beat)).toBeFalsy();
    expect(beat.structuredContent?.note).toBe("still here");
    expect(live()).toBe("1");
    await new Promise((r) => setTimeout(r, 3000));
    expect(live()).toBe("0");
    await inA.close();
  }, 60_000);
});
