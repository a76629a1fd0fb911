// plan.commit with real git: a repository with a bare origin, moves and edits made through the
// Cockpit's own functions, a second clone that pushes first (behind) and one that changes the same
// line (a conflict, shown and undone).

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CapabilityError } from "@/lib/plan/errors";
import { commitRecords } from "@/lib/repo/commit";
import { editRecord } from "@/lib/repo/plan-edit";
import { transition } from "@/lib/repo/transition";
import { CLI } from "../support/processes";
import { AT, ISSUES, cleanupRepos, git, makePlanRepo, tempDir, type PlanRepo } from "../support/repo";

afterAll(cleanupRepos);

const now = () => AT;

/** A plan repository with a bare origin it tracks, and a second clone of that origin. */
function withOrigin(): { repo: PlanRepo; origin: string; other: string } {
  const repo = makePlanRepo({
    milestones: [{ id: "M1" }],
    issues: [{ id: "I0001" }, { id: "I0002", depends_on: ["I0001"] }],
    files: { "README.md": "readme\n", ".gitignore": ".ai/local/\n" },
    commit: true,
  });
  const origin = tempDir("cockpit-origin-");
  git(origin, "init", "-q", "--bare", "-b", "main");
  repo.git("remote", "add", "origin", origin);
  repo.git("push", "-q", "-u", "origin", "main");
  const other = tempDir("cockpit-other-");
  git(other, "clone", "-q", origin, ".");
  git(other, "config", "user.email", "other@cockpit.invalid");
  git(other, "config", "user.name", "Other");
  return { repo, origin, other };
}

async function moveAndEdit(repo: PlanRepo): Promise<void> {
  await transition(repo.root, "I0001", "start", { now, by: "alice" });
  await editRecord(repo.root, { id: "I0002", set: { priority: "p0" }, add: { scope: ["docs"] } }, { now, by: "bob" });
}

