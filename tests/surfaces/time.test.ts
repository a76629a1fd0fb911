import { afterAll, describe, expect, it } from "vitest";
import { checkout, generateHistory, removeTempDirs, tempDir } from "@/tests/support/history";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runCliSync } from "./helpers";
import { refusalOf } from "../support/processes";

// `at` and the time verbs on the command line (the built CLI, as a user runs it) and over HTTP:
// the rule that a revision's model is a checkout's model, and the refusals by name.

afterAll(removeTempDirs);

const { repo, commits } = generateHistory(31, 8);

function get(target: string, base = repo): Promise<Response> {
  const url = new URL(target, "http://127.0.0.1:3000");
  return handleCapabilityRequest(new Request(url), url.pathname, { repo: base });
}

describe("cockpit plan … --at", () => {
  it.for([0, 3, 7])("plan model --json --at <commit %i> equals plan model --json on a checkout of it, apart from at", (k) => {
    const c = commits[k];
    const at = runCliSync(["plan", "model", "--json", "--at", c.sha, "--repo", repo]);
    const plain = runCliSync(["plan", "model", "--json", "--repo", checkout(repo, c.sha)]);
    expect(at.code, at.stderr).toBe(0);
    const { at: where, ...rest } = JSON.parse(at.stdout) as { at: unknown };
    expect(where).toEqual({ rev: c.sha, commit: c.sha, committed_at: c.when });
    expect(JSON.stringify(rest)).toBe(plain.stdout.trim());
  });

  it("plan graph --at draws the revision's graph", () => {
    const first = commits[0];
    expect(runCliSync(["plan", "graph", "--at", first.sha, "--repo", repo]).stdout).toBe(runCliSync(["plan", "graph", "--repo", checkout(repo, first.sha)]).stdout);
  });

  it("an unknown revision exits 2 naming it; a folder without git says so, and answers without --at", () => {
    const r = runCliSync(["plan", "status", "--at", "nope", "--repo", repo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("cockpit plan status: no revision 'nope' in this repository\n");
    const plain = checkout(repo, commits[7].sha);
    const g = runCliSync(["plan", "graph", "--at", "HEAD", "--repo", plain]);
    expect(g.code).toBe(2);
    expect(refusalOf(g)).toMatch(/not a git repository/);
    expect(runCliSync(["plan", "status", "--repo", plain]).code).toBe(0);
  });

  it("the time verbs answer in text and refuse a missing --since or --milestone with exit 2", () => {
    expect(runCliSync(["plan", "changes", "--since", commits[0].sha, "--repo", repo]).stdout).toMatch(/^changes from /);
    expect(runCliSync(["plan", "changes", "--repo", repo])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--since is required/) });
    expect(runCliSync(["plan", "burnup", "--repo", repo])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--milestone is required/) });
    expect(runCliSync(["plan", "forecast", "--milestone", "m1", "--seed", "x", "--repo", repo])).toMatchObject({ code: 2 });
    expect(runCliSync(["plan", "history", "I001", "--repo", repo]).stdout).toMatch(/^issue I001 /);
  });
});

describe("GET /api/v1/plan…?at=", () => {
  it("an unknown revision is 400 with the message that names it", async () => {
    const r = await get("/api/v1/plan/status?at=nope");
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: { code: "invalid_input", message: "no revision 'nope' in this repository" } });
  });

  it("a folder without git: 400 with at, 200 without", async () => {
    const plain = tempDir("cockpit-plain-");
    const r = await get("/api/v1/plan?at=HEAD", plain);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/not a git repository/);
    expect((await get("/api/v1/plan", plain)).status).toBe(200);
  });

  it("the answer carries at: rev, the full commit and its time", async () => {
    const r = await get(`/api/v1/plan/roadmap?at=${commits[2].when.slice(0, 10)}`);
    const body = (await r.json()) as { at: { rev: string; commit: string; committed_at: string } };
    expect(r.status).toBe(200);
    expect(body.at.rev).toBe(commits[2].when.slice(0, 10));
    expect(body.at.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Date.parse(body.at.committed_at)).toBeLessThanOrEqual(Date.parse(`${commits[2].when.slice(0, 10)}T23:59:59Z`));
  });
});
