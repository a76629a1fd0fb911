import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { STORE_FILE } from "@/lib/execution/store-sqlite";
import type { SessionRow } from "@/lib/execution/store-rows";
import { CLI, ROOT, type RunningServer, ensureBuild, startServer } from "../surfaces/helpers";
import { makePlanRepo, type PlanRepo } from "../support/repo";
import { usePostgresCluster } from "./clones";

// A fleet of agents on one plan, with real processes: 3 on the command line (a process a step), 3
// over MCP on stdio (a `cockpit mcp` each), 2 over HTTP (one `cockpit serve`). Each loops claim →
// heartbeat → evidence → verify until every issue is VERIFY. One MCP agent is killed right after a
// claim, one command-line agent right after its evidence (which of their claims is chosen at
// random), and one HTTP agent falls silent past its lease and comes back after its issue was
// reclaimed. Leases last 8 s (a command-line step on a loaded machine takes seconds). The run is
// checked from the ledger and the store's sessions: no issue held by two live sessions at once,
// every issue started once, every abandoned one reclaimed once, no write of a reclaimed session
// accepted, the ledger naming the agent of every move.

const ISSUES = 60;
// Long enough that a live agent's cold command on a loaded machine never outlasts its lease (with 8 s,
// one live agent's issue was reclaimed when the coordination tests ran side by side).
const TTL_S = 12;
const cluster = usePostgresCluster("fleet");
const servers: RunningServer[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  for (const s of servers) await s.stop();
});

type Answer = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };
/** A write names the session its claim answered: it is fenced by it. */
type Step = { verb: "claim" } | { verb: "heartbeat" | "evidence" | "verify"; issue: string; session: string };

interface Agent {
  name: string;
  call(step: Step): Promise<Answer>;
  /** Kill its process (a command-line agent's current command, an MCP agent's server). */
  kill(): void;
}

function planRepo(): PlanRepo {
  const milestones = [{ id: "M1" }, { id: "M2" }, { id: "M3" }];
  const issues = Array.from({ length: ISSUES }, (_, i) => ({ id: `F${String(i + 1).padStart(3, "0")}`, milestone: milestones[i % 3].id }));
  return makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, milestones, issues, commit: true });
}

function cliAgent(name: string, repo: string, env: Record<string, string>): Agent {
  let current: ChildProcess | undefined;
  const words = (s: Step) =>
    s.verb === "claim"
      ? ["claim"]
      : s.verb === "heartbeat"
        ? ["heartbeat", s.issue, "--note", `${s.issue}: working`, "--session", s.session]
        : s.verb === "evidence"
          ? ["evidence", s.issue, "--covers", "proof", "--type", "test", "--command", "true", "--session", s.session]
          : ["verify", s.issue, "--session", s.session];
  return {
    name,
    call: (step) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [CLI, "plan", ...words(step), "--as", name, "--json", "--repo", repo], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
        current = child;
        children.push(child);
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
        child.on("close", (code) => {
          let parsed: { error?: { message: string } } & Record<string, unknown> = {};
          try {
            parsed = JSON.parse(out);
          } catch {
            /* killed before it answered */
          }
          resolve(code === 0 ? { ok: true, value: parsed } : { ok: false, message: parsed.error?.message ?? `exit ${code}` });
        });
      }),
    kill: () => current?.kill("SIGKILL"),
  };
}

