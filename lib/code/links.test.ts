import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ANA, CodeRepo, TOM } from "@/tests/support/code-history";
import { LinkMemory, codeFindings, linkIssues, suggestedMove, type IssueFacts, type IssueLinks } from "./links";
import { forgetCommitGraph, lastReadCount, readCommitGraph, readCommitGraphEarly } from "./read-graph";
import { codeOfTopLevel } from "../repo/git-log";
import { earlyRepo } from "../surfaces/cli/code-early-args";

// docs/code-links.md: which commits and branches link to which issue, on real git histories.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function newRepo(): CodeRepo {
  const dir = mkdtempSync(join(tmpdir(), "cockpit-code-"));
  dirs.push(dir);
  const repo = CodeRepo.init(dir);
  repo.commit("Start the plan", { ".ai/repo/project/project.yaml": "name: x\n" }, "2026-11-01T08:00:00Z");
  return repo;
}

/** The links as read cold, HEAD back on main (HEAD's branch is the default when nothing else names one). */
async function links(repo: CodeRepo, ids: string[], defaultBranch?: string): Promise<Map<string, IssueLinks>> {
  repo.checkout("main");
  forgetCommitGraph(repo.dir);
  const graph = await readCommitGraph(repo.dir, defaultBranch);
  return linkIssues(graph!, ids);
}

const shas = (l: IssueLinks | undefined) => (l?.commits ?? []).map((c) => c.sha);

