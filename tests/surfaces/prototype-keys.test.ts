import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, describe, expect, it } from "vitest";
import { contextFor } from "@/lib/server/state";
import { createMcpServer } from "@/lib/surfaces/mcp";
import { cleanup, copyRepo } from "./helpers";

// The MCP server, linked in process to a real client: an import whose statuses and priorities are
// Object.prototype's names answers, nothing lands on Object.prototype, and the tools after it
// answer as before (the served import once made every later command 400 and read 500).

const WORDS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

afterAll(cleanup);

describe("plan_import over MCP with Object.prototype's names", () => {
  it("answers, writes nothing onto Object.prototype, and plan_waves and plan_create answer after", async () => {
    const repo = copyRepo("cockpit-prototype-mcp-");
    const server = createMcpServer(() => contextFor(repo));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "prototype-keys", version: "1" });
    await client.connect(clientSide);
    try {
      // The tools' prefix is configuration (plan_… or majordomus_plan_…): named as the server lists them.
      const names = (await client.listTools()).tools.map((t) => t.name);
      const tool = (suffix: string) => names.find((n) => n.endsWith(suffix))!;
      const lines = WORDS.map((w, n) => JSON.stringify(Object.fromEntries([["id", `P-${n}`], ["title", w], ["status", w], ["priority", w], [w, w]])));
      const imported = await client.callTool({ name: tool("plan_import"), arguments: { format: "beads", files: { "issues.jsonl": lines.join("\n") }, dry_run: true } });
      expect(imported.isError, JSON.stringify(imported.content)).toBeFalsy();
      expect(Object.keys((imported.structuredContent as { mapped: object }).mapped)).toEqual(expect.arrayContaining(["constructor", "toString"]));
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
      const waves = await client.callTool({ name: tool("plan_waves"), arguments: {} });
      expect(waves.isError, JSON.stringify(waves.content)).toBeFalsy();
      const created = await client.callTool({ name: tool("plan_create"), arguments: { kind: "issue", title: "after", milestone: "booking", dry_run: true } });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    } finally {
      await client.close();
      await server.close();
    }
  });
});
