import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt } from "../support/processes";
import { cleanup as cleanupBuilds, ensureBuild } from "../surfaces/helpers";
import { CASES, type HostileCase, targetsOf } from "./cases";
import { mcpInMemory } from "../support/mcp-memory";
import { ANSWER_LIMIT_MS, type Answer, actionCall, limiter, mcpCallInProcess, request, requestInProcess, runCockpit, runCockpitInProcess, serveCockpit, withLastLine } from "./drive";
import { type Sandbox, changedPaths, cleanupSandboxes, demoTemplate, git, makeSandbox, pwnedFiles, snapshotOutside } from "./sandbox";
import { cliReads, cliWrites, servedReads, servedWrites, type ServedCall } from "./verbs";

// The hostile repository generator: each case of cases.ts, made from the demo plan in a fresh
// sandbox, is driven through every read and write verb of `cockpit plan` (the command line's entry
// function, in process; a child process where the case says a regression would block a process for
// ever) and then, over a second copy, through every verb over HTTP (the route handler) and MCP (a
// linked in-memory client), in process, and a served Cockpit (`cockpit serve`) for its pages and
// the pages' server action. Each case passes when nothing outside its repository changed, no
// hostile name ran as a command, and every answer came within its limit with a documented outcome.
// tests/hostile/served-git.test.ts drives a served Cockpit's HTTP and MCP over real processes.

/** What the command may answer with: ok, usage/invalid input, a validation failure, not found, refused. */
const CLI_EXITS = new Set([0, 2, 10, 12, 15]);
/** What the API may answer with: ok, invalid input, not found, a stale version, refused. */
const API_STATUSES = new Set([200, 400, 404, 409, 422]);
const PAGE_STATUSES = new Set([200, 404]);
const MCP_OUTCOMES = new Set(["ok", "invalid_input", "not_found", "refused", "conflict"]);
// Control characters other than the line's own newline and tab reach no terminal.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Why one answer fails the case, if it does. */
function problemOf(a: Answer, kind: "cli" | ServedCall["kind"], c: HostileCase): string | undefined {
  if (c.outsideMarker && (a.stdout.includes(c.outsideMarker) || a.stderr.includes(c.outsideMarker))) return `${a.call}: answered with records read through a link out of the repository`;
  const limit = a.limitMs ?? ANSWER_LIMIT_MS;
  if (a.timedOut) return `${a.call}: no answer within ${limit / 1000} s (killed)`;
  if (a.ms > limit) return `${a.call}: answered after ${a.ms} ms (limit ${limit} ms)`;
  const said = (a.stderr || a.stdout).trim().split("\n").slice(0, 3).join(" | ").slice(0, 400);
  if (kind === "cli") {
    if (a.signal) return `${a.call}: killed by ${a.signal}`;
    if (a.code === 13) return `${a.call}: internal error (exit 13): ${said}`;
    if (!CLI_EXITS.has(a.code as number)) return `${a.call}: exit ${a.code}, not a documented one: ${said}`;
    if (RAW_CONTROL.test(a.stdout) || RAW_CONTROL.test(a.stderr)) return `${a.call}: raw control characters on the terminal: ${JSON.stringify(said)}`;
    return undefined;
  }
  if (a.code === null) return `${a.call}: no answer (${a.stderr})`;
  if (kind === "mcp" || kind === "action") return MCP_OUTCOMES.has(String(a.code)) ? undefined : `${a.call}: ${a.code}: ${a.stdout.slice(0, 300)}`;
  const allowed = kind === "page" ? PAGE_STATUSES : API_STATUSES;
  return allowed.has(a.code as number) ? undefined : `${a.call}: HTTP ${a.code}: ${a.stdout.slice(0, 300)}`;
}

/** The case's repository before the verbs: the sandbox, what lies outside it, and HEAD. */
async function prepared(c: HostileCase, phase: string): Promise<{ sb: Sandbox; before: Map<string, string>; head: string }> {
  const sb = makeSandbox(`${phase}-${c.name}`);
  await c.prepare(sb);
  return { sb, before: snapshotOutside(sb), head: git(sb.repo, ["rev-parse", "HEAD"]) };
}

