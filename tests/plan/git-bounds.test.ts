// Every git call of a move and of a commit is bounded and asynchronous: a git that stalls is
// stopped at its limit and the answer is a refusal naming it, and while git waits (on a remote,
// on a lock) the process goes on answering.

import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitRecords } from "@/lib/repo/commit";
import { ensureCliBuilt, spawnCli, refusalOf } from "../support/processes";
import { cleanupRepos, gatedRemote, makePlanRepo } from "../support/repo";

beforeAll(ensureCliBuilt);
afterAll(cleanupRepos);

describe("bounded git", () => {
  it("a move whose git stalls (a FIFO in place of .git/HEAD) is refused at 10 s naming the limit, and writes nothing", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }], commit: true });
    const before = repo.snapshot();
    rmSync(repo.path(".git/HEAD"));
    expect(spawnSync("mkfifo", [repo.path(".git/HEAD")]).status).toBe(0);
    const r = await spawnCli(["start", "I0001", "--repo", repo.root]);
    expect(r.code).toBe(15);
    // Whichever git the move asks first (who acts: git config; the state check's ls-files; the ledger's rev-parse) meets the FIFO.
    expect(refusalOf(r)).toMatch(/git (config|ls-files|rev-parse) took longer than 10 s and was stopped/);
    expect(repo.snapshot()).toEqual(before);
  }, 60_000);

  it("while a commit's push waits on its remote, the process goes on answering (git holds no event loop)", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001" }], commit: true });
    const { gate, outcome } = gatedRemote(repo.root);
    writeFileSync(repo.issuePath("I0001"), repo.read("I0001") + "owner: bob\n");
    const committing = commitRecords(repo.root, {});
    // Let the push through from this process's own timer: it fires only if the commit does not hold the loop.
    const timer = setInterval(() => {
      if (spawnSync("git", ["log", "-1", "--format=%B"], { cwd: repo.root, encoding: "utf8" }).stdout.includes("I0001")) writeFileSync(gate, "");
    }, 50);
    const r = await committing.finally(() => clearInterval(timer));
    expect(r.committed).toBe(true);
    expect(outcome()).toBe("released");
    expect(r.push).toMatchObject({ remote: "origin", status: "failed" });
  }, 30_000);
});
