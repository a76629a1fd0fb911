import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { loadPlan } from "@/lib/repo";
import { hashRepo, mcpMemory } from "../surfaces/helpers";
import { newRepo, removeTempDirs } from "../support/history";
import { ensureCliBuilt, jsonOf, spawnCli, refusalOf } from "../support/processes";

// plan.import through the real command (`node bin/cockpit plan import …`, a process), over HTTP
// (the route handler the server mounts) and over MCP (`cockpit mcp`, a real client), each on a real
// git repository.

const FIXTURES = join(__dirname, "..", "fixtures", "import");

beforeAll(() => ensureCliBuilt(), 120_000);
afterAll(removeTempDirs);

describe("cockpit plan import (the process)", () => {
  it("imports a Backlog.md folder, exits 0 with findings, and --dry-run first writes nothing", async () => {
    const repo = newRepo("cockpit-import-cli-");
    const before = hashRepo(repo);
    const dry = jsonOf(await spawnCli(["import", "backlog", join(FIXTURES, "backlog"), "--repo", repo, "--dry-run", "--json"]));
    expect(hashRepo(repo)).toBe(before);
    expect(dry.dry_run).toBe(true);
    const real = await spawnCli(["import", "backlog", join(FIXTURES, "backlog"), "--repo", repo, "--json"]);
    expect(real.code).toBe(0);
    const answer = JSON.parse(real.stdout);
    expect(answer.findings.length).toBeGreaterThan(0);
    expect(answer.created).toEqual(dry.created);
    expect(loadPlan(repo).issues.map((i) => i.id).sort()).toEqual([...answer.created.issues].sort());
    const text = await spawnCli(["import", "backlog", join(FIXTURES, "backlog"), "--repo", repo]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^import: nothing created/);
  });

  it("takes --prefix and --dependencies for github, and names a usage mistake", async () => {
    const repo = newRepo("cockpit-import-cli-");
    const r = jsonOf(
      await spawnCli(["import", "github", join(FIXTURES, "github", "issues.json"), "--dependencies", join(FIXTURES, "github", "dependencies.json"), "--prefix", "WEB", "--repo", repo, "--json"]),
    );
    expect(r.created.issues).toEqual(["WEB-12", "WEB-7", "WEB-15"]);
    expect(loadPlan(repo).issues.find((i) => i.id === "WEB-12")?.depends_on).toEqual(["WEB-7"]);
    const bad = await spawnCli(["import", "jira", "x", "--repo", repo]);
    expect(bad.code).toBe(2);
    expect(refusalOf(bad)).toMatch(/'jira' is not a format; the formats are beads, backlog, taskmaster, github/);
    const prefixed = await spawnCli(["import", "beads", join(FIXTURES, "beads", "issues.jsonl"), "--prefix", "X", "--repo", repo]);
    expect(prefixed.code).toBe(2);
    expect(refusalOf(prefixed)).toMatch(/kept as the source writes them/);
    const missing = await spawnCli(["import", "beads", join(FIXTURES, "nothing-here.jsonl"), "--repo", repo]);
    expect(missing.code).toBe(12);
  });
});

describe("POST /api/v1/plan/import", () => {
  const post = (repo: string, body: unknown) =>
    handleCapabilityRequest(
      new Request("http://127.0.0.1/api/v1/plan/import", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      "/api/v1/plan/import",
      { repo },
    );

  it("imports the source sent as files, and a second post creates nothing", async () => {
    const repo = newRepo("cockpit-import-http-");
    const files = { ".taskmaster/tasks/tasks.json": readFileSync(join(FIXTURES, "taskmaster", ".taskmaster", "tasks", "tasks.json"), "utf8") };
    const first = await post(repo, { format: "taskmaster", files, source: "tasks.json" });
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer.created.milestones).toEqual(["master", "feature-kanban", "experiment"]);
    expect(loadPlan(repo).issues.length).toBe(answer.created.issues.length);
    const second = await (await post(repo, { format: "taskmaster", files, source: "tasks.json" })).json();
    expect(second.created).toEqual({ milestones: [], issues: [] });
    expect(second.summary).toMatch(/^nothing created/);
  });

  it("refuses an unknown field and an unknown format with 400, writing nothing", async () => {
    const repo = newRepo("cockpit-import-http-");
    const before = hashRepo(repo);
    expect((await post(repo, { format: "beads", files: { a: "" }, overwrite: true })).status).toBe(400);
    expect((await post(repo, { format: "jira", files: { a: "" } })).status).toBe(400);
    expect((await post(repo, { format: "beads", files: {} })).status).toBe(400);
    expect(hashRepo(repo)).toBe(before);
  });
});

describe("plan_import (MCP, linked in memory)", () => {
  it("imports a GitHub export with its dependencies, and a dry run first writes nothing", async () => {
    const repo = newRepo("cockpit-import-mcp-");
    const mcp = await mcpMemory(repo);
    try {
      const args = {
        format: "github",
        files: { "issues.json": readFileSync(join(FIXTURES, "github", "issues.json"), "utf8") },
        dependencies: readFileSync(join(FIXTURES, "github", "dependencies.json"), "utf8"),
      };
      const before = hashRepo(repo);
      const dry = await mcp.client.callTool({ name: "plan_import", arguments: { ...args, dry_run: true } });
      expect(dry.isError).toBeFalsy();
      expect(hashRepo(repo)).toBe(before);
      const real = await mcp.client.callTool({ name: "plan_import", arguments: args });
      const answer = real.structuredContent as { created: { issues: string[] }; findings: { code: string; subject: string }[] };
      expect(answer.created.issues).toEqual(["GH-12", "GH-7", "GH-15"]);
      expect(answer.findings).toContainEqual(expect.objectContaining({ code: "unknown_dependency", subject: "GH-15" }));
      expect(loadPlan(repo).issues.find((i) => i.id === "GH-7")?.status).toBe("DONE");
      const refused = await mcp.client.callTool({ name: "plan_import", arguments: { ...args, prefix: "bad prefix" } });
      expect(refused.isError).toBe(true);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