describe("what links a commit", () => {
  it("a code commit is linked to every issue its message mentions, subject or body, trailers included", async () => {
    const repo = newRepo();
    const a = repo.commit("BK-001: the scaffold", { "src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    const b = repo.commit("Tidy up\n\nAlso touches bk-002.\n\nRefs: BK-003", { "src/b.ts": "b\n" }, "2026-11-02T10:00:00Z");
    const l = await links(repo, ["BK-001", "BK-002", "BK-003", "BK-004"]);
    expect(shas(l.get("BK-001"))).toEqual([a]);
    expect(shas(l.get("BK-002"))).toEqual([b]);
    expect(shas(l.get("BK-003"))).toEqual([b]);
    expect(l.has("BK-004")).toBe(false);
  });

  it("a commit that changes only .ai/, an empty commit and a merge that brings nothing new are not code and link nothing", async () => {
    const repo = newRepo();
    repo.commit("Start BK-001", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\n" }, "2026-11-02T09:00:00Z");
    repo.commit("BK-001: nothing at all", {}, "2026-11-02T10:00:00Z");
    repo.checkout("plan-only", true);
    repo.commit("Verify BK-001", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\nv: 1\n" }, "2026-11-02T11:00:00Z");
    repo.checkout("main");
    repo.merge("plan-only", "2026-11-02T12:00:00Z", "Merge BK-001's plan");
    expect((await links(repo, ["BK-001"])).has("BK-001")).toBe(false);
  });

  it("a root commit is code when it holds a path outside .ai/ (it counts against nothing)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-code-root-"));
    dirs.push(dir);
    const repo = CodeRepo.init(dir);
    const root = repo.commit("BK-001: initial import", { "README.md": "x\n", ".ai/repo/project/project.yaml": "name: x\n" }, "2026-11-01T08:00:00Z");
    expect(shas((await links(repo, ["BK-001"])).get("BK-001"))).toEqual([root]);
  });

  it("a commit reachable only from a tag links nothing; one on a deleted branch is gone with it", async () => {
    const repo = newRepo();
    repo.checkout("gone", true);
    repo.commit("BK-001: on a branch deleted later", { "src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    repo.git(["tag", "v-gone"]);
    repo.checkout("main");
    repo.git(["branch", "-D", "gone"]);
    expect((await links(repo, ["BK-001"])).has("BK-001")).toBe(false);
  });

  it("milestones are not linked: only the ids given (the plan's issues) are looked for", async () => {
    const repo = newRepo();
    repo.checkout("booking-work", true);
    repo.commit("booking: the slot engine", { "src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    expect((await links(repo, ["BK-001"])).size).toBe(0);
  });
});

describe("branches", () => {
  it("a branch whose name mentions an issue is linked to it with no commits; it holds its first-parent line back to the default branch's", async () => {
    const repo = newRepo();
    repo.git(["branch", "bk-002-empty"]);
    repo.checkout("feature/BK-001-feed", true);
    const one = repo.commit("Parse the feed", { "src/feed.ts": "1\n" }, "2026-11-03T09:00:00Z");
    const two = repo.commit("Serve the feed", { "src/feed.ts": "2\n" }, "2026-11-03T10:00:00Z", TOM);
    const l = await links(repo, ["BK-001", "BK-002"]);
    const b1 = l.get("BK-001")!;
    expect(b1.branches).toEqual([{ name: "feature/BK-001-feed", remote: null, tip: two, ahead: 2, behind: 0, last_commit_at: "2026-11-03T10:00:00Z", merged: false }]);
    expect(b1.commits.map((c) => [c.sha, c.subject, c.author, c.authored_at, c.on_default])).toEqual([
      [two, "Serve the feed", "Tom Okafor", "2026-11-03T10:00:00Z", false],
      [one, "Parse the feed", "Ana Sousa", "2026-11-03T09:00:00Z", false],
    ]);
    expect(b1.authors).toEqual(["Ana Sousa", "Tom Okafor"]);
    expect([b1.first_activity_at, b1.last_activity_at]).toEqual(["2026-11-03T09:00:00Z", "2026-11-03T10:00:00Z"]);
    expect(b1.merged).toBeNull();
    const b2 = l.get("BK-002")!;
    expect(b2.branches.map((b) => [b.name, b.ahead, b.behind, b.merged])).toEqual([["bk-002-empty", 0, 0, true]]);
    expect(b2.commits).toEqual([]);
    expect(b2.last_activity_at).toBeNull();
  });

  it("remote-tracking branches are linked by the name after refs/remotes/<remote>/, with their remote; <remote>/HEAD is not a branch", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-local", true);
    const tip = repo.commit("Work", { "src/a.ts": "a\n" }, "2026-11-03T09:00:00Z");
    repo.checkout("main");
    repo.git(["update-ref", "refs/remotes/origin/bk-001-ics", tip]);
    repo.git(["update-ref", "refs/remotes/origin/main", repo.sha("main")]);
    repo.git(["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"]);
    repo.git(["update-ref", "refs/remotes/upstream/BK-001", tip]);
    repo.git(["branch", "-D", "bk-001-local"]);
    const l = (await links(repo, ["BK-001", "HEAD"])).get("BK-001")!;
    expect(l.branches.map((b) => [b.remote, b.name, b.ahead])).toEqual([
      ["origin", "bk-001-ics", 1],
      ["upstream", "BK-001", 1],
    ]);
    expect(shas(l)).toEqual([tip]);
  });

  it("a commit on two branches is linked to both issues", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-base", true);
    const shared = repo.commit("Shared groundwork", { "src/shared.ts": "s\n" }, "2026-11-03T09:00:00Z");
    repo.checkout("bk-002-on-top", true);
    const own = repo.commit("More", { "src/more.ts": "m\n" }, "2026-11-03T10:00:00Z");
    const l = await links(repo, ["BK-001", "BK-002"]);
    expect(shas(l.get("BK-001"))).toEqual([shared]);
    expect(shas(l.get("BK-002"))).toEqual([own, shared]);
  });

  it("a branch merged with a merge commit keeps its commits; merged is that merge commit, and the branch is merged with nothing ahead", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-roles", true);
    const one = repo.commit("Roles table", { "src/roles.ts": "1\n" }, "2026-11-03T09:00:00Z");
    const two = repo.commit("Enforce roles", { "src/roles.ts": "2\n" }, "2026-11-03T10:00:00Z");
    repo.checkout("main");
    repo.commit("Unrelated work on main", { "src/other.ts": "o\n" }, "2026-11-03T11:00:00Z");
    const merge = repo.merge("bk-001-roles", "2026-11-04T08:30:00Z");
    const after = repo.commit("Later", { "src/later.ts": "l\n" }, "2026-11-04T09:00:00Z");
    const l = (await links(repo, ["BK-001"])).get("BK-001")!;
    // The merge brings code and its message names the branch: it is linked too.
    expect(shas(l)).toEqual([merge, two, one]);
    expect(l.commits.every((c) => c.on_default)).toBe(true);
    expect(l.merged).toEqual({ commit: merge, at: "2026-11-04T08:30:00Z" });
    expect(l.branches.map((b) => [b.name, b.ahead, b.behind, b.merged])).toEqual([["bk-001-roles", 0, 3, true]]);
    expect(after).not.toBe(merge);
  });

  it("a deleted branch links nothing by its name, but its merge commit's message still mentions the issue", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-ics-feed", true);
    repo.commit("Feed", { "src/feed.ts": "1\n" }, "2026-11-03T09:00:00Z");
    repo.checkout("main");
    const merge = repo.merge("bk-001-ics-feed", "2026-11-04T08:00:00Z");
    repo.git(["branch", "-d", "bk-001-ics-feed"]);
    const l = (await links(repo, ["BK-001"])).get("BK-001")!;
    expect(l.branches).toEqual([]);
    expect(shas(l)).toEqual([merge]);
    expect(l.merged).toEqual({ commit: merge, at: "2026-11-04T08:00:00Z" });
  });

  it("a fast-forwarded branch holds no commits: only what its commits' messages say links them", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-ff", true);
    repo.commit("Work without a mention", { "src/a.ts": "1\n" }, "2026-11-03T09:00:00Z");
    const named = repo.commit("BK-001: the named part", { "src/a.ts": "2\n" }, "2026-11-03T10:00:00Z");
    repo.checkout("main");
    repo.git(["merge", "-q", "--ff-only", "bk-001-ff"]);
    const l = (await links(repo, ["BK-001"])).get("BK-001")!;
    expect(shas(l)).toEqual([named]);
    expect(l.branches.map((b) => [b.ahead, b.behind, b.merged])).toEqual([[0, 0, true]]);
    // The named commit is on the default branch's first-parent line: it brought itself in.
    expect(l.merged).toEqual({ commit: named, at: "2026-11-03T10:00:00Z" });
  });

  it("a squash merge: the squash commit on the default branch mentions the issue and is its merge; the branch stays unmerged and ahead", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-hours", true);
    repo.commit("Hours, part 1", { "src/hours.ts": "1\n" }, "2026-11-03T09:00:00Z");
    const tip = repo.commit("Hours, part 2", { "src/hours.ts": "2\n" }, "2026-11-03T10:00:00Z");
    repo.checkout("main");
    const squash = repo.commit("Staff working hours (BK-001) (#14)", { "src/hours.ts": "2\n" }, "2026-11-04T09:00:00Z");
    const l = (await links(repo, ["BK-001"])).get("BK-001")!;
    expect(l.merged).toEqual({ commit: squash, at: "2026-11-04T09:00:00Z" });
    expect(l.branches.map((b) => [b.tip, b.ahead, b.behind, b.merged])).toEqual([[tip, 2, 1, false]]);
    expect(l.commits.map((c) => [c.sha === squash, c.on_default])).toEqual([
      [true, true],
      [false, false],
      [false, false],
    ]);
  });

  it("merged is the oldest commit of the first-parent line that brings a linked commit in", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-a", true);
    repo.commit("First part", { "src/a.ts": "1\n" }, "2026-11-03T09:00:00Z");
    repo.checkout("main");
    const first = repo.merge("bk-001-a", "2026-11-04T09:00:00Z");
    repo.checkout("bk-001-a");
    repo.commit("Second part", { "src/a.ts": "2\n" }, "2026-11-05T09:00:00Z");
    repo.checkout("main");
    repo.merge("bk-001-a", "2026-11-06T09:00:00Z");
    expect((await links(repo, ["BK-001"])).get("BK-001")!.merged).toEqual({ commit: first, at: "2026-11-04T09:00:00Z" });
  });
});