/** What every case checks once its verbs ran: the outside, the PWNED files, the case's own check. */
function afterwards(c: HostileCase, sb: Sandbox, before: Map<string, string>, head: string, phase: string): string[] {
  return [
    ...changedPaths(before, snapshotOutside(sb)).map((p) => `${phase}: outside the repository, ${p}`),
    ...pwnedFiles().map((f) => `${phase}: ${f} exists: a hostile name ran as a command`),
    ...(c.after?.(sb, head) ?? []).map((p) => `${phase}: ${p}`),
  ];
}

async function throughTheCommand(c: HostileCase): Promise<string[]> {
  const { sb, before, head } = await prepared(c, "cli");
  const t = targetsOf(c);
  const run = (args: readonly string[], waitTurn = true) => (c.asProcess ? runCockpit(sb, args, { waitTurn }) : runCockpitInProcess(sb, args));
  const reads = await Promise.all(cliReads(t).map((args) => run(args)));
  // The writes one after the other; once one hung, the rest go at once (each waits its own limit).
  const writes: Answer[] = [];
  const pending = cliWrites(t);
  while (pending.length > 0) {
    if (writes.some((a) => a.timedOut)) writes.push(...(await Promise.all(pending.splice(0).map((args) => run(args, false)))));
    else writes.push(await run(pending.shift()!));
  }
  return [...[...reads, ...writes].map((a) => problemOf(a, "cli", c)).filter((p): p is string => p !== undefined), ...afterwards(c, sb, before, head, "cli")];
}

// A served Cockpit is a server of its own per case: two at once.
const servers = limiter(2);
let dist = "";

async function throughAServer(c: HostileCase): Promise<string[]> {
  return servers(async () => {
    const { sb, before, head } = await prepared(c, "served");
    const t = targetsOf(c);
    const served = await serveCockpit(sb, dist);
    const problems: string[] = [];
    let mcp: Client | undefined;
    try {
      mcp = await mcpInMemory(sb.repo, "cockpit-hostile-tests");
      const client = mcp;
      // A stalled server answers nothing more: once one call timed out, the rest go at once.
      let stalled = false;
      const requests = limiter(6);
      const send = async (call: ServedCall) => {
        const body = withLastLine(sb, call.body);
        const go = () =>
          call.kind === "mcp"
            ? mcpCallInProcess(client, call.target, body ?? {})
            : call.kind === "action"
              ? actionCall(served, dist, call.target, body ?? {})
              : call.kind === "page"
                ? request(served, call.method, call.target, body)
                : requestInProcess(sb, call.method, call.target, body);
        const a = stalled ? await go() : await requests(go);
        if (a.timedOut) stalled = true;
        const problem = problemOf(a, call.kind, c);
        if (problem) problems.push(`served: ${problem}`);
      };
      await Promise.all(servedReads(t).map(send));
      const writes = servedWrites(t);
      for (let i = 0; i < writes.length; i++) {
        if (stalled) {
          await Promise.all(writes.slice(i).map(send));
          break;
        }
        await send(writes[i]);
      }
    } finally {
      await Promise.all([served.stop(), mcp?.close()]);
    }
    if (problems.some((p) => / HTTP 500| internal/.test(p))) problems.push(`served: the server's log ends: ${served.log().slice(-1500)}`);
    return [...problems, ...afterwards(c, sb, before, head, "served")];
  });
}

beforeAll(async () => {
  ensureCliBuilt();
  demoTemplate();
  dist = await ensureBuild();
}, 600_000);

afterAll(() => {
  cleanupSandboxes();
  cleanupBuilds();
});

describe.concurrent("a hostile repository gets nothing: every verb, in process and served", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const [cli, served] = await Promise.all([throughTheCommand(c), throughAServer(c)]);
    const problems = [...cli, ...served];
    // The problems lead the message: the run's summary shows a failure's first line.
    expect(problems, `${problems.length} problem(s): ${problems.join(" | ").slice(0, 1500)} (holds: ${c.holds})`).toEqual([]);
  }, 600_000);
});
