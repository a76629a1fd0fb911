import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capabilities, httpPath, mcpToolName, type AnyCapability } from "@/lib/capabilities/index";
import { loadPlan } from "@/lib/repo";
import { STORE_FILE } from "@/lib/execution/store";
import { type McpConnection, type RunningServer, SOURCE_REPO, cleanup, copyRepo, ensureBuild, mcpHttp, mcpMemory, runCli, startServer } from "./helpers";

// A read leaves the repository as it found it: no folder, no database, no lock, no ledger line.
// Every query capability is read through every surface (HTTP, MCP in memory and over HTTP, the
// command line) and every page is opened, on a repository with no `.ai/local`; its whole tree,
// folders included, is the same before and after. Then a command creates the store as before.

const plan = loadPlan(SOURCE_REPO);
const MILESTONE = plan.project.active_milestone || plan.milestones[0].id;
const ISSUE = plan.issues[0].id;
const NO_PLAN = "01JAAAAAAAAAAAAAAAAAAAAAAA";

/** Every entry under a folder, folders and links included, with the bytes of each file. */
function tree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => {
      const path = join(e.parentPath, e.name);
      const rel = relative(dir, path);
      const st = lstatSync(path);
      if (st.isDirectory()) return `${rel}/`;
      if (st.isSymbolicLink()) return `${rel} -> ${readlinkSync(path)}`;
      return `${rel} ${st.size} ${readFileSync(path).toString("base64")}`;
    })
    .sort();
}

/** The input each query is read with: ids that exist where one is needed, and one that does not. */
/** The queries that read the git history. */
const TIME_QUERIES = new Set(["plan.changes", "plan.history", "plan.burnup", "plan.standup", "plan.digest"]);

function inputsOf(c: AnyCapability): Record<string, string>[] {
  switch (c.id) {
    case "plan.record":
      return [{ id: ISSUE }, { id: MILESTONE }];
    case "plans.get":
      return [{ id: NO_PLAN }];
    case "plan.status":
    case "plan.waves":
    case "plan.next":
    case "plan.critical_path":
      return [{}, { milestone: MILESTONE }];
    case "plan.changes":
    case "plan.standup":
    case "plan.digest":
      return [{ since: "HEAD" }];
    case "plan.history":
      return [{ id: ISSUE }];
    case "plan.wait":
      // No ask was ever opened here: not found at once, and nothing is made to look for it.
      return [{ id: "a-000000000000", timeout: "0" }];
    case "plan.inbox":
      return [{}, { issue: ISSUE }];
    case "plan.code":
      return [{}, { id: ISSUE }];
    case "plan.burnup":
    case "plan.forecast":
      return [{ milestone: MILESTONE }];
    default:
      return [{}];
  }
}

/** The command line's words for a query and its input. */
function cliWords(c: AnyCapability, input: Record<string, string>): string[] {
  const [group, verb] = c.id.split(".");
  const words = group === "plans" ? ["plans", verb] : ["plan", verb];
  if (input.id !== undefined) words.push(input.id);
  for (const [k, v] of Object.entries(input)) if (k !== "id") words.push(`--${k}`, v);
  return words;
}

const QUERIES = capabilities.filter((c) => c.kind === "query");
const PAGES = ["/", "/waves", "/roadmap", "/findings", "/plans", `/plans/${NO_PLAN}`, `/issues/${ISSUE}`, `/milestones/${MILESTONE}`];

let repo: string;
let server: RunningServer;
let inMemory: McpConnection;
let overHttp: McpConnection;
let before: string[];

beforeAll(async () => {
  repo = copyRepo("cockpit-reads-");
  expect(existsSync(join(repo, ".ai", "local"))).toBe(false);
  before = tree(repo);
  const dist = await ensureBuild();
  server = await startServer(dist, repo);
  [inMemory, overHttp] = await Promise.all([mcpMemory(repo), mcpHttp(server.url)]);
}, 600_000);

afterAll(async () => {
  await Promise.all([inMemory?.close(), overHttp?.close()]);
  await server?.stop();
  cleanup();
});

describe("reads never write", () => {
  it("lists the execution plans' queries among the queries read here", () => {
    expect(QUERIES.map((c) => c.id)).toEqual(expect.arrayContaining(["plans.list", "plans.get", "plan.model", "plan.status"]));
  });

  it("HTTP: every query leaves the tree as it was", async () => {
    for (const c of QUERIES) {
      for (const input of inputsOf(c)) {
        const query = new URLSearchParams(input).toString();
        const r = await fetch(`${server.url}${httpPath(c)}${query ? `?${query}` : ""}`);
        await r.arrayBuffer();
        // This copy is no git work tree: what reads its history says so (400), and writes nothing either.
        const answers = TIME_QUERIES.has(c.id) ? [200, 400, 404] : [200, 404];
        expect(answers, `${c.id} ${query}`).toContain(r.status);
      }
    }
    expect(tree(repo)).toEqual(before);
  });

  it("the pages, /plans and /plans/ID included, leave the tree as it was", async () => {
    for (const page of PAGES) {
      const r = await fetch(`${server.url}${page}`);
      await r.arrayBuffer();
      expect([200, 404], page).toContain(r.status);
    }
    const list = await fetch(`${server.url}/plans`);
    expect(await list.text()).toContain("Plans (0)");
    expect(tree(repo)).toEqual(before);
  });

  it("MCP in memory and over HTTP: every query and the plan resource leave the tree as it was", async () => {
    for (const connection of [inMemory, overHttp]) {
      for (const c of QUERIES) {
        for (const input of inputsOf(c)) await connection.client.callTool({ name: mcpToolName(c), arguments: input });
      }
      await connection.client.readResource({ uri: "cockpit://plan" });
    }
    expect(tree(repo)).toEqual(before);
  });

  it("the command line: every query (plans list and plans get included) leaves the tree as it was", async () => {
    const list = await runCli(["plans", "list", "--repo", repo, "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ plans: [] });
    const get = await runCli(["plans", "get", NO_PLAN, "--repo", repo, "--json"]);
    expect(get.code).toBe(12);
    expect(JSON.parse(get.stdout)).toMatchObject({ error: { code: "not_found", message: expect.stringContaining(`no execution plan '${NO_PLAN}'`) } });
    for (const c of QUERIES) {
      for (const input of inputsOf(c)) await runCli([...cliWords(c, input), "--repo", repo, "--json"]);
    }
    expect(tree(repo)).toEqual(before);
  });

  it("a command still creates the store, and the plan it made is then read", async () => {
    const created = await runCli(["plans", "create", "--milestone", MILESTONE, "--repo", repo, "--json"]);
    expect(created.code, created.stderr).toBe(0);
    expect(existsSync(join(repo, STORE_FILE))).toBe(true);
    const id = (JSON.parse(created.stdout) as { plan_id: string }).plan_id;
    // With the store there, reading it from the command line still changes no byte.
    const withStore = tree(repo);
    const list = await runCli(["plans", "list", "--repo", repo, "--json"]);
    expect((JSON.parse(list.stdout) as { plans: { plan_id: string }[] }).plans.map((p) => p.plan_id)).toEqual([id]);
    const get = await runCli(["plans", "get", id, "--repo", repo, "--json"]);
    expect((JSON.parse(get.stdout) as { plan_id: string }).plan_id).toBe(id);
    expect(tree(repo)).toEqual(withStore);
    const page = await fetch(`${server.url}/plans/${id}`);
    expect(page.status).toBe(200);
  });
});
