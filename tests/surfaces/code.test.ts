import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCapability } from "@/app/actions";
import { findCapability, httpPath, mcpToolName } from "@/lib/capabilities/index";
import type { IssueCode, PlanCode } from "@/lib/code/shapes";
import { ANA, CodeRepo, TOM } from "@/tests/support/code-history";
import { CLI, type McpConnection, ROOT, type RunningServer, SOURCE_REPO, cleanup, copyRepo, ensureBuild, mcpMemory, runCli, startServer } from "./helpers";

// plan.code on a generated history whose links are known, through every surface: the server
// action (the registry's own answer), HTTP, MCP in memory and the command line give the same
// JSON, and that JSON holds exactly the links, merges and findings the history was made with.

let repo: CodeRepo;
let plainDir: string;
let server: RunningServer;
let inMemory: McpConnection;
const sha: Record<string, string> = {};

/** The demo's plan and code, then branches, merges and commits at fixed moments (the same shas every run). */
function giveHistory(dir: string): CodeRepo {
  const r = CodeRepo.init(dir);
  sha.root = r.commit("Harbor Bookings: the plan and the code", {}, "2026-11-01T08:00:00Z");
  r.checkout("bk-020-ics-feed", true);
  sha.feed1 = r.commit("ICS feed: a private token per staff member", { "src/calendar/token.ts": "1\n" }, "2026-11-02T09:00:00Z", TOM);
  sha.feed2 = r.commit("ICS feed: serve the next 90 days", { "src/calendar/feed.ts": "1\n" }, "2026-11-02T10:00:00Z", TOM);
  r.checkout("main");
  r.checkout("feature/BK-015-links", true);
  sha.links = r.commit("Signed booking links", { "src/booking/links.ts": "1\n" }, "2026-11-03T09:00:00Z", ANA);
  r.checkout("main");
  sha.merge15 = r.merge("feature/BK-015-links", "2026-11-04T09:00:00Z");
  sha.direct = r.commit("Fix slots across DST (BK-013)\n\nRefs: BK-024", { "src/booking/slots.ts": "1\n" }, "2026-11-05T09:00:00Z", TOM);
  // The plan's own bookkeeping mentions BK-020 and is not code.
  sha.planOnly = r.commit("Notes on BK-020", { ".ai/notes.md": "feed\n" }, "2026-11-06T09:00:00Z");
  r.checkout("bk-016-intake", true);
  sha.intake = r.commit("Intake questions", { "src/booking/intake.ts": "1\n" }, "2026-11-07T09:00:00Z", TOM);
  r.checkout("main");
  // A teammate's branch, as `git fetch` leaves it: remote-tracking only.
  r.git(["update-ref", "refs/remotes/origin/bk-016-intake", sha.intake]);
  r.git(["branch", "-D", "bk-016-intake"]);
  return r;
}

async function viaAction(input: Record<string, unknown>, dir = repo.dir) {
  process.env.COCKPIT_REPO = dir;
  const r = await runCapability("plan.code", input);
  return r.ok ? { ok: true as const, value: r.value } : { ok: false as const, code: r.error.code, message: r.error.message };
}

async function viaHttp(input: Record<string, unknown>) {
  const q = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]));
  const r = await fetch(`${server.url}${httpPath(findCapability("plan.code")!)}${q.size ? `?${q}` : ""}`);
  const body = (await r.json()) as { error?: { code: string; message: string } };
  return r.status === 200 ? { ok: true as const, value: body } : { ok: false as const, code: body.error?.code, message: body.error?.message, status: r.status };
}

async function viaMcp(input: Record<string, unknown>) {
  const r = (await inMemory.client.callTool({ name: mcpToolName(findCapability("plan.code")!), arguments: input })) as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
  return r.isError ? { ok: false as const, message: r.content.map((c) => c.text).join("") } : { ok: true as const, value: r.structuredContent };
}

