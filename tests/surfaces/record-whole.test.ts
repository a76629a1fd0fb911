import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { openApiDocument } from "@/lib/surfaces/openapi";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { type OpenApiDocument, answersValidator } from "../support/openapi-check";
import { mcpInMemory } from "../support/mcp-memory";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// One call gives the whole issue: plan.record answers, beside the reference's members, the record
// as its file writes it (owner, acceptance criteria, validation, …) and its evidence by name, the
// same on the command line (--json), over HTTP and over MCP.

let repo: PlanRepo;
let mcp: Client;
beforeAll(async () => {
  repo = makePlanRepo({
    issues: [
      { id: "I1", evidence_required: ["unit_tests", "bounce_handling"], extra: "owner: ana\nevidence:\n  - covers: unit_tests\n    type: test\n    command: npm test\n" },
      { id: "I2", depends_on: ["I1"] },
    ],
    commit: true,
  });
  mcp = await mcpInMemory(repo.root, "record-whole");
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

async function cliJson(argv: string[]): Promise<Record<string, unknown>> {
  const out: string[] = [];
  const code = await runPlanCommand([...argv, "--repo", repo.root, "--json"], { out: (t) => out.push(t), err: () => undefined });
  expect(code).toBe(0);
  return JSON.parse(out.join("")) as Record<string, unknown>;
}

async function httpJson(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = `http://127.0.0.1/api/v1/plan/record?${query}`;
  const response = await handleCapabilityRequest(new Request(url), "/api/v1/plan/record", { repo: repo.root });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("plan.record gives the whole record in one call", () => {
  it("an issue's fields as written and its evidence by name, the same on every surface", async () => {
    const overCli = await cliJson(["record", "I1"]);
    expect(overCli.record).toMatchObject({
      id: "I1",
      owner: "ana",
      objective: "Objective of I1",
      scope: ["src/I1"],
      acceptance_criteria: ["it works"],
      validation: ["true"],
      evidence_required: ["unit_tests", "bounce_handling"],
      evidence: [{ covers: "unit_tests", type: "test", command: "npm test" }],
    });
    expect(overCli.evidence).toEqual({ required: ["unit_tests", "bounce_handling"], covered: ["unit_tests"], missing: ["bounce_handling"] });
    // The reference's members stay as they were.
    expect(overCli.issue).toMatchObject({ id: "I1", evidence_have: 1, evidence_need: 2 });
    expect(overCli.depends_on).toEqual([]);

    const overHttp = await httpJson("id=I1");
    expect(overHttp.status).toBe(200);
    expect(overHttp.body).toEqual(overCli);
    const overMcp = (await mcp.callTool({ name: "plan_record", arguments: { id: "I1" } })) as { isError?: boolean; structuredContent: unknown };
    expect(overMcp.isError).toBeFalsy();
    expect(overMcp.structuredContent).toEqual(overCli);
  });

  it("a milestone's too", async () => {
    const answer = await cliJson(["record", "M1"]);
    expect(answer.record).toMatchObject({ id: "M1" });
    expect(answer.evidence).toEqual({ required: [], covered: [], missing: [] });
    expect((answer.issues as { id: string }[]).map((i) => i.id)).toEqual(["I1", "I2"]);
  });

  it("the answers hold to the OpenAPI document", async () => {
    const check = answersValidator(openApiDocument() as OpenApiDocument);
    for (const id of ["I1", "I2", "M1"]) {
      const r = await httpJson(`id=${id}`);
      expect(check("/api/v1/plan/record", "GET", 200, r.body)).toEqual([]);
    }
  });

  it("at a revision the answer is the derivation's alone (the file as written is the one of now)", async () => {
    const answer = await cliJson(["record", "I1", "--at", "HEAD"]);
    expect(answer).not.toHaveProperty("record");
    expect(answer).not.toHaveProperty("evidence");
    expect(answer).toHaveProperty("at");
  });
});