describe("the default branch", () => {
  it("is the one asked for, else the branch origin/HEAD names, else HEAD's branch", async () => {
    const repo = newRepo();
    repo.checkout("trunk", true);
    repo.checkout("bk-001-x", true);
    repo.commit("Work", { "src/a.ts": "a\n" }, "2026-11-03T09:00:00Z");
    repo.checkout("trunk");
    repo.merge("bk-001-x", "2026-11-04T09:00:00Z");
    repo.checkout("main");
    forgetCommitGraph(repo.dir);
    expect((await readCommitGraph(repo.dir))!.defaultBranch!.name).toBe("main");
    expect((await links(repo, ["BK-001"])).get("BK-001")!.merged).toBeNull();
    expect((await readCommitGraph(repo.dir, "trunk"))!.defaultBranch!.name).toBe("trunk");
    expect((await links(repo, ["BK-001"], "trunk")).get("BK-001")!.merged).not.toBeNull();
    repo.git(["update-ref", "refs/remotes/origin/trunk", repo.sha("trunk")]);
    repo.git(["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk"]);
    expect((await readCommitGraph(repo.dir))!.defaultBranch!.name).toBe("origin/trunk");
    await expect(readCommitGraph(repo.dir, "no-such-branch")).rejects.toThrow(/no branch 'no-such-branch'/);
  });
});