async function mcpAgent(name: string, repo: string, env: Record<string, string>): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--repo", repo],
    cwd: ROOT,
    env: { ...(Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string")) as Record<string, string>), ...env, COCKPIT_ACTOR: name },
    stderr: "pipe",
  });
  transport.stderr?.on("data", () => undefined);
  const client = new Client({ name, version: "1" });
  await client.connect(transport);
  const tool = (s: Step): [string, Record<string, unknown>] =>
    s.verb === "claim"
      ? ["plan_claim", {}]
      : s.verb === "heartbeat"
        ? ["plan_heartbeat", { issue: s.issue, note: `${s.issue}: working`, session: s.session }]
        : s.verb === "evidence"
          ? ["plan_evidence", { record: s.issue, covers: "proof", type: "test", command: "true", session: s.session }]
          : ["plan_transition", { issue: s.issue, transition: "verify", session: s.session }];
  return {
    name,
    call: async (step) => {
      const [toolName, args] = tool(step);
      try {
        const r = (await client.callTool({ name: toolName, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
        return r.isError ? { ok: false, message: r.content[0]?.text ?? "" } : { ok: true, value: r.structuredContent ?? {} };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
    kill: () => {
      if (transport.pid) process.kill(transport.pid, "SIGKILL");
    },
  };
}

function httpAgent(name: string, url: string): Agent {
  const route = (s: Step): [string, Record<string, unknown>] =>
    s.verb === "claim"
      ? ["claim", {}]
      : s.verb === "heartbeat"
        ? ["heartbeat", { issue: s.issue, note: `${s.issue}: working`, session: s.session }]
        : s.verb === "evidence"
          ? ["evidence", { record: s.issue, covers: "proof", type: "test", command: "true", session: s.session }]
          : ["transition", { issue: s.issue, transition: "verify", session: s.session }];
  return {
    name,
    call: async (step) => {
      const [path, body] = route(step);
      const r = await fetch(`${url}/api/v1/plan/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-cockpit-actor": name }, body: JSON.stringify(body) });
      const json = (await r.json()) as Record<string, unknown> & { error?: { message: string } };
      return r.ok ? { ok: true, value: json } : { ok: false, message: json.error?.message ?? String(r.status) };
    },
    kill: () => undefined,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  /** The issue each victim held when it was killed, and the zombie's. */
  abandoned: Map<string, string>;
  /** Refusals the zombie got after its issue was reclaimed. */
  fenced: string[];
  zombie: string;
  zombieIssue?: string;
}

/**
 * Run the fleet until every issue is VERIFY. `victims` are killed after their claim number `at`
 * (the MCP one right after the claim, the command-line one right after its evidence); the zombie
 * waits, after its first claim, until `reclaimed(session)` says its session was taken over.
 */
async function runFleet(agents: Agent[], victims: { agent: string; at: number; after: "claim" | "evidence" }[], zombie: string, reclaimed: (session: string) => Promise<boolean>, remaining: () => Promise<number>): Promise<Run> {
  const run: Run = { abandoned: new Map(), fenced: [], zombie };
  const deadline = Date.now() + 150_000;
  await Promise.all(
    agents.map(async (agent) => {
      let claims = 0;
      let zombieDone = false;
      while (Date.now() < deadline) {
        const claim = await agent.call({ verb: "claim" });
        if (!claim.ok) {
          if ((await remaining()) === 0) return;
          await sleep(300); // everything left is held: wait for a lease to end
          continue;
        }
        claims++;
        const issue = String(claim.value.issue);
        const session = String(claim.value.session);
        const victim = victims.find((v) => v.agent === agent.name && v.at === claims);
        if (victim?.after === "claim") {
          run.abandoned.set(agent.name, issue);
          agent.kill();
          return;
        }
        if (agent.name === zombie && !zombieDone) {
          zombieDone = true;
          run.zombieIssue = issue;
          // Silent past its lease, until another agent has taken the issue over.
          while (!(await reclaimed(session)) && Date.now() < deadline) await sleep(200);
        }
        for (const verb of ["heartbeat", "evidence", "verify"] as const) {
          const r = await agent.call({ verb, issue, session });
          if (!r.ok) {
            if (agent.name === zombie && issue === run.zombieIssue) run.fenced.push(`${verb}: ${r.message}`);
            break;
          }
          if (victim?.after === "evidence" && verb === "evidence") {
            run.abandoned.set(agent.name, issue);
            agent.kill();
            return;
          }
        }
      }
    }),
  );
  return run;
}

interface LedgerLine {
  ts: string;
  event: string;
  by: string;
  issue?: string;
}

/** What every run must show, from the ledger and the sessions the store kept. */
function checkRun(repo: PlanRepo, run: Run, names: readonly string[], sessions: SessionRow[], statuses: Record<string, string>): void {
  // Every issue reached VERIFY.
  expect(Object.values(statuses).filter((s) => s !== "VERIFY")).toEqual([]);
  expect(Object.keys(statuses)).toHaveLength(ISSUES);
  const ledger = repo.ledgerLines() as unknown as LedgerLine[];
  // The ledger names the agent of every move.
  expect(ledger.filter((l) => !names.includes(l.by))).toEqual([]);
  // Every issue was started once.
  const starts = new Map<string, number>();
  for (const l of ledger.filter((x) => x.event === "plan_start")) starts.set(l.issue!, (starts.get(l.issue!) ?? 0) + 1);
  expect([...starts.values()].filter((n) => n !== 1)).toEqual([]);
  expect(starts.size).toBe(ISSUES);
  // Every abandoned issue (the victims' and the zombie's) was reclaimed exactly once, and no other.
  const reclaims = ledger.filter((l) => l.event === "plan_reclaim").map((l) => l.issue!).sort();
  expect(reclaims).toEqual([...run.abandoned.values(), run.zombieIssue!].sort());
  // No issue was held by two live sessions at any moment: each session began after the one
  // before it on the issue ended, and a reclaimed one's lease was over when it was taken.
  const byIssue = new Map<string, SessionRow[]>();
  for (const s of sessions) byIssue.set(s.issue, [...(byIssue.get(s.issue) ?? []), s]);
  for (const [issue, rows] of byIssue) {
    rows.sort((a, b) => a.epoch - b.epoch);
    expect(rows.map((r) => r.epoch), issue).toEqual(rows.map((_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) {
      const before = rows[i - 1];
      expect(before.ended, `${issue} epoch ${before.epoch}`).not.toBeNull();
      expect(before.ended_at! <= rows[i].since, `${issue}: epoch ${rows[i].epoch} began before epoch ${before.epoch} ended`).toBe(true);
      if (before.ended === "reclaimed") expect(before.expires <= before.ended_at!, `${issue}: reclaimed while its lease was live`).toBe(true);
    }
    expect(rows.at(-1)!.ended, `${issue}: its last session`).toBe("finished");
  }
  // The zombie was fenced out: its writes after the reclaim were refused, and none reached the ledger.
  expect(run.fenced.length).toBeGreaterThan(0);
  expect(run.fenced[0]).toMatch(new RegExp(`^heartbeat: ${run.zombieIssue} was reclaimed by \\S+ at 20`));
  const zombieSession = sessions.find((s) => s.issue === run.zombieIssue && s.actor === run.zombie && s.ended === "reclaimed")!;
  const reclaimedAt = zombieSession.ended_at!.slice(0, 19) + "Z";
  expect(ledger.filter((l) => l.by === run.zombie && l.issue === run.zombieIssue && l.ts >= reclaimedAt)).toEqual([]);
}

async function fleetOn(repo: PlanRepo, env: Record<string, string>, sessions: () => Promise<SessionRow[]>): Promise<void> {
  const server = await startServer(await ensureBuild(), repo.root, env);
  servers.push(server);
  const cli = ["cli-1", "cli-2", "cli-3"].map((n) => cliAgent(n, repo.root, env));
  const mcp = await Promise.all(["mcp-1", "mcp-2", "mcp-3"].map((n) => mcpAgent(n, repo.root, env)));
  const http = ["http-1", "http-2"].map((n) => httpAgent(n, server.url));
  const agents = [...cli, ...mcp, ...http];
  const names = agents.map((a) => a.name);
  // Each victim dies at its first claim: on a loaded machine the others may take every issue
  // before a victim's second claim, and a victim that never dies tests nothing.
  const victims = [
    { agent: "mcp-2", at: 1, after: "claim" as const },
    { agent: "cli-3", at: 1, after: "evidence" as const },
  ];
  const statuses = async () => {
    const r = await fetch(`${server.url}/api/v1/plan/issues`);
    const { issues } = (await r.json()) as { issues: { id: string; status: string }[] };
    return Object.fromEntries(issues.map((i) => [i.id, i.status]));
  };
  const remaining = async () => Object.values(await statuses()).filter((s) => s !== "VERIFY").length;
  const reclaimed = async (session: string) => (await sessions()).some((s) => s.session === session && s.ended === "reclaimed");
  const run = await runFleet(agents, victims, "http-2", reclaimed, remaining);
  expect(run.abandoned.size, `victims ${JSON.stringify(victims)}`).toBe(2);
  checkRun(repo, run, names, await sessions(), await statuses());
}

describe("a fleet of 8 agents, 2 killed and 1 come back late, on 60 issues", () => {
  it("on the embedded store (the clone's SQLite file)", async () => {
    const repo = planRepo();
    const env = { COCKPIT_LEASE_TTL_S: String(TTL_S), COCKPIT_STALE_AFTER_S: "1" };
    const sessions = async () => {
      const db = new Database(join(repo.root, STORE_FILE), { readonly: true, fileMustExist: true, timeout: 10_000 });
      try {
        return db.prepare("SELECT * FROM sessions").all() as SessionRow[];
      } finally {
        db.close();
      }
    };
    await fleetOn(repo, env, sessions);
  }, 240_000);

  it("on a shared PostgreSQL", async () => {
    const repo = planRepo();
    const db = cluster.freshDatabase();
    const env = { COCKPIT_DATABASE_URL: cluster.server.urlFor(db), COCKPIT_LEASE_TTL_S: String(TTL_S), COCKPIT_STALE_AFTER_S: "1" };
    const sessions = async () => {
      const text = cluster.server.sql("SELECT coalesce(json_agg(s), '[]') FROM cockpit_sessions s", db);
      return JSON.parse(text) as SessionRow[];
    };
    await fleetOn(repo, env, sessions);
  }, 240_000);
});
