import Ajv from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpInMemory } from "../support/mcp-memory";
import { cleanupRepos, makePlanRepo } from "../support/repo";

// The MCP listing as a client reads it (the server linked in memory): every tool's input and output
// schema declares its JSON Schema dialect (draft-07) and is a valid schema of that dialect, which a
// validator the project did not write (ajv) compiles; the test prints what the listing weighs, and
// what of it a model reads (names, descriptions, input schemas).

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
let mcp: Client;

beforeAll(async () => {
  const repo = makePlanRepo({ issues: [{ id: "I1" }], commit: true });
  mcp = await mcpInMemory(repo.root, "listing");
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

describe("the MCP listing", () => {
  it("every schema declares draft-07 and validates under it", async () => {
    const { tools } = await mcp.listTools();
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const tool of tools) {
      for (const [what, schema] of [["input", tool.inputSchema], ["output", tool.outputSchema]] as const) {
        if (schema === undefined) continue;
        expect((schema as { $schema?: string }).$schema, `${tool.name} ${what}`).toBe(DRAFT_07);
        expect(ajv.validateSchema(schema), `${tool.name} ${what}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
        expect(() => ajv.compile(schema), `${tool.name} ${what}`).not.toThrow();
      }
      expect(tool.outputSchema, `${tool.name} declares its output`).toBeDefined();
    }
  });

  it("prints what the listing weighs and what a model reads of it", async () => {
    const { tools } = await mcp.listTools();
    const whole = JSON.stringify({ tools }).length;
    const read = JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).length;
    const outputs = JSON.stringify(tools.map((t) => t.outputSchema)).length;
    console.log(`MCP tools/list: ${tools.length} tools, ${(whole / 1024).toFixed(1)} KB in all (output schemas ${(outputs / 1024).toFixed(1)} KB); a model reads ${(read / 1024).toFixed(1)} KB`);
    expect(read).toBeLessThan(whole);
    expect(outputs).toBeLessThan(whole);
  });
});