describe("authors", () => {
  it("are named as .mailmap maps them", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-x", true);
    repo.commit("One", { "src/a.ts": "1\n" }, "2026-11-03T09:00:00Z", { name: "tom", email: "tom@old.example" });
    repo.commit("Two", { "src/a.ts": "2\n" }, "2026-11-03T10:00:00Z", TOM);
    expect((await links(repo, ["BK-001"])).get("BK-001")!.authors).toEqual(["Tom Okafor", "tom"]);
    writeFileSync(join(repo.dir, ".mailmap"), "Tom Okafor <tom@harbor.test> <tom@old.example>\n");
    expect(repo.git(["status", "--porcelain"])).toBe("?? .mailmap");
    // No forgetting: a new .mailmap reads the names again by itself.
    expect(linkIssues((await readCommitGraph(repo.dir))!, ["BK-001"]).get("BK-001")!.authors).toEqual(["Tom Okafor"]);
  });
});

describe("reading", () => {
  it("after a new commit only the new commits are read: commits read before are kept by id", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-x", true);
    const old = repo.commit("Old work", { "src/a.ts": "1\n" }, "2026-11-03T09:00:00Z");
    repo.checkout("main");
    forgetCommitGraph(repo.dir);
    await readCommitGraph(repo.dir);
    expect(lastReadCount(repo.dir)).toBe(2);
    await readCommitGraph(repo.dir);
    expect(lastReadCount(repo.dir)).toBe(0);
    repo.checkout("bk-001-x");
    const fresh = repo.commit("New work", { "src/a.ts": "2\n" }, "2026-11-03T10:00:00Z");
    repo.checkout("main");
    const l = linkIssues((await readCommitGraph(repo.dir))!, ["BK-001"]).get("BK-001")!;
    expect(lastReadCount(repo.dir)).toBe(1);
    expect(shas(l)).toEqual([fresh, old]);
  });

  it("the branches are read again only when git's files of them change: a ref moved, a branch made in a nested folder, one deleted, at once or later", async () => {
    const repo = newRepo();
    repo.checkout("main");
    forgetCommitGraph(repo.dir);
    const names = async () => (await readCommitGraph(repo.dir))!.refs.map((r) => `${r.name}=${r.tip.slice(0, 7)}`).sort();
    const first = await readCommitGraph(repo.dir);
    await new Promise((r) => setTimeout(r, 250)); // past the time grain a stamp is not trusted within
    const again = await readCommitGraph(repo.dir);
    await readCommitGraph(repo.dir);
    // Unchanged files: the refs as read before (the same list), git not asked.
    expect((await readCommitGraph(repo.dir))!.refs).toBe(again!.refs);
    expect(again!.refs).toEqual(first!.refs);
    // Changed at once after a read, and after a pause: each is seen by the next read.
    repo.git(["branch", "feature/bk-001-nested"]);
    expect(await names()).toEqual(["feature/bk-001-nested=" + repo.sha("main").slice(0, 7), "main=" + repo.sha("main").slice(0, 7)]);
    const tip = repo.commit("BK-001: more", { "src/a.ts": "1\n" }, "2026-11-02T09:00:00Z");
    expect(await names()).toContain(`main=${tip.slice(0, 7)}`);
    await new Promise((r) => setTimeout(r, 250));
    await names();
    repo.git(["update-ref", "refs/heads/feature/bk-001-nested", tip]);
    expect(await names()).toEqual([`feature/bk-001-nested=${tip.slice(0, 7)}`, `main=${tip.slice(0, 7)}`]);
    await new Promise((r) => setTimeout(r, 250));
    await names();
    repo.git(["branch", "-D", "feature/bk-001-nested"]);
    expect(await names()).toEqual([`main=${tip.slice(0, 7)}`]);
  });

  it("a folder that is no repository is answered without git again until a .git appears in it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-code-none-"));
    dirs.push(dir);
    forgetCommitGraph(dir);
    expect(await readCommitGraph(dir)).toBeUndefined();
    expect(await readCommitGraph(dir)).toBeUndefined();
    const repo = CodeRepo.init(dir);
    const root = repo.commit("BK-001: the first code", { "src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    expect((await readCommitGraph(dir))?.refs.map((r) => r.tip)).toEqual([root]);
  });

  it("a later read tells code from the plan's commits as the first read does: plan-only, empty, merges by their first parent", async () => {
    const repo = newRepo();
    repo.commit("BK-001: groundwork", { "src/a.ts": "0\n" }, "2026-11-02T08:00:00Z");
    forgetCommitGraph(repo.dir);
    await readCommitGraph(repo.dir);
    // Read after the first read, a few at a time, as a server reads them.
    const made = {
      planOnly: repo.commit("BK-001: start", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\n" }, "2026-11-02T09:00:00Z"),
      empty: repo.commit("BK-001: nothing at all", {}, "2026-11-02T10:00:00Z"),
      code: "",
      mergeOfCode: "",
      mergeOfPlan: "",
    };
    repo.checkout("side", true);
    made.code = repo.commit("BK-001: the engine", { "src/engine.ts": "1\n" }, "2026-11-02T11:00:00Z");
    repo.checkout("main");
    repo.commit("Plan note", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\nnote: x\n" }, "2026-11-02T12:00:00Z");
    made.mergeOfCode = repo.merge("side", "2026-11-02T13:00:00Z", "BK-001: merge the engine");
    repo.checkout("plan-side", true);
    repo.commit("Plan only", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\nv: 1\n" }, "2026-11-02T14:00:00Z");
    repo.checkout("main");
    made.mergeOfPlan = repo.merge("plan-side", "2026-11-02T15:00:00Z", "BK-001: merge the plan");
    const later = (await readCommitGraph(repo.dir))!;
    expect(lastReadCount(repo.dir)).toBe(7);
    forgetCommitGraph(repo.dir);
    const cold = (await readCommitGraph(repo.dir))!;
    const isCode = (g: typeof later) => Object.fromEntries(Object.entries(made).map(([k, sha]) => [k, g.commits.get(sha)!.isCode]));
    expect(isCode(later)).toEqual({ planOnly: false, empty: false, code: true, mergeOfCode: true, mergeOfPlan: false });
    expect(isCode(later)).toEqual(isCode(cold));
  });

  it("in the same process, a branch deleted since the last read links nothing any more, by its commits' messages either", async () => {
    const repo = newRepo();
    repo.checkout("gone", true);
    const lost = repo.commit("BK-001: on a branch deleted later", { "src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    repo.checkout("main");
    const kept = repo.commit("BK-001: on main", { "src/b.ts": "b\n" }, "2026-11-02T10:00:00Z");
    forgetCommitGraph(repo.dir);
    const memory = new LinkMemory();
    expect(shas(linkIssues((await readCommitGraph(repo.dir))!, ["BK-001"], memory).get("BK-001"))).toEqual([kept, lost]);
    repo.git(["branch", "-D", "gone"]);
    const graph = (await readCommitGraph(repo.dir))!;
    expect(graph.commits.has(lost)).toBe(false);
    expect(shas(linkIssues(graph, ["BK-001"], memory).get("BK-001"))).toEqual([kept]);
    // A fresh derivation over the same kept graph agrees with the one that remembered.
    expect(shas(linkIssues(graph, ["BK-001"]).get("BK-001"))).toEqual([kept]);
  });

  it("in the same process, a rebased branch links its new commits only, and a new commit after it is read alone", async () => {
    const repo = newRepo();
    repo.checkout("feature", true);
    const one = repo.commit("BK-001: part one", { "src/a.ts": "1\n" }, "2026-11-03T09:00:00Z");
    const two = repo.commit("BK-001: part two", { "src/a.ts": "2\n" }, "2026-11-03T10:00:00Z");
    repo.checkout("main");
    repo.commit("Unrelated work on main", { "src/other.ts": "o\n" }, "2026-11-03T11:00:00Z");
    forgetCommitGraph(repo.dir);
    const memory = new LinkMemory();
    expect(shas(linkIssues((await readCommitGraph(repo.dir))!, ["BK-001"], memory).get("BK-001"))).toEqual([two, one]);
    repo.checkout("feature");
    repo.git(["rebase", "-q", "main"], "2026-11-03T12:00:00Z");
    const rebased = [repo.sha("feature"), repo.sha("feature~1")];
    expect(rebased).not.toContain(two);
    repo.checkout("main");
    const after = linkIssues((await readCommitGraph(repo.dir))!, ["BK-001"], memory).get("BK-001")!;
    expect(lastReadCount(repo.dir)).toBe(2);
    expect(shas(after).sort()).toEqual([...rebased].sort());
    repo.checkout("feature");
    const three = repo.commit("BK-001: part three", { "src/a.ts": "3\n" }, "2026-11-03T13:00:00Z");
    repo.checkout("main");
    const latest = linkIssues((await readCommitGraph(repo.dir))!, ["BK-001"], memory).get("BK-001")!;
    expect(lastReadCount(repo.dir)).toBe(1);
    expect(shas(latest).sort()).toEqual([three, ...rebased].sort());
  });

  it("a commit whose tree is missing (a partial clone) is counted as code, and the others are still told apart", async () => {
    const repo = newRepo();
    repo.checkout("bk-001-x", true);
    const planOnly = repo.commit("BK-001 plan only", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\n" }, "2026-11-03T08:00:00Z");
    const lost = repo.commit("Lost tree", { "src/lost.ts": "1\n" }, "2026-11-03T09:00:00Z");
    const kept = repo.commit("Kept", { "src/kept.ts": "1\n" }, "2026-11-03T10:00:00Z");
    const tree = repo.git(["rev-parse", `${lost}^{tree}`]);
    rmSync(join(repo.dir, ".git", "objects", tree.slice(0, 2), tree.slice(2)));
    expect(readdirSync(join(repo.dir, ".git", "objects", tree.slice(0, 2))).includes(tree.slice(2))).toBe(false);
    const l = (await links(repo, ["BK-001"])).get("BK-001")!;
    expect(shas(l)).toContain(lost);
    expect(shas(l)).toContain(kept);
    expect(shas(l)).not.toContain(planOnly);
  });

  it("a plan in a subfolder: only its own .ai/ is bookkeeping; the rest of the repository is code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-code-sub-"));
    dirs.push(dir);
    const repo = CodeRepo.init(dir);
    repo.commit("Start", { "plan/.ai/repo/project/project.yaml": "name: x\n" }, "2026-11-01T08:00:00Z");
    const planOnly = repo.commit("BK-001 in the plan", { "plan/.ai/repo/project/issues/BK-001.yaml": "id: BK-001\n" }, "2026-11-02T08:00:00Z");
    const beside = repo.commit("BK-001 beside the plan", { "plan/src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    const top = repo.commit("BK-001 at the top", { "README.md": "r\n" }, "2026-11-02T10:00:00Z");
    const other = repo.commit("BK-001 in another .ai", { ".ai/x.yaml": "x\n" }, "2026-11-02T11:00:00Z");
    forgetCommitGraph(join(dir, "plan"));
    const l = linkIssues((await readCommitGraph(join(dir, "plan")))!, ["BK-001"]).get("BK-001")!;
    expect(shas(l)).toEqual([other, top, beside]);
    expect(shas(l)).not.toContain(planOnly);
  });

  it("a read started early (the command line's), then the read proper, links what a cold read links: a commit only a ref the reader does not count reaches links nothing", async () => {
    const repo = newRepo();
    const planOnly = repo.commit("BK-001 plan only", { ".ai/repo/project/issues/BK-001.yaml": "id: BK-001\n" }, "2026-11-02T08:00:00Z");
    const quoted = repo.commit("BK-001 a name git quotes", { "we\tird.txt": "x\n" }, "2026-11-02T09:00:00Z");
    repo.checkout("bk-002-y", true);
    const branch = repo.commit("Work on the branch", { "src/y.ts": "y\n" }, "2026-11-02T10:00:00Z");
    repo.checkout("main");
    repo.merge("bk-002-y", "2026-11-02T11:00:00Z");
    // A remote's HEAD that is a ref of its own, not a name for one of its branches: the reader
    // does not count it, though `git rev-list --remotes` walks it.
    repo.checkout("stray", true);
    const stray = repo.commit("BK-001 reached by a stray ref only", { "src/stray.ts": "s\n" }, "2026-11-02T12:00:00Z");
    repo.git(["update-ref", "refs/remotes/origin/HEAD", stray]);
    repo.checkout("main");
    repo.git(["branch", "-D", "stray"]);
    const ids = ["BK-001", "BK-002"];
    forgetCommitGraph(repo.dir);
    const cold = linkIssues((await readCommitGraph(repo.dir))!, ids);
    forgetCommitGraph(repo.dir);
    readCommitGraphEarly(repo.dir);
    const graph = (await readCommitGraph(repo.dir))!;
    expect(graph.commits.has(stray)).toBe(false);
    expect(lastReadCount(repo.dir)).toBe(0); // the early read had read them all
    const early = linkIssues(graph, ids);
    expect(early).toEqual(cold);
    expect(shas(early.get("BK-001"))).toEqual([quoted]);
    expect(shas(early.get("BK-001"))).not.toContain(planOnly);
    expect(shas(early.get("BK-002"))).toContain(branch);
  });

  it("an early read of a plan in a subfolder tells its commits apart as a cold read does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-code-sub-"));
    dirs.push(dir);
    const repo = CodeRepo.init(dir);
    repo.commit("Start", { "plan/.ai/repo/project/project.yaml": "name: x\n" }, "2026-11-01T08:00:00Z");
    repo.commit("BK-001 in the plan", { "plan/.ai/repo/project/issues/BK-001.yaml": "id: BK-001\n" }, "2026-11-02T08:00:00Z");
    const beside = repo.commit("BK-001 beside the plan", { "plan/src/a.ts": "a\n" }, "2026-11-02T09:00:00Z");
    const other = repo.commit("BK-001 in another .ai", { ".ai/x.yaml": "x\n" }, "2026-11-02T11:00:00Z");
    const at = join(dir, "plan");
    forgetCommitGraph(at);
    readCommitGraphEarly(at);
    expect(shas(linkIssues((await readCommitGraph(at))!, ["BK-001"]).get("BK-001"))).toEqual([other, beside]);
  });

  it("an early read of a folder that is no repository leaves nothing behind, and the read proper says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-code-plain-"));
    dirs.push(dir);
    readCommitGraphEarly(dir);
    expect(await readCommitGraph(dir)).toBeUndefined();
  });

  it("a folder that is not a git repository has no graph", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cockpit-code-plain-"));
    dirs.push(dir);
    expect(await readCommitGraph(dir)).toBeUndefined();
  });
});