async function viaCli(input: Record<string, unknown>, dir = repo.dir) {
  const words = ["plan", "code", ...(input.id !== undefined ? [String(input.id)] : [])];
  if (input.default_branch !== undefined) words.push("--default-branch", String(input.default_branch));
  if (input.stale_days !== undefined) words.push("--stale-days", String(input.stale_days));
  const r = await runCli([...words, "--repo", dir, "--json"]);
  if (r.code === 0) return { ok: true as const, value: JSON.parse(r.stdout) as unknown };
  // Under --json a refusal is HTTP's error body on stdout.
  const body = JSON.parse(r.stdout) as { error: { code: string; message: string } };
  return { ok: false as const, exit: r.code, code: body.error.code, message: body.error.message, stderr: r.stderr };
}

/** The answer of every surface, which must all be the same JSON; the registry's is returned. */
async function everywhere(input: Record<string, unknown>): Promise<unknown> {
  const [action, http, mcp, cli] = await Promise.all([viaAction(input), viaHttp(input), viaMcp(input), viaCli(input)]);
  expect(action.ok, JSON.stringify(action)).toBe(true);
  const json = JSON.stringify(action.ok && action.value);
  for (const [name, o] of Object.entries({ http, mcp, cli })) expect(o.ok && JSON.stringify(o.value), `${name} answered differently`).toBe(json);
  return (action as { value: unknown }).value;
}

beforeAll(async () => {
  const dir = copyRepo("cockpit-code-surfaces-");
  repo = giveHistory(dir);
  plainDir = mkdtempSync(join(tmpdir(), "cockpit-code-plain-"));
  cpSync(SOURCE_REPO, plainDir, { recursive: true });
  const dist = await ensureBuild();
  [server, inMemory] = await Promise.all([startServer(dist, repo.dir), mcpMemory(repo.dir)]);
}, 300_000);

afterAll(async () => {
  await inMemory?.close();
  await server?.stop();
  rmSync(plainDir, { recursive: true, force: true });
  cleanup();
});

