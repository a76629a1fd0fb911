import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitAt, generateHistory, git, issueText, milestonePath, milestoneText, newRepo, PROJECT, projectText, removeTempDirs } from "@/tests/support/history";
import { type RunningServer, ensureBuild, startServer } from "@/tests/surfaces/helpers";

// A served Cockpit (`next start`) over hostile repositories: a revision that made git search every
// commit message, a git that waits on a FIFO, a records folder linked out of the repository. Each
// answer comes within its limit, and no request waits for another's git.

let dist: string;
const servers: RunningServer[] = [];
const fifos: string[] = [];

async function serve(repo: string): Promise<RunningServer> {
  const server = await startServer(dist, repo);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  dist = await ensureBuild();
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  // A git still blocked on a FIFO (one a server could not stop) reads an end each time a writer
  // opens and closes it; it may open it again for the next ref it tries, so until no reader is left.
  for (const fifo of fifos) {
    for (let tries = 0; tries < 100; tries++) {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        break; // ENXIO: no reader left
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  removeTempDirs();
});

describe("revisions that make git work long", () => {
  it("GET /api/v1/plan?at=HEAD^{/(.*)(.*)\\2\\1~~~} is 400 at once, and the server goes on answering", async () => {
    const { repo } = generateHistory(51, 6);
    const server = await serve(repo);
    const started = Date.now();
    const r = await fetch(`${server.url}/api/v1/plan?at=${encodeURIComponent("HEAD^{/(.*)(.*)\\2\\1~~~}")}`);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(r.status).toBe(400);
    expect(body.error.message).toMatch(/is not a revision the Cockpit reads; give a commit id/);
    // Within the 10 s a git call may take: git's search was never started.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await fetch(`${server.url}/api/v1/plan/status?at=HEAD~1`)).status).toBe(200);
  }, 120_000);

  it("while one request waits on a git that cannot read its refs (a FIFO), another is answered; the first is stopped at 10 s with a refusal naming the limit", async () => {
    const { repo } = generateHistory(52, 4);
    git(repo, ["tag", "v1", "HEAD~1"]);
    git(repo, ["pack-refs", "--all"]);
    // Git opens packed-refs to resolve a tag: a FIFO there holds it until a writer comes.
    const fifo = join(repo, ".git", "packed-refs");
    renameSync(fifo, join(repo, ".git", "packed-refs.real"));
    execFileSync("mkfifo", [fifo]);
    fifos.push(fifo);
    const server = await serve(repo);

    let slowDone = false;
    const slow = fetch(`${server.url}/api/v1/plan?at=v1`).then(
      async (r) => {
        slowDone = true;
        return { status: r.status, body: (await r.json()) as { error: { code: string; message: string } } };
      },
      (error: unknown) => ({ status: -1, body: { error: { code: "none", message: String(error) } } }),
    );
    // Give the slow request time to reach git.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const fast = await fetch(`${server.url}/api/v1/plan/status`);
    expect(fast.status).toBe(200);
    expect(slowDone).toBe(false);

    const answered = await slow;
    expect(answered.status).toBe(422);
    expect(answered.body.error).toEqual({
      code: "refused",
      message: expect.stringMatching(/^git rev-parse took longer than 10 s and was stopped/),
    });
  }, 120_000);
});

describe("a records folder linked out of the repository, served", () => {
  it("the plan has one finding naming it, a move is 422, and nothing outside changes", async () => {
    const repo = newRepo("cockpit-served-links-");
    const outside = mkdtempSync(join(tmpdir(), "cockpit-served-outside-"));
    try {
      commitAt(repo, "2026-10-01T10:00:00Z", { [PROJECT]: projectText(), [milestonePath("m1")]: milestoneText("m1") });
      writeFileSync(join(outside, "X1.yaml"), issueText({ id: "X1", milestone: "m1" }));
      mkdirSync(join(repo, ".ai/repo/project"), { recursive: true });
      symlinkSync(outside, join(repo, ".ai/repo/project/issues"));
      commitAt(repo, "2026-10-02T10:00:00Z");
      const server = await serve(repo);
      for (const at of ["", "?at=HEAD"]) {
        const plan = (await (await fetch(`${server.url}/api/v1/plan${at}`)).json()) as { issues: unknown[]; findings: { code: string; subject: string }[] };
        expect(plan.issues).toEqual([]);
        expect(plan.findings.filter((f) => f.code === "unreadable_record").map((f) => f.subject)).toEqual([".ai/repo/project/issues"]);
      }
      const move = await fetch(`${server.url}/api/v1/plan/transition`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ issue: "X1", transition: "start" }),
      });
      expect(move.status).toBe(422);
      expect(((await move.json()) as { error: { message: string } }).error.message).toMatch(/^\.ai\/repo\/project\/issues is a symbolic link that leads outside the repository/);
      expect(readdirSync(outside)).toEqual(["X1.yaml"]);
      expect(readFileSync(join(outside, "X1.yaml"), "utf8")).toBe(issueText({ id: "X1", milestone: "m1" }));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 120_000);
});
