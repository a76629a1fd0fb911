import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRANCHES_PER_ISSUE } from "@/lib/code/links";
import type { IssueCode } from "@/lib/code/shapes";
import { REFS_READ_LIMIT } from "@/lib/repo/git-refs";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runGit } from "@/tests/support/git";
import { addPackedRefs } from "@/tests/support/packed-refs";
import { ROOT } from "@/tests/surfaces/helpers";

// A fetch from a hostile remote brought 100,000 remote-tracking branches naming one issue. The
// served code links read the first REFS_READ_LIMIT refs and link BRANCHES_PER_ISSUE of them, with
// a finding naming each count, and the server answers other requests while the code read runs.

const MANY = 100_000;
let dir: string;
let repo: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cockpit-many-refs-"));
  repo = join(dir, "repo");
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "demo-history.mjs"), repo], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`demo-history: ${r.stderr}`);
  addPackedRefs(repo, "refs/remotes/origin/bk-020-", MANY, runGit(repo, ["rev-parse", "bk-020-ics-feed"]));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ask(target: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(`http://127.0.0.1${target}`);
  const r = await handleCapabilityRequest(new Request(url), url.pathname, { repo });
  return { status: r.status, body: await r.json() };
}

describe("a repository with 100,000 branches naming one issue", () => {
  it("GET /api/v1/plan/code?id=BK-020 answers with the first refs read and linked, a finding naming each count; /api/v1/plan/status is answered while it reads", async () => {
    let codeDone = false;
    const code = ask("/api/v1/plan/code?id=BK-020").finally(() => (codeDone = true));
    // One status after another while the code read runs: each is answered between its steps.
    const answeredDuring: boolean[] = [];
    while (!codeDone) {
      const status = await ask("/api/v1/plan/status");
      expect(status.status).toBe(200);
      answeredDuring.push(!codeDone);
    }
    const { status, body } = await code;
    expect(status).toBe(200);
    expect(answeredDuring[0]).toBe(true);

    const answer = body as IssueCode;
    expect(answer.default_branch).toBe("main");
    expect(answer.branches).toHaveLength(BRANCHES_PER_ISSUE);
    // The local branch sorts first by name, then the first remote-tracking ones.
    expect(answer.branches[0]).toMatchObject({ name: "bk-020-ics-feed", remote: null });
    expect(answer.branches[1]).toMatchObject({ name: "bk-020-0000000", remote: "origin" });
    const byCode = Object.fromEntries(answer.findings.map((f) => [f.code, f.message]));
    expect(byCode.too_many_refs).toContain(`the repository has ${(MANY + 6).toLocaleString("en")} refs under refs/heads and refs/remotes; the first ${REFS_READ_LIMIT.toLocaleString("en")} (by name) were read`);
    expect(byCode.too_many_branches).toContain(`BK-020 has ${(REFS_READ_LIMIT - 4).toLocaleString("en")} branches; the first ${BRANCHES_PER_ISSUE} (by name) are linked`);
    // The issue's own finding is still there: its commits are read.
    expect(byCode.work_without_start).toContain("branch bk-020-ics-feed");
  }, 240_000);

  it("the whole plan's answer carries the repository's finding once", async () => {
    const { status, body } = await ask("/api/v1/plan/code");
    expect(status).toBe(200);
    const findings = (body as { findings: { code: string; subject: string }[] }).findings;
    expect(findings.filter((f) => f.code === "too_many_refs")).toEqual([expect.objectContaining({ subject: "refs" })]);
    expect(findings.filter((f) => f.code === "too_many_branches").map((f) => f.subject)).toEqual(["BK-020"]);
  }, 120_000);
});

describe("a clone with a few branches and its origin/HEAD", () => {
  it("has no too_many_refs: origin/HEAD is listed and is no branch, and nothing was left unread", async () => {
    const small = mkdtempSync(join(tmpdir(), "cockpit-few-refs-"));
    try {
      const origin = join(small, "origin");
      const r = spawnSync(process.execPath, [join(ROOT, "scripts", "demo-history.mjs"), origin], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`demo-history: ${r.stderr}`);
      const clone = join(small, "clone");
      runGit(small, ["clone", "-q", origin, clone]);
      expect(runGit(clone, ["symbolic-ref", "refs/remotes/origin/HEAD"])).toBe("refs/remotes/origin/main");
      const url = new URL("http://127.0.0.1/api/v1/plan/code");
      const res = await handleCapabilityRequest(new Request(url), url.pathname, { repo: clone });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { findings: { code: string }[]; issues: IssueCode[] };
      expect(body.findings.map((f) => f.code)).not.toContain("too_many_refs");
      // The branches were read: the demo's feature branch, fetched, links its issue.
      expect(body.issues.find((i) => i.id === "BK-020")?.branches.map((b) => `${b.remote}/${b.name}`)).toContain("origin/bk-020-ics-feed");
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  }, 120_000);
});
