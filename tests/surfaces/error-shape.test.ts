import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { capabilities, findCapability, httpMethod, httpPath, mcpToolName } from "@/lib/capabilities/index";
import { EXIT_FOR_ERROR } from "@/lib/surfaces/exit-codes";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { runPlansCommand } from "@/lib/surfaces/cli/plans";
import { mcpInMemory } from "../support/mcp-memory";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// One error shape on every surface. Each capability of the registry is asked something it refuses,
// cannot find or finds invalid: the command line under --json prints `{"error": {"code",
// "message"}}` on stdout and exits with the code's exit code, and HTTP (the route handler) and MCP
// (an in-memory client) answer the same case with the same code and the same message.

interface Case {
  capability: string;
  /** The command line's words, after `cockpit plan` or `cockpit plans`. */
  argv: string[];
  /** The same case as the capability's input (HTTP's query or body, MCP's arguments). */
  input: Record<string, unknown>;
  code: string;
}

const CASES: Case[] = [
  { capability: "plan.model", argv: ["model", "--at", "no-such-rev"], input: { at: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.status", argv: ["status", "--milestone", "M9"], input: { milestone: "M9" }, code: "not_found" },
  { capability: "plan.issues", argv: ["issues", "--status", "DONE?"], input: { status: "DONE?" }, code: "invalid_input" },
  { capability: "plan.waves", argv: ["waves", "--milestone", "M9"], input: { milestone: "M9" }, code: "not_found" },
  { capability: "plan.next", argv: ["next", "--at", "no-such-rev"], input: { at: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.roadmap", argv: ["roadmap", "--at", "no-such-rev"], input: { at: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.critical_path", argv: ["critical-path", "--milestone", "M9"], input: { milestone: "M9" }, code: "not_found" },
  { capability: "plan.validate", argv: ["validate", "--at", "no-such-rev"], input: { at: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.record", argv: ["record", "I9"], input: { id: "I9" }, code: "not_found" },
  { capability: "plan.changes", argv: ["changes", "--since", "no-such-rev"], input: { since: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.history", argv: ["history", "I9"], input: { id: "I9" }, code: "not_found" },
  { capability: "plan.burnup", argv: ["burnup", "--milestone", "M9"], input: { milestone: "M9" }, code: "not_found" },
  { capability: "plan.forecast", argv: ["forecast", "--milestone", "M9"], input: { milestone: "M9" }, code: "not_found" },
  { capability: "plan.code", argv: ["code", "I9"], input: { id: "I9" }, code: "not_found" },
  { capability: "plan.standup", argv: ["standup", "--since", "no-such-rev"], input: { since: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.transition", argv: ["transition", "I2", "start"], input: { issue: "I2", transition: "start" }, code: "refused" },
  { capability: "plan.evidence", argv: ["evidence", "I9", "--covers", "t", "--type", "test", "--command", "true"], input: { record: "I9", covers: "t", type: "test", command: "true" }, code: "not_found" },
  { capability: "plan.claim", argv: ["claim", "--milestone", "M9"], input: { milestone: "M9" }, code: "not_found" },
  { capability: "plan.heartbeat", argv: ["heartbeat", "I1"], input: { issue: "I1" }, code: "refused" },
  { capability: "plan.release", argv: ["release", "I9"], input: { issue: "I9" }, code: "not_found" },
  { capability: "plan.agents", argv: [], input: { colour: "red" }, code: "invalid_input" },
  { capability: "plan.ask", argv: ["ask", "I9", "--question", "May I?"], input: { issue: "I9", question: "May I?" }, code: "not_found" },
  { capability: "plan.wait", argv: ["wait", "a-000000000000", "--timeout", "0"], input: { id: "a-000000000000", timeout: 0 }, code: "not_found" },
  { capability: "plan.answer", argv: ["answer", "a-000000000000", "--yes"], input: { id: "a-000000000000", yes: true }, code: "not_found" },
  { capability: "plan.withdraw", argv: ["withdraw", "a-000000000000"], input: { id: "a-000000000000" }, code: "not_found" },
  { capability: "plan.inbox", argv: [], input: { colour: "red" }, code: "invalid_input" },
  { capability: "plan.digest", argv: ["digest", "--since", "no-such-rev"], input: { since: "no-such-rev" }, code: "invalid_input" },
  { capability: "plan.create", argv: ["new", "issue", "--title", "T", "--milestone", "M9"], input: { kind: "issue", title: "T", milestone: "M9" }, code: "invalid_input" },
  { capability: "plan.edit", argv: ["edit", "I9", "--set", "title=T"], input: { id: "I9", set: { title: "T" } }, code: "not_found" },
  { capability: "plan.undo", argv: ["undo", "999"], input: { ledger_id: 999 }, code: "not_found" },
  { capability: "plan.activity", argv: ["activity", "--limit", "0"], input: { limit: 0 }, code: "invalid_input" },
  { capability: "plan.import", argv: [], input: { format: "beads", files: [] }, code: "invalid_input" },
  { capability: "plan.commit", argv: ["commit", "--message", ""], input: { message: "" }, code: "invalid_input" },
  { capability: "plan.sync_status", argv: [], input: { colour: "red" }, code: "invalid_input" },
  { capability: "plans.create", argv: ["create", "--milestone", "M9"], input: { milestone: "M9", config: {} }, code: "not_found" },
  { capability: "plans.get", argv: ["get", "P9"], input: { id: "P9" }, code: "not_found" },
  { capability: "plans.list", argv: [], input: { colour: "red" }, code: "invalid_input" },
  { capability: "plans.claim", argv: ["claim", "P9"], input: { root: "P9" }, code: "not_found" },
  { capability: "plans.advance", argv: ["advance", "P9", "--to", "execute"], input: { child: "P9", to: "execute" }, code: "not_found" },
  { capability: "plans.fail", argv: ["fail", "P9", "--category", "timeout", "--message", "m"], input: { child: "P9", category: "timeout", message: "m" }, code: "not_found" },
  { capability: "plans.complete", argv: ["complete", "P9"], input: { child: "P9", evidence: [] }, code: "not_found" },
  { capability: "plans.tick", argv: [], input: { colour: "red" }, code: "invalid_input" },
  { capability: "plans.delete", argv: ["delete", "P9"], input: { id: "P9" }, code: "not_found" },
];

let repo: PlanRepo;
let mcp: Client;
beforeAll(async () => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }, { id: "I2", depends_on: ["I1"] }], commit: true });
  mcp = await mcpInMemory(repo.root, "error-shape");
});
afterAll(async () => {
  await mcp?.close();
  cleanupRepos();
});

/** `cockpit plan …` or `cockpit plans …` through its entry function, stdout and stderr kept apart. */
async function cli(command: "plan" | "plans", argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const run = command === "plan" ? runPlanCommand : runPlansCommand;
  const code = await run([...argv, "--repo", repo.root, "--json"], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function http(capability: string, input: Record<string, unknown>) {
  const c = findCapability(capability)!;
  const url = new URL(`http://127.0.0.1${httpPath(c)}`);
  let request: Request;
  if (httpMethod(c) === "GET") {
    for (const [k, v] of Object.entries(input)) url.searchParams.set(k, String(v));
    request = new Request(url);
  } else {
    request = new Request(url, { method: "POST", body: JSON.stringify(input), headers: { "content-type": "application/json" } });
  }
  const response = await handleCapabilityRequest(request, url.pathname, { repo: repo.root });
  return (await response.json()) as { error?: { code: string; message: string } };
}

async function overMcp(capability: string, input: Record<string, unknown>) {
  const result = (await mcp.callTool({ name: mcpToolName(findCapability(capability)!), arguments: input })) as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: { error?: { code: string; message: string } };
    _meta?: Record<string, unknown>;
  };
  return result;
}

describe("an error is JSON wherever the answer would be", () => {
  it("the table has a case for every capability of the registry", () => {
    expect(CASES.map((c) => c.capability).sort()).toEqual(capabilities.map((c) => c.id).sort());
  });

  it.each(CASES.map((c) => [c.capability, c] as const))("%s: one code and message over HTTP, MCP and (where it spells it) the command line", async (_, c) => {
    const overHttp = await http(c.capability, c.input);
    expect(overHttp.error?.code).toBe(c.code);
    const message = overHttp.error!.message;
    expect(message.length).toBeGreaterThan(0);
    const answered = await overMcp(c.capability, c.input);
    expect(answered.isError).toBe(true);
    expect(answered.content[0].text).toBe(message);
    expect(answered._meta?.["cockpit/error_code"]).toBe(c.code);
    // No spelling of the command line reaches these capabilities' refusals (import reads files first, the
    // rest take no input it could get wrong); their refusals there are the command's own, tested below.
    if (c.argv.length === 0) return;
    const r = await cli(c.capability.startsWith("plans.") ? "plans" : "plan", c.argv);
    expect(r.err).toBe("");
    expect(JSON.parse(r.out)).toEqual({ error: { code: c.code, message } });
    expect(r.code).toBe(EXIT_FOR_ERROR[c.code as keyof typeof EXIT_FOR_ERROR]);
  });
});

describe("the command line's own refusals under --json", () => {
  it.each([
    ["plan", ["nope"], "invalid_input", /^unknown verb 'nope'/],
    ["plan", ["record"], "invalid_input", /^cockpit plan record takes one ID/],
    ["plan", ["issues", "--colour", "red"], "invalid_input", /^unknown option '--colour'/],
    // graph prints a diagram, never JSON: --json is refused as an option it does not take, in JSON.
    ["plan", ["graph"], "invalid_input", /^unknown option '--json'/],
    ["plan", ["sync-status", "extra"], "invalid_input", /^cockpit plan sync-status takes no argument/],
    ["plan", ["import", "beads", "/no/such/source"], "not_found", /no\/such\/source/],
    ["plans", ["list", "extra"], "invalid_input", /^cockpit plans list takes no argument/],
    ["plans", ["tick", "--colour"], "invalid_input", /^unknown option '--colour'/],
    ["plans", ["nope"], "invalid_input", /^unknown verb 'nope'/],
  ] as const)("cockpit %s %j prints the error body on stdout and nothing on stderr", async (command, argv, code, message) => {
    const r = await cli(command, [...argv]);
    expect(r.err).toBe("");
    const body = JSON.parse(r.out) as { error: { code: string; message: string } };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(message);
    expect(r.code).toBe(EXIT_FOR_ERROR[code]);
  });

  it("without --json the refusal stays words on stderr, and stdout is empty", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPlanCommand(["record", "I9", "--repo", repo.root], { out: (t) => out.push(t), err: (t) => err.push(t) });
    expect([code, out, err]).toEqual([12, [], ["cockpit plan record: no milestone or issue 'I9'"]]);
  });
});

describe("a --repo that is not a folder", () => {
  it.each([
    ["a folder that does not exist", () => `${repo.root}/no-such-folder`, "does not exist"],
    ["a file", () => repo.path(".gitignore"), "is a file, not a folder"],
  ])("%s is exit 2, naming it, for plan and plans", async (_, path, words) => {
    for (const [run, argv] of [[runPlanCommand, ["next"]], [runPlanCommand, ["claim"]], [runPlansCommand, ["list"]]] as const) {
      const out: string[] = [];
      const code = await run([...argv, "--repo", path(), "--json"], { out: (t) => out.push(t), err: () => undefined });
      expect(code).toBe(2);
      const body = JSON.parse(out.join("")) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toContain(path());
      expect(body.error.message).toContain(words);
    }
  });
});