describe("code findings", () => {
  const issue = (over: Partial<IssueFacts>): IssueFacts => ({ id: "BK-001", status: "READY", started_at: "", verified_at: "", completed_at: "", ...over });
  const withLinks = (over: Partial<IssueLinks>): IssueLinks => ({
    id: "BK-001",
    branches: [{ name: "bk-001-x", remote: "origin", tip: "a".repeat(40), ahead: 2, behind: 0, last_commit_at: "2026-11-08T10:00:00Z", merged: false }],
    commits: [{ sha: "a".repeat(40), subject: "Work", author: "Tom Okafor", authored_at: "2026-11-08T10:00:00Z", on_default: false }],
    authors: ["Tom Okafor"],
    first_activity_at: "2026-11-08T10:00:00Z",
    last_activity_at: "2026-11-08T10:00:00Z",
    merged: null,
    branchCount: 1,
    ...over,
  });
  const NOW = "2026-11-10T12:00:00Z";
  const codes = (i: IssueFacts, l?: IssueLinks, days = 3) => codeFindings(i, l, "main", NOW, days).map((f) => f.code);
  const merged = { commit: "b".repeat(40), at: "2026-11-09T08:00:00Z" };

  it("work_without_start: linked commits, READY or BLOCKED, never started; the message names the commit, the author, the branch and the move", () => {
    const [f] = codeFindings(issue({}), withLinks({}), "main", NOW, 3);
    expect(f).toEqual({ level: "WARN", code: "work_without_start", subject: "BK-001", message: expect.stringContaining("aaaaaaa by Tom Okafor on 2026-11-08 10:00 UTC, branch origin/bk-001-x") });
    expect(f.message).toContain("cockpit plan start BK-001");
    expect(codes(issue({ status: "BLOCKED" }), withLinks({}))).toEqual(["work_without_start"]);
    expect(codes(issue({ status: "BLOCKED", started_at: "2026-11-01T10:00:00Z" }), withLinks({}))).toEqual([]);
    expect(codes(issue({}), withLinks({ commits: [] }))).toEqual([]);
  });

  it("merged_not_verified (ACTIVE) and merged_not_done (VERIFY) when merged is set", () => {
    const active = issue({ status: "ACTIVE", started_at: "2026-11-09T10:00:00Z" });
    expect(codes(active, withLinks({ merged }))).toEqual(["merged_not_verified"]);
    expect(codes(active, withLinks({}))).toEqual([]);
    const [f] = codeFindings(issue({ status: "VERIFY", started_at: "2026-11-01T10:00:00Z", verified_at: "2026-11-02T10:00:00Z" }), withLinks({ merged }), "main", NOW, 3);
    expect(f.code).toBe("merged_not_done");
    expect(f.message).toContain("on main since bbbbbbb (2026-11-09 08:00 UTC)");
    expect(f.message).toContain("cockpit plan done BK-001");
  });

  it("done_with_open_branch: DONE and a linked branch has commits the default branch lacks", () => {
    const done = issue({ status: "DONE", started_at: "2026-11-01T10:00:00Z", completed_at: "2026-11-02T10:00:00Z" });
    const [f] = codeFindings(done, withLinks({}), "main", NOW, 3);
    expect(f.code).toBe("done_with_open_branch");
    expect(f.message).toContain("branch origin/bk-001-x has 2 commits main lacks");
    expect(codes(done, withLinks({ branches: [{ ...withLinks({}).branches[0], ahead: 0, merged: true }] }))).toEqual([]);
  });

  it("stalled: ACTIVE, and neither a linked commit nor a stamp moved for more than the stale days", () => {
    const old = issue({ status: "ACTIVE", started_at: "2026-11-04T10:00:00Z" });
    expect(codes(old)).toEqual(["stalled"]);
    // A commit two days ago keeps it moving; with one stale day it is stalled again.
    expect(codes(old, withLinks({ last_activity_at: "2026-11-08T10:00:00Z" }))).toEqual([]);
    expect(codes(old, withLinks({ last_activity_at: "2026-11-08T10:00:00Z" }), 1)).toEqual(["stalled"]);
    expect(codes(issue({ status: "ACTIVE", started_at: "2026-11-09T10:00:00Z" }))).toEqual([]);
  });

  it("suggests the move each finding names", () => {
    expect((["work_without_start", "merged_not_verified", "merged_not_done", "done_with_open_branch", "stalled"] as const).map((code) => suggestedMove({ code }))).toEqual(["start", "verify", "done", undefined, undefined]);
  });

  it("an issue with no link gets no finding but stalled", () => {
    expect(codes(issue({}))).toEqual([]);
    expect(codes(issue({ status: "DONE", completed_at: "2026-11-02T10:00:00Z" }))).toEqual([]);
  });

  it("commits by ANA and TOM are distinct authors (the helpers' identities)", () => {
    expect(ANA.name).not.toBe(TOM.name);
  });
});

