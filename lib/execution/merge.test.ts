// apply merges a child's branch into the root's integration branch with git's own three-way merge
// (merge-tree --write-tree, commit-tree, update-ref), in a real repository.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CapabilityError } from "../plan/errors";
import { loadPlan } from "../repo";
import { advance, claimNext, complete, createExecutionPlan, getPlan } from "./coordinator";
import { closeStores } from "./store";
import { commitOnBranch, createTestRepo, git, removeTestRepo, showFile } from "@/tests/support/repo";

const repos: string[] = [];
afterAll(() => {
  closeStores();
  repos.forEach(removeTestRepo);
});

const APP = "line 1\nline 2\nline 3\n";

describe("apply merges the child's branch into the integration branch", () => {
  it("a clean merge moves the integration branch; a conflicting one fails the child with conflict", async () => {
    const repo = createTestRepo({
      issues: [
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"] },
        { id: "C", scope: ["src/c"] },
      ],
      files: { "src/app.txt": APP },
    });
    repos.push(repo);
    const head = git(repo, "rev-parse", "HEAD");
    const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel", max_parallel: 3 });
    const integration = root.integration_branch!;
    const ref = `refs/heads/${integration}`;
    expect(git(repo, "rev-parse", ref)).toBe(head);

    // Each child's work, on its own branch from the same base.
    const a = commitOnBranch(repo, "work/a", { "src/app.txt": "line 1 by A\nline 2\nline 3\n" });
    const b = commitOnBranch(repo, "work/b", { "src/app.txt": "line 1 by B\nline 2\nline 3\n" });
    const c = commitOnBranch(repo, "work/c", { "src/c.txt": "new in C\n", "src/app.txt": "line 1\nline 2\nline 3 by C\n" });

    const kids = [await claimNext(repo, root.plan_id), await claimNext(repo, root.plan_id), await claimNext(repo, root.plan_id)].map((r) => r.claimed!);
    const [ca, cb, cc] = ["A", "B", "C"].map((id) => kids.find((k) => k.issue === id)!);
    for (const k of kids) await advance(repo, k.plan_id, "execute");

    // A merges (a fast-forwardable change still gets a merge commit with both parents).
    const ra = await advance(repo, ca.plan_id, "apply", { branch: "work/a" });
    expect(ra.moved).toBe(true);
    expect(ra.merge).toMatchObject({ kind: "merged", previous: head });
    const afterA = git(repo, "rev-parse", ref);
    expect(afterA).toBe((ra.merge as { commit: string }).commit);
    expect(git(repo, "rev-list", "--parents", "-n", "1", afterA).split(" ").slice(1)).toEqual([head, a]);
    expect(showFile(repo, integration, "src/app.txt")).toBe("line 1 by A\nline 2\nline 3");
    expect(ra.child).toMatchObject({ phase: "apply", branch: "work/a" });

    // C changes another line and adds a file: git's three-way merge combines it with A.
    const rc = await advance(repo, cc.plan_id, "apply", { branch: "work/c" });
    expect(rc.merge?.kind).toBe("merged");
    expect(showFile(repo, integration, "src/app.txt")).toBe("line 1 by A\nline 2\nline 3 by C");
    expect(showFile(repo, integration, "src/c.txt")).toBe("new in C");
    const afterC = git(repo, "rev-parse", ref);
    expect(git(repo, "rev-list", "--parents", "-n", "1", afterC).split(" ").slice(1)).toEqual([afterA, c]);

    // B changed A's line too: conflict. The child fails with `conflict` (not retried), nothing moves.
    const rb = await advance(repo, cb.plan_id, "apply", { branch: "work/b" });
    expect(rb.moved).toBe(false);
    expect(rb.merge).toMatchObject({ kind: "conflict", files: ["src/app.txt"] });
    expect(rb.failure!.decision).toMatchObject({ category: "conflict", retry: false, final: true, stop_others: false });
    expect(rb.child).toMatchObject({ processing_state: "errored", phase: "execute", last_error: { category: "conflict" } });
    expect(rb.child.last_error!.message).toMatch(new RegExp(`^merging work/b into ${integration} conflicts in src/app.txt`));
    expect(git(repo, "rev-parse", ref)).toBe(afterC);
    expect(loadPlan(repo).issues.find((i) => i.id === "B")!.status).toBe("ACTIVE"); // never verified

    // The working tree and the checked-out branch were never touched.
    expect(git(repo, "rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(join(repo, "src/app.txt"), "utf8")).toBe(APP);
    expect(git(repo, "status", "--porcelain", "--", "src")).toBe("");

    await complete(repo, ca.plan_id, [{ covers: "proof", type: "test", command: "npm test" }]);
    await complete(repo, cc.plan_id, [{ covers: "proof", type: "test", command: "npm test" }]);
    const end = await getPlan(repo, root.plan_id);
    expect(end.processing_state).toBe("errored");
    expect(end.events.at(-1)!.reason).toMatch(/1 of 3 children did not complete: child .* \(issue B, attempt 1\) errored with conflict: merging work\/b/);
    expect(b).not.toBe(a);
  });

  it("a branch already merged applies as is; an unknown branch is refused and the child stays in execute", async () => {
    const repo = createTestRepo({ issues: [{ id: "A", scope: ["src/a"] }, { id: "B", scope: ["src/b"] }], files: { "src/app.txt": APP } });
    repos.push(repo);
    const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel" });
    const ka = (await claimNext(repo, root.plan_id)).claimed!;
    const kb = (await claimNext(repo, root.plan_id)).claimed!;
    await advance(repo, ka.plan_id, "execute");
    await advance(repo, kb.plan_id, "execute");

    let error: unknown;
    try {
      await advance(repo, ka.plan_id, "apply", { branch: "no/such-branch" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as Error).message).toMatch(/cannot merge no\/such-branch: 'no\/such-branch' is not a branch or commit of this repository/);
    expect(await getPlan(repo, ka.plan_id)).toMatchObject({ phase: "execute", processing_state: "processing" });

    // The base commit itself is already in the integration branch.
    git(repo, "branch", "work/nothing", "HEAD");
    const r = await advance(repo, ka.plan_id, "apply", { branch: "work/nothing" });
    expect(r.merge?.kind).toBe("already");
    expect(r.moved).toBe(true);
    // A child without a branch applies as is.
    const rb = await advance(repo, kb.plan_id, "apply");
    expect(rb.merge).toBeUndefined();
    expect(rb.moved).toBe(true);
  });
});