describe("plan.code on a known history, the same on every surface", () => {
  it("one issue with a local branch of two commits, not merged: every field", async () => {
    const a = (await everywhere({ id: "BK-020" })) as IssueCode;
    expect(Object.keys(a)).toEqual(["id", "default_branch", "branches", "commits", "authors", "first_activity_at", "last_activity_at", "merged", "findings"]);
    expect(a).toEqual({
      id: "BK-020",
      default_branch: "main",
      branches: [{ name: "bk-020-ics-feed", remote: null, tip: sha.feed2, ahead: 2, behind: 4, last_commit_at: "2026-11-02T10:00:00Z", merged: false }],
      commits: [
        { sha: sha.feed2, subject: "ICS feed: serve the next 90 days", author: "Tom Okafor", authored_at: "2026-11-02T10:00:00Z", on_default: false },
        { sha: sha.feed1, subject: "ICS feed: a private token per staff member", author: "Tom Okafor", authored_at: "2026-11-02T09:00:00Z", on_default: false },
      ],
      authors: ["Tom Okafor"],
      first_activity_at: "2026-11-02T09:00:00Z",
      last_activity_at: "2026-11-02T10:00:00Z",
      merged: null,
      findings: [{ level: "WARN", code: "work_without_start", subject: "BK-020", message: expect.stringContaining(`latest ${sha.feed2.slice(0, 7)} by Tom Okafor on 2026-11-02 10:00 UTC, branch bk-020-ics-feed`) }],
    });
  });

  it("an issue merged with a merge commit, still ACTIVE: merged, merged_not_verified and stalled", async () => {
    const a = (await everywhere({ id: "BK-015" })) as IssueCode;
    expect(a.merged).toEqual({ commit: sha.merge15, at: "2026-11-04T09:00:00Z" });
    expect(a.branches).toEqual([{ name: "feature/BK-015-links", remote: null, tip: sha.links, ahead: 0, behind: 3, last_commit_at: "2026-11-03T09:00:00Z", merged: true }]);
    expect(a.commits.map((c) => [c.sha, c.on_default])).toEqual([
      [sha.merge15, true],
      [sha.links, true],
    ]);
    expect(a.findings.map((f) => f.code)).toEqual(["merged_not_verified", "stalled"]);
  });

  it("a commit on the default branch naming two issues links both; VERIFY gives merged_not_done", async () => {
    const bk13 = (await everywhere({ id: "BK-013" })) as IssueCode;
    expect(bk13.merged).toEqual({ commit: sha.direct, at: "2026-11-05T09:00:00Z" });
    expect(bk13.findings.map((f) => f.code)).toEqual(["merged_not_done"]);
    const bk24 = (await everywhere({ id: "BK-024" })) as IssueCode;
    expect(bk24.commits.map((c) => c.sha)).toEqual([sha.direct]);
    expect(bk24.branches).toEqual([]);
  });

  it("a remote-tracking branch is linked with its remote", async () => {
    const a = (await everywhere({ id: "BK-016" })) as IssueCode;
    expect(a.branches).toEqual([{ name: "bk-016-intake", remote: "origin", tip: sha.intake, ahead: 1, behind: 0, last_commit_at: "2026-11-07T09:00:00Z", merged: false }]);
    expect(a.authors).toEqual(["Tom Okafor"]);
  });

  it("an issue nothing links has an empty answer, and .ai/-only commits link nothing", async () => {
    const a = (await everywhere({ id: "BK-027" })) as IssueCode;
    expect(a).toMatchObject({ branches: [], commits: [], authors: [], first_activity_at: null, last_activity_at: null, merged: null, findings: [] });
    const feed = (await everywhere({ id: "BK-020" })) as IssueCode;
    expect(feed.commits.map((c) => c.sha)).not.toContain(sha.planOnly);
  });

  it("without an id: every linked issue without its commits, and every code finding", async () => {
    const a = (await everywhere({})) as PlanCode;
    expect(Object.keys(a)).toEqual(["default_branch", "issues", "findings"]);
    expect(a.default_branch).toBe("main");
    expect(a.issues.map((i) => i.id)).toEqual(["BK-013", "BK-015", "BK-016", "BK-020", "BK-024"]);
    expect(Object.keys(a.issues[0])).toEqual(["id", "branches", "authors", "first_activity_at", "last_activity_at", "merged", "findings"]);
    expect(a.findings.map((f) => `${f.subject} ${f.code}`)).toEqual([
      "BK-013 merged_not_done",
      "BK-015 merged_not_verified",
      "BK-015 stalled",
      "BK-016 work_without_start",
      "BK-020 work_without_start",
      "BK-024 work_without_start",
      // ACTIVE since the demo's last day, with no code: stalled at this test's today.
      "BK-034 stalled",
      "BK-035 stalled",
      "BK-036 stalled",
    ]);
  });

  it("--default-branch and --stale-days change the answer the same way everywhere", async () => {
    const a = (await everywhere({ id: "BK-020", default_branch: "bk-020-ics-feed" })) as IssueCode;
    expect(a.default_branch).toBe("bk-020-ics-feed");
    expect(a.branches[0]).toMatchObject({ ahead: 0, merged: true });
    const b = (await everywhere({ id: "BK-015", stale_days: 3650 })) as IssueCode;
    expect(b.findings.map((f) => f.code)).toEqual(["merged_not_verified"]);
  });

  it("an unknown id is not found (404, exit 12); an unknown default branch is invalid input (400, exit 2)", async () => {
    const [action, http, mcp, cli] = await Promise.all([viaAction({ id: "NO-SUCH-1" }), viaHttp({ id: "NO-SUCH-1" }), viaMcp({ id: "NO-SUCH-1" }), viaCli({ id: "NO-SUCH-1" })]);
    expect(action).toMatchObject({ ok: false, code: "not_found", message: "no issue 'NO-SUCH-1'" });
    expect(http).toMatchObject({ ok: false, status: 404, message: "no issue 'NO-SUCH-1'" });
    expect(mcp).toMatchObject({ ok: false, message: "no issue 'NO-SUCH-1'" });
    expect(cli).toMatchObject({ ok: false, exit: 12, code: "not_found", message: "no issue 'NO-SUCH-1'", stderr: "" });
    const bad = { id: "BK-020", default_branch: "no-such-branch" };
    expect(await viaAction(bad)).toMatchObject({ ok: false, code: "invalid_input" });
    expect(await viaHttp(bad)).toMatchObject({ ok: false, status: 400 });
    expect(await viaCli(bad)).toMatchObject({ ok: false, exit: 2 });
  });

  it("next and claim carry the code findings of the issue they name", async () => {
    process.env.COCKPIT_REPO = repo.dir;
    const next = (await runCapability("plan.next", {})) as { ok: true; value: { issue?: { id: string }; code_findings: { code: string }[] } };
    expect(next.value.issue?.id).toBe("BK-020");
    expect(next.value.code_findings.map((f) => f.code)).toEqual(["work_without_start"]);
    const http = (await (await fetch(`${server.url}/api/v1/plan/next`)).json()) as unknown;
    expect(http).toEqual(next.value);
  });

  it("a folder that is not a git repository answers an empty result, saying so", async () => {
    const one = await viaAction({ id: "BK-020" }, plainDir);
    expect(one).toMatchObject({ ok: true, value: { id: "BK-020", default_branch: null, branches: [], commits: [], merged: null, findings: [], note: expect.stringContaining("not a git repository") } });
    const all = await viaCli({}, plainDir);
    expect(all).toMatchObject({ ok: true, value: { default_branch: null, issues: [], findings: [], note: expect.stringContaining("not a git repository") } });
  });

  it("the command line's early read leaves nothing behind when the process exits while git still reads: no git process, no log folder", () => {
    const tmp = mkdtempSync(join(tmpdir(), "cockpit-code-tmp-"));
    try {
      // The early bundle as bin/cockpit loads it, then an exit at once (a command that stops on a
      // bad option): git has only just started on this checkout's history.
      const argv = [process.execPath, CLI, "plan", "code", "--repo", SOURCE_REPO];
      const script = `process.argv = ${JSON.stringify(argv)}; require(${JSON.stringify(join(ROOT, "dist", "code-early.js"))}); process.exit(0);`;
      const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...process.env, TMPDIR: tmp } });
      expect(r.status, r.stderr).toBe(0);
      expect(readdirSync(tmp)).toEqual([]);
      const left = spawnSync("pgrep", ["-f", `--output=${tmp}`], { encoding: "utf8" });
      expect(left.stdout.trim()).toBe("");
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("a claim passes over the issue commits already work on, naming it; --any takes it, with the warning", async () => {
    const passed = await runCli(["plan", "claim", "--repo", repo.dir, "--json"]);
    expect(passed.code).toBe(0);
    const other = JSON.parse(passed.stdout) as { issue: string; skipped: { id: string; reason: string }[] };
    expect(other.issue).not.toBe("BK-020");
    expect(other.skipped).toContainEqual({ id: "BK-020", reason: "commits already work on it without a start (work_without_start)" });
    const r = await runCli(["plan", "claim", "--any", "--repo", repo.dir, "--json"]);
    expect(r.code).toBe(0);
    const claimed = JSON.parse(r.stdout) as { issue: string; code_findings: { code: string; subject: string }[] };
    expect(claimed.issue).toBe("BK-020");
    expect(claimed.code_findings.map((f) => `${f.subject} ${f.code}`)).toEqual(["BK-020 work_without_start"]);
  });
});
