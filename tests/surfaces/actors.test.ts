import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { findCapability, mcpToolName } from "@/lib/capabilities/index";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { runUsersCommand } from "@/lib/surfaces/cli/users";
import { createMcpServer } from "@/lib/surfaces/mcp";
import { contextFor } from "@/lib/server/state";
import { securityFromEnv } from "@/lib/server/security";
import { kindsOf } from "@/lib/server/security/kinds";
import { EXIT } from "@/lib/surfaces/exit-codes";
import { cleanupRepos, git, makePlanRepo, tempDir, type PlanRepo } from "../support/repo";

// Every command names who acts: the ledger's `by` is the actor's name on every surface, never the
// program's. The command line takes --as, else COCKPIT_ACTOR, else git's user.name of the
// repository; HTTP takes a users file's user, else the X-Cockpit-Actor header, else git's
// identity; MCP takes the client's name with its session's suffix.

const TRANSITION = mcpToolName(findCapability("plan.transition")!);
let repo: PlanRepo;
const savedActor = process.env.COCKPIT_ACTOR;

beforeEach(() => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }, { id: "I2" }, { id: "I3" }], commit: true });
  git(repo.root, "config", "user.name", "Rita Repo");
  delete process.env.COCKPIT_ACTOR;
});
afterEach(() => {
  if (savedActor === undefined) delete process.env.COCKPIT_ACTOR;
  else process.env.COCKPIT_ACTOR = savedActor;
});
afterAll(() => cleanupRepos());

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPlanCommand([...argv, "--repo", repo.root], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const lastBy = () => repo.ledgerLines().at(-1)?.by;

describe("the command line signs a move with who acts", () => {
  it("--as names the actor", async () => {
    const r = await cli(["start", "I1", "--as", "ada"]);
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(repo.ledgerLines()).toHaveLength(1);
    expect(lastBy()).toBe("ada");
  });

  it("COCKPIT_ACTOR names it when --as does not, and --as wins over it", async () => {
    process.env.COCKPIT_ACTOR = "agent-7";
    expect((await cli(["start", "I1"])).code).toBe(EXIT.ok);
    expect(lastBy()).toBe("agent-7");
    expect((await cli(["start", "I2", "--as", "bob"])).code).toBe(EXIT.ok);
    expect(lastBy()).toBe("bob");
  });

  it("without either, the repository's git user.name signs it, never the program's name", async () => {
    expect((await cli(["claim"])).code).toBe(EXIT.ok);
    expect(lastBy()).toBe("Rita Repo");
    expect(lastBy()).not.toMatch(/^cockpit\//);
  });

  it("evidence, edits and undo are signed as well", async () => {
    expect((await cli(["start", "I1", "--as", "ada"])).code).toBe(EXIT.ok);
    // ada's session holds I1: eve's evidence waits until ada gives it back.
    const held = await cli(["evidence", "I1", "--covers", "proof", "--type", "test", "--command", "npm test", "--as", "eve"]);
    expect(held.code).toBe(EXIT.refused);
    expect(held.err).toMatch(/I1 is held by ada \(session s-[0-9a-f]{12}, epoch 1\)/);
    expect((await cli(["release", "I1", "--as", "ada"])).code).toBe(EXIT.ok);
    const evidence = await cli(["evidence", "I1", "--covers", "proof", "--type", "test", "--command", "npm test", "--as", "eve"]);
    expect(evidence.code, evidence.err).toBe(EXIT.ok);
    expect(lastBy()).toBe("eve");
    const edit = await cli(["edit", "I2", "--set", "title=Renamed", "--as", "ed"]);
    expect(edit.code, edit.err).toBe(EXIT.ok);
    expect(lastBy()).toBe("ed");
  });

  it.each([
    ["an empty name", ""],
    ["a right-to-left override", "ada\u202eevil"],
    ["a newline", "ada\nbob"],
    ["a name of 101 characters", "a".repeat(101)],
    ["spaces around the name", " ada "],
  ])("--as with %s is bad input (exit 2) and writes nothing", async (_, name) => {
    const before = repo.snapshot();
    const r = await cli(["start", "I1", "--as", name]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(/--as/);
    expect(repo.snapshot()).toEqual(before);
  });

  it("a bad COCKPIT_ACTOR is named as such, and writes nothing", async () => {
    process.env.COCKPIT_ACTOR = "x\u0007y";
    const before = repo.snapshot();
    const r = await cli(["start", "I1"]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(/COCKPIT_ACTOR/);
    expect(repo.snapshot()).toEqual(before);
  });

  it("a read takes no --as (it signs nothing)", async () => {
    const r = await cli(["status", "--as", "ada"]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(/--as/);
  });
});

describe("HTTP signs a command with the caller", () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    handleCapabilityRequest(new Request(`http://127.0.0.1${path}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } }), path, { repo: repo.root, security: securityFromEnv({}) });

  it("on loopback without users, X-Cockpit-Actor names the actor", async () => {
    const r = await post("/api/v1/plan/transition", { issue: "I1", transition: "start" }, { "x-cockpit-actor": "agent-http" });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(lastBy()).toBe("agent-http");
  });

  it("without a header, the repository's git identity signs it", async () => {
    const r = await post("/api/v1/plan/claim", {});
    expect(r.status).toBe(200);
    expect(lastBy()).toBe("Rita Repo");
  });

  it("a header that could not sign a move is a 400 naming it, and nothing is written", async () => {
    const before = repo.snapshot();
    const r = await post("/api/v1/plan/transition", { issue: "I1", transition: "start" }, { "x-cockpit-actor": "a".repeat(101) });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/X-Cockpit-Actor/) });
    expect(repo.snapshot()).toEqual(before);
  });

  it("with a users file, a user is themself: a header naming someone else is refused (403), their own name passes", async () => {
    const users = join(tempDir("cockpit-actors-users-"), "users.yaml");
    const tokens: string[] = [];
    const io = { out: (t: string) => tokens.push(t.trim()), err: () => undefined };
    expect(await runUsersCommand(["add", "bob", "--users", users], io, {})).toBe(0);
    const security = securityFromEnv({ COCKPIT_USERS: users });
    const send = (headers: Record<string, string>, issue: string) =>
      handleCapabilityRequest(
        new Request("http://127.0.0.1/api/v1/plan/transition", { method: "POST", body: JSON.stringify({ issue, transition: "start" }), headers: { "content-type": "application/json", authorization: `Bearer ${tokens[0]}`, ...headers } }),
        "/api/v1/plan/transition",
        { repo: repo.root, security },
      );
    const before = repo.snapshot();
    const forged = await send({ "x-cockpit-actor": "alice" }, "I1");
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(/'alice'.*bob/);
    expect(repo.snapshot()).toEqual(before);
    const own = await send({ "x-cockpit-actor": "bob" }, "I1");
    expect(own.status).toBe(200);
    expect(lastBy()).toBe("bob");
  });
});

describe("MCP signs a command with its client", () => {
  async function connect(name: string, by?: string): Promise<Client> {
    const [client, server] = InMemoryTransport.createLinkedPair();
    await createMcpServer(() => contextFor(repo.root, by)).connect(server);
    const mcp = new Client({ name, version: "1.0.0" });
    await mcp.connect(client);
    return mcp;
  }

  it("the client's name with its session's suffix; two sessions of one client are told apart", async () => {
    const a = await connect("claude-code");
    const b = await connect("claude-code");
    try {
      await a.callTool({ name: TRANSITION, arguments: { issue: "I1", transition: "start" } });
      const first = lastBy();
      expect(first).toMatch(/^claude-code#[0-9a-f]{4}$/);
      await b.callTool({ name: TRANSITION, arguments: { issue: "I2", transition: "start" } });
      expect(lastBy()).toMatch(/^claude-code#[0-9a-f]{4}$/);
      expect(lastBy()).not.toBe(first);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a command tool's actor argument names who acts, over the client's name; a query tool has no such argument", async () => {
    const a = await connect("claude-code");
    try {
      const { tools } = await a.listTools();
      const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
      expect(props(TRANSITION)).toContain("actor");
      expect(props(mcpToolName(findCapability("plan.next")!))).not.toContain("actor");
      const moved = (await a.callTool({ name: TRANSITION, arguments: { issue: "I1", transition: "start", actor: "agent-arg" } })) as { isError?: boolean };
      expect(moved.isError).toBeFalsy();
      expect(lastBy()).toBe("agent-arg");
      const before = repo.snapshot();
      const bad = (await a.callTool({ name: TRANSITION, arguments: { issue: "I2", transition: "start", actor: "evil\u202e" } })) as { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> };
      expect(bad.isError).toBe(true);
      expect(bad._meta?.["cockpit/error_code"]).toBe("invalid_input");
      expect(bad.content[0].text).toMatch(/^actor contains U\+202E/);
      expect(repo.snapshot()).toEqual(before);
    } finally {
      await a.close();
    }
  });

  it("a name the surface was started with (COCKPIT_ACTOR of cockpit mcp) wins over the client's", async () => {
    const a = await connect("claude-code", "agent-mcp");
    try {
      await a.callTool({ name: TRANSITION, arguments: { issue: "I1", transition: "start" } });
      expect(lastBy()).toBe("agent-mcp");
    } finally {
      await a.close();
    }
  });
});

describe("the users file knows agents", () => {
  it("cockpit users add NAME --agent writes kind: agent, and list says so", async () => {
    const file = join(tempDir("cockpit-actors-kind-"), "users.yaml");
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: () => undefined };
    expect(await runUsersCommand(["add", "ada", "--users", file], io, {})).toBe(0);
    expect(await runUsersCommand(["add", "builder-1", "--agent", "--users", file], io, {})).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/- name: builder-1\n(?: {4}.*\n)* {4}kind: agent\n/);
    expect(text).not.toMatch(/- name: ada\n(?: {4}.*\n)* {4}kind:/);
    out.length = 0;
    expect(await runUsersCommand(["list", "--users", file], io, {})).toBe(0);
    expect(out.join("\n").split("\n")).toEqual(["ada", "builder-1 (agent)"]);
    expect(await runUsersCommand(["remove", "ada", "--agent", "--users", file], io, {})).toBe(2);
    // /people marks the agents: the file's, and an MCP client's session name.
    expect(kindsOf(["ada", "builder-1", "claude-code#3f2a", "Rita Repo"], file)).toEqual(
      new Map([["ada", "person"], ["builder-1", "agent"], ["claude-code#3f2a", "agent"], ["Rita Repo", "person"]]),
    );
  });
});
