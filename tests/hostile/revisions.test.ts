import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { generateHistory, git, removeTempDirs } from "@/tests/support/history";
import { ensureCliBuilt, spawnCli } from "@/tests/support/processes";
import { cleanup as cleanupServed, mcpMemory } from "@/tests/surfaces/helpers";
import { refusalOf } from "../support/processes";

// `at`, `since` and `until` are data: only a commit id, a ref name with ~N/^N steps, or a date or
// time reach git. Git's forms that search every commit message (`^{/regex}`, `:/text`) stalled a
// served Cockpit for 40 s and more per request; they are refused before any git call.

const STALL = "HEAD^{/(.*)(.*)\\2\\1~~~}";
const REFUSED_FORMS = [
  STALL,
  ":/plan",
  "HEAD^{/plan}",
  "HEAD@{1}",
  "@{-1}",
  "main@{upstream}",
  "@",
  "HEAD^{tree}",
  "HEAD^{}",
  "HEAD^!",
  "HEAD^@",
  "HEAD^-1",
  "HEAD~1..HEAD",
  "HEAD...main",
  "^HEAD",
  "HEAD:.ai/repo/project/project.yaml",
  "main branch",
  "a*",
  "a?b",
  "a[1]",
  "a\\b",
  "refs//heads/main",
  "main/",
  "main.",
  ".hidden",
  "refs/heads/.hidden",
  "main.lock",
  "refs/heads/main.lock/x",
  "ma\u0001in",
  "-n1",
  "--all",
  "--output=/tmp/x",
];
const FORMS = /is not a revision the Cockpit reads; give a commit id \(4 to 64 hex digits\), a branch, tag or ref name .* optionally followed by ~N or \^N .* a date \(2026-11-30\) or an ISO time/;

let repo: string;
let commits: { sha: string }[];

beforeAll(() => {
  ensureCliBuilt();
  ({ repo, commits } = generateHistory(41, 4));
  git(repo, ["tag", "v1", commits[1].sha]);
  git(repo, ["branch", "side", commits[2].sha]);
});
afterAll(() => {
  removeTempDirs();
  cleanupServed();
});

function get(target: string): Promise<Response> {
  const url = new URL(target, "http://127.0.0.1:3000");
  return handleCapabilityRequest(new Request(url), url.pathname, { repo });
}

describe("cockpit plan … --at/--since/--until", () => {
  it("the regex search that stalled the server exits 2 at once, listing the accepted forms", async () => {
    const r = await spawnCli(["model", "--json", "--at", STALL, "--repo", repo]);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toMatch(FORMS);
    // Within the 10 s every git call has: git's search was never run.
    expect(r.exitedAt - r.spawnedAt).toBeLessThan(10_000);
  });

  it("a revision that starts with '-' (--at=-n1) exits 2 with the accepted forms, as every other", async () => {
    for (const args of [["model", "--at=-n1"], ["changes", "--since=-n1"]]) {
      const r = await spawnCli([...args, "--repo", repo]);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(refusalOf(r)).toMatch(FORMS);
    }
  });

  it("each of git's other forms is refused the same way, on --at, --since and --until", async () => {
    for (const rev of [":/plan", "HEAD@{1}", "HEAD~1..HEAD", "HEAD:.ai/repo/project/project.yaml"]) {
      for (const args of [
        ["status", "--at", rev],
        ["changes", "--since", rev],
        ["changes", "--since", "HEAD~1", "--until", rev],
      ]) {
        const r = await spawnCli([...args, "--repo", repo]);
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
        expect(refusalOf(r)).toMatch(FORMS);
      }
    }
  });
});

describe("cockpit mcp", () => {
  it("refuses an invalid revision on at, since and until with the accepted forms listed, an option-like one too", async () => {
    const mcp = await mcpMemory(repo);
    try {
      for (const [name, args] of [
        ["plan", { at: "-n1" }],
        ["plan", { at: STALL }],
        ["plan_status", { at: "HEAD@{1}" }],
        ["plan_changes", { since: ":/plan" }],
        ["plan_changes", { since: "HEAD~1", until: "--all" }],
      ] as const) {
        const r = (await mcp.client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
        expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(r.content[0].text, `${name} ${JSON.stringify(args)}`).toMatch(FORMS);
      }
      const ok = (await mcp.client.callTool({ name: "plan_status", arguments: { at: "HEAD~1" } })) as { isError?: boolean };
      expect(ok.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });
});

describe("GET /api/v1/plan…?at= and the time reads", () => {
  it.for(REFUSED_FORMS)("%j is 400, listing the accepted forms", async (rev) => {
    for (const target of [`/api/v1/plan?at=${encodeURIComponent(rev)}`, `/api/v1/plan/changes?since=${encodeURIComponent(rev)}`]) {
      const r = await get(target);
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(r.status, target).toBe(400);
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toMatch(FORMS);
    }
  });

  it("the accepted forms still answer: ids, branches, tags, refs/…, ~N and ^N steps, ^{commit}, dates", async () => {
    const head = commits[3].sha;
    const cases: [string, string][] = [
      [head, head],
      [head.slice(0, 4), head],
      [head.toUpperCase().slice(0, 12), head],
      ["HEAD", head],
      ["main", head],
      ["refs/heads/main", head],
      ["HEAD~", commits[2].sha],
      ["HEAD^", commits[2].sha],
      ["HEAD~2", commits[1].sha],
      ["HEAD^1~1", commits[1].sha],
      ["main^{commit}", head],
      ["v1", commits[1].sha],
      ["side", commits[2].sha],
    ];
    for (const [rev, sha] of cases) {
      const r = await get(`/api/v1/plan/status?at=${encodeURIComponent(rev)}`);
      expect(r.status, rev).toBe(200);
      expect(((await r.json()) as { at: { commit: string } }).at.commit, rev).toBe(sha);
    }
    expect((await get("/api/v1/plan/status?at=2026-10-01")).status).toBe(200);
    const unknown = await get("/api/v1/plan/status?at=no-such-branch");
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe("no revision 'no-such-branch' in this repository");
  });
});