describe("plan.commit", () => {
  it("lists the uncommitted record changes with the moves and edits behind them, and a dry run commits nothing", async () => {
    const { repo } = withOrigin();
    await moveAndEdit(repo);
    const head = repo.git("rev-parse", "HEAD");
    const r = await commitRecords(repo.root, { dry_run: true });
    expect(r).toMatchObject({ dry_run: true, committed: false, count: 2 });
    expect(r.files.map((f) => [f.record, f.status, f.events.map((e) => `${e.summary} [${e.by}]`)])).toEqual([
      ["I0001", "modified", ["start [alice]"]],
      ["I0002", "modified", ["edit: set priority=p0; add scope=docs [bob]"]],
    ]);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });

  it("commits the records' folder only, with a message listing them, and pushes to the origin", async () => {
    const { repo, origin } = withOrigin();
    await moveAndEdit(repo);
    writeFileSync(repo.path("README.md"), "changed by hand\n");
    writeFileSync(repo.path("notes.txt"), "staged elsewhere\n");
    repo.git("add", "notes.txt");
    const r = await commitRecords(repo.root, {});
    expect(r.committed).toBe(true);
    expect(repo.git("show", "--name-only", "--format=", "HEAD").split("\n").sort()).toEqual([`${ISSUES}/I0001.yaml`, `${ISSUES}/I0002.yaml`]);
    const message = repo.git("log", "-1", "--format=%B");
    expect(message).toContain("- I0001: start [alice]");
    expect(message).toContain("- I0002: edit: set priority=p0; add scope=docs [bob]");
    expect(message.split("\n")[0]).toBe("plan: 2 record changes (I0001, I0002)");
    expect(r.author).toBe("Cockpit Tests <tests@cockpit.invalid>");
    // What is outside the folder stays as it was: modified (not staged), and staged (not committed).
    expect(repo.git("status", "--porcelain")).toBe("M README.md\nA  notes.txt"); // the first line's leading space is trimmed
    expect(r.push).toMatchObject({ remote: "origin", branch: "main", status: "pushed" });
    expect(git(origin, "rev-parse", "main")).toBe(r.commit);
    expect((await commitRecords(repo.root, { dry_run: true })).count).toBe(0);
  });

  it("uses the author it is given (cockpit serve --author)", async () => {
    const { repo } = withOrigin();
    await moveAndEdit(repo);
    const r = await commitRecords(repo.root, { push: false }, { author: "Lead Person <lead@example.com>" });
    expect(repo.git("log", "-1", "--format=%an <%ae> / %cn <%ce>")).toBe("Lead Person <lead@example.com> / Lead Person <lead@example.com>");
    expect(r.push).toBeUndefined();
    await expect(commitRecords(repo.root, {}, { author: "no email" })).rejects.toThrow(/'Name <email>'/);
  });

  it("says so when the origin is ahead, keeps the commit, and with pull_rebase rebases and pushes", async () => {
    const { repo, origin, other } = withOrigin();
    writeFileSync(join(other, "README.md"), "theirs\n");
    git(other, "commit", "-qam", "their change");
    git(other, "push", "-q", "origin", "main");
    await moveAndEdit(repo);
    const r = await commitRecords(repo.root, {});
    expect(r.committed).toBe(true);
    expect(r.push?.status).toBe("behind");
    expect(r.push?.message).toMatch(/pull_rebase \(git pull --rebase\)/);
    expect(repo.git("rev-parse", "HEAD")).toBe(r.commit);
    expect(git(origin, "rev-parse", "main")).not.toBe(r.commit);

    await editRecord(repo.root, { id: "I0001", set: { owner: "carol" } }, { now });
    const again = await commitRecords(repo.root, { pull_rebase: true });
    expect(again.push?.status).toBe("pushed");
    expect(git(origin, "rev-parse", "main")).toBe(repo.git("rev-parse", "HEAD"));
    expect(readFileSync(repo.path("README.md"), "utf8")).toBe("theirs\n");
  });

  it("shows a conflict met by pull --rebase, undoes the rebase, and pushes nothing", async () => {
    const { repo, origin, other } = withOrigin();
    const path = join(other, ISSUES, "I0002.yaml");
    writeFileSync(path, readFileSync(path, "utf8").replace("priority: p1", "priority: p3"));
    git(other, "commit", "-qam", "their priority");
    git(other, "push", "-q", "origin", "main");
    const theirs = git(origin, "rev-parse", "main");
    await moveAndEdit(repo);
    const r = await commitRecords(repo.root, { pull_rebase: true });
    expect(r.push?.status).toBe("conflict");
    expect(r.push?.conflicts).toEqual([`${ISSUES}/I0002.yaml`]);
    expect(r.push?.message).toMatch(/conflict in .*I0002.yaml.*undone/);
    expect(existsSync(repo.path(".git/rebase-merge")) || existsSync(repo.path(".git/rebase-apply"))).toBe(false);
    expect(repo.git("rev-parse", "HEAD")).toBe(r.commit);
    expect(repo.git("status", "--porcelain")).toBe("");
    expect(git(origin, "rev-parse", "main")).toBe(theirs);
  });

  it("on the command line: a push that is behind exits 15 and says so", async () => {
    const { repo, other } = withOrigin();
    writeFileSync(join(other, "README.md"), "theirs\n");
    git(other, "commit", "-qam", "their change");
    git(other, "push", "-q", "origin", "main");
    await moveAndEdit(repo);
    const r = spawnSync(process.execPath, [CLI, "plan", "commit", "--repo", repo.root], { encoding: "utf8" });
    expect(r.status).toBe(15);
    expect(r.stdout).toMatch(/^commit: [0-9a-f]{12} by Cockpit Tests/);
    expect(r.stdout).toMatch(/push: behind: /);
    const nothing = execFileSync(process.execPath, [CLI, "plan", "commit", "--repo", repo.root], { encoding: "utf8" });
    expect(nothing).toMatch(/nothing to commit/);
  });

  it("refuses outside a git work tree", async () => {
    const dir = tempDir("cockpit-nogit-");
    const error = await commitRecords(dir, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as CapabilityError).message).toMatch(/not a git work tree/);
  });
});