describe("the top-level entries a commit changes", () => {
  it("a plan at the top: code when anything but .ai changed; a quoted name is left to the trees", () => {
    expect(codeOfTopLevel([], ".ai", false)).toBe(false);
    expect(codeOfTopLevel([".ai"], ".ai", false)).toBe(false);
    expect(codeOfTopLevel([".ai", "src"], ".ai", false)).toBe(true);
    expect(codeOfTopLevel(["README.md"], ".ai", false)).toBe(true);
    expect(codeOfTopLevel(['"we\\tird"'], ".ai", false)).toBeUndefined();
    expect(codeOfTopLevel(['"we\\tird"', "src"], ".ai", false)).toBe(true);
  });

  it("a plan in a subfolder: its folder changing alone is left to the trees; anything beside it is code", () => {
    expect(codeOfTopLevel(["plan"], "plan", true)).toBeUndefined();
    expect(codeOfTopLevel(["plan", "README.md"], "plan", true)).toBe(true);
    expect(codeOfTopLevel([".ai"], "plan", true)).toBe(true);
  });
});

describe("the command line's early read", () => {
  it("reads the folder the command will: --repo as given (either spelling), else the current folder; nothing when unsure", () => {
    expect(earlyRepo("code", [], "/w")).toBe("/w");
    expect(earlyRepo("code", ["--repo", "x", "--json"], "/w")).toBe("/w/x");
    expect(earlyRepo("code", ["BK-1", "--repo=/abs"], "/w")).toBe("/abs");
    expect(earlyRepo("code", ["--repo", "a", "--repo", "b"], "/w")).toBeUndefined();
    expect(earlyRepo("code", ["--repo"], "/w")).toBeUndefined();
    expect(earlyRepo("code", ["--repo", "--json"], "/w")).toBeUndefined();
    expect(earlyRepo("code", ["--help"], "/w")).toBeUndefined();
    // next and claim read the graph for their code findings, with their own options; other verbs do not.
    expect(earlyRepo("next", ["--milestone", "m", "--repo", "x"], "/w")).toBe("/w/x");
    expect(earlyRepo("claim", ["--milestone", "m"], "/w")).toBe("/w");
    expect(earlyRepo("next", ["--stale-days", "3"], "/w")).toBeUndefined();
    expect(earlyRepo("status", [], "/w")).toBeUndefined();
    expect(earlyRepo("__proto__", [], "/w")).toBeUndefined();
  });
});
