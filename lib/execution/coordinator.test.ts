import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CapabilityError } from "../plan/errors";
import { loadPlan } from "../repo";
import { transition } from "../repo/transition";
import {
  advance,
  claimNext,
  complete,
  createExecutionPlan,
  fail,
  getPlan,
  integrationBranchName,
  listPlans,
  tick,
  type PlanDetail,
  type PlanView,
} from "./coordinator";
import { PlanValidationError } from "./errors";
import { STORE_FILE, closeStores } from "./store";
import { DATABASE_ENV, closeDatabases, database } from "../coordination/database";
import { startPostgres, type PgServer } from "@/tests/support/postgres-server";
import { PROJECT, projectYaml } from "@/tests/support/record-files";
import { createTestRepo, git, removeTestRepo, type IssueSpec, type RepoSpec } from "@/tests/support/repo";

const repos: string[] = [];
let server: PgServer | undefined;
afterAll(async () => {
  closeStores();
  await closeDatabases();
  await server?.stop();
  repos.forEach(removeTestRepo);
});

// Every case runs on the SQLite file and on PostgreSQL; there each repository is its own project.
const BACKENDS = [{ name: "SQLite" }, { name: "PostgreSQL" }];

/** Everything the store holds for a repository: the SQLite file's bytes, or the project's rows. */
async function storedState(name: string, repo: string): Promise<string> {
  if (name === "SQLite") {
    const files = [STORE_FILE, `${STORE_FILE}-wal`].map((f) => join(repo, f)).filter((f) => existsSync(f));
    return files.map((f) => `${f}:${readFileSync(f).toString("base64")}`).join("\n");
  }
  const pool = await database(process.env[DATABASE_ENV]!);
  const project = loadPlan(repo).project.repository;
  const plans = await pool.query("SELECT * FROM cockpit_plans WHERE project = $1 ORDER BY seq", [project]);
  const events = await pool.query("SELECT * FROM cockpit_plan_events WHERE project = $1 ORDER BY id", [project]);
  return JSON.stringify([plans.rows, events.rows]);
}

function repoWith(issues: IssueSpec[], spec: Partial<RepoSpec> = {}): string {
  const project = { [`${PROJECT}/project.yaml`]: projectYaml("Test", `tests/plan-${repos.length + 1}`) };
  const r = createTestRepo({ issues, ...spec, files: { ...project, ...spec.files } });
  repos.push(r);
  return r;
}

const PROOF = [{ covers: "proof", type: "test", command: "npm test" }];
const status = (repo: string, id: string) => loadPlan(repo).issues.find((i) => i.id === id)!.status;
const childFor = (root: PlanDetail | PlanView, issue: string, attempt = 1) => {
  const c = root.children.find((k) => k.issue === issue && k.attempt === attempt);
  if (!c) throw new Error(`no child for ${issue} attempt ${attempt}`);
  return c;
};

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<CapabilityError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (error) {
    expect(error).toBeInstanceOf(CapabilityError);
    return error as CapabilityError;
  }
  throw new Error("the call was expected to be refused");
}

/** Claim, execute, apply and complete one child; returns the claimed issue. */
async function runOne(repo: string, rootId: string): Promise<string> {
  const { claimed, reason } = await claimNext(repo, rootId);
  if (!claimed) throw new Error(`nothing claimed: ${reason}`);
  await advance(repo, claimed.plan_id, "execute");
  await advance(repo, claimed.plan_id, "apply");
  await complete(repo, claimed.plan_id, PROOF);
  return claimed.issue!;
}

describe.each(BACKENDS)("on $name", ({ name }) => {
  beforeAll(async () => {
    if (name !== "PostgreSQL") return;
    server ??= await startPostgres();
    process.env[DATABASE_ENV] = server.url;
  }, 120_000);
  afterAll(() => {
    delete process.env[DATABASE_ENV];
  });

  describe("createExecutionPlan", () => {
    it("decomposes a milestone into one child per issue not DONE or CANCELLED, remembering issue and wave", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"], state: "DONE" },
        { id: "B", scope: ["src/b"], state: "CANCELLED" },
        { id: "C", scope: ["src/c"], depends_on: ["A"] },
        { id: "D", scope: ["src/d"], depends_on: ["C"] },
        { id: "E", scope: ["src/e"] },
      ]);
      const head = git(repo, "rev-parse", "HEAD");
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      expect(root).toMatchObject({ phase: "execute", processing_state: "processing", attempt: 1, depth: 0, root_plan_id: root.plan_id, subplan_count: 3 });
      expect(root.subplan_config).toEqual({ execution_mode: "sequential", merge_strategy: "git_three_way", max_parallel: 5, fail_fast: false, retry_failed: true, max_retries: 2, timeout: null });
      expect(root).not.toHaveProperty("parent_plan_id");
      expect(root.children.map((c) => [c.issue, c.wave, c.phase, c.processing_state, c.attempt, c.depth, c.parent_plan_id, c.root_plan_id])).toEqual([
        ["E", 0, "strategize", "queued", 1, 1, root.plan_id, root.plan_id],
        ["C", 1, "strategize", "queued", 1, 1, root.plan_id, root.plan_id],
        ["D", 2, "strategize", "queued", 1, 1, root.plan_id, root.plan_id],
      ]);
      expect(root.integration_branch).toBe(integrationBranchName(root.plan_id));
      expect(root.integration_branch).toBe(`cockpit/plan-${root.plan_id.toLowerCase()}`);
      expect(git(repo, "rev-parse", `refs/heads/${root.integration_branch}`)).toBe(head);
      expect(root.events.map((e) => e.kind)).toEqual(["created", "integration_branch", "child_created", "child_created", "child_created", "decomposed"]);
      expect(root.events.at(-1)!.reason).toBe("strategize → execute: 3 children in 3 wave(s) (sequential, max_parallel 5); skipped A (DONE), B (CANCELLED)");
    });

    it("takes a list of issues, a config and a profile; refuses what cannot be run", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"], state: "DONE" },
        { id: "C", scope: ["src/c"] },
      ]);
      const root = await createExecutionPlan(repo, { issues: ["C", "A", "C"] }, { execution_mode: "parallel", max_parallel: 3 }, { automation_profile: "agent" });
      expect(root.title).toBe("do C, A");
      expect(root.children.map((c) => c.issue)).toEqual(["A", "C"]);
      expect(root.automation_profile).toBe("agent");
      expect(root.children[0].automation_profile).toBe("agent");
      expect(root.subplan_config).toMatchObject({ execution_mode: "parallel", max_parallel: 3 });

      expect((await rejection(() => createExecutionPlan(repo, { milestone: "M9" }))).message).toBe("no milestone 'M9'");
      expect((await rejection(() => createExecutionPlan(repo, { issues: ["Z"] }))).code).toBe("not_found");
      expect((await rejection(() => createExecutionPlan(repo, { issues: [] }))).code).toBe("invalid_input");
      expect((await rejection(() => createExecutionPlan(repo, { issues: ["B"] }))).message).toBe("nothing to execute: every issue of the list is DONE or CANCELLED");
      const bad = await rejection(() => createExecutionPlan(repo, { milestone: "M1" }, { max_parallel: 0 }));
      expect(bad).toBeInstanceOf(PlanValidationError);
      expect(bad.message).toBe("max_parallel must be at least 1 (got 0)");
      expect(await listPlans(repo)).toHaveLength(1); // the refused ones stored nothing
    });

    it("refuses issues in a dependency cycle", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"], depends_on: ["B"] },
        { id: "B", scope: ["src/b"], depends_on: ["A"] },
      ]);
      expect((await rejection(() => createExecutionPlan(repo, { milestone: "M1" }))).message).toBe("A B are in a dependency cycle; no execution order exists");
    });

    it("without a commit there is no integration branch, and a child naming a branch is refused", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"] }], { commit: false });
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      expect(root.integration_branch).toBeNull();
      expect(root.events[1].reason).toMatch(/no commit yet/);
      const { claimed } = await claimNext(repo, root.plan_id);
      await advance(repo, claimed!.plan_id, "execute");
      const e = await rejection(advance(repo, claimed!.plan_id, "apply", { branch: "feature" }));
      expect(e.message).toMatch(/has no integration branch/);
      const applied = await advance(repo, claimed!.plan_id, "apply");
      expect(applied).toMatchObject({ moved: true, to: "apply" });
      expect(status(repo, "A")).toBe("VERIFY");
    });
  });

  describe("the lifecycle of a child", () => {
    it("claim → execute (start) → apply (verify) → complete (evidence, done); the root completes", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"], evidence_required: ["proof", "review"] }]);
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      const child = root.children[0];

      const early = await rejection(advance(repo, child.plan_id, "execute"));
      expect(early.message).toBe(`child ${child.plan_id} (issue A, attempt 1) is queued; claim it (claimNext) before reporting move to execute`);

      const { claimed, reason } = await claimNext(repo, root.plan_id);
      expect(claimed).toMatchObject({ plan_id: child.plan_id, processing_state: "processing", phase: "strategize" });
      expect(reason).toMatch(/its issue has no dependencies; 1 processing \(sequential/);

      const skip = await rejection(advance(repo, child.plan_id, "apply"));
      expect(skip.code).toBe("refused");
      expect(skip.message).toMatch(/phase move strategize → apply is refused: the only legal move from strategize is strategize → execute/);

      const ex = await advance(repo, child.plan_id, "execute");
      expect(ex).toMatchObject({ moved: true, from: "strategize", to: "execute", issue_transition: { issue: "A", from: "READY", to: "ACTIVE" } });
      expect(status(repo, "A")).toBe("ACTIVE");

      const notYet = await rejection(complete(repo, child.plan_id, PROOF));
      expect(notYet.message).toMatch(/is in execute; it completes from apply/);

      const ap = await advance(repo, child.plan_id, "apply");
      expect(ap).toMatchObject({ moved: true, to: "apply", issue_transition: { from: "ACTIVE", to: "VERIFY" } });

      // Evidence the issue does not require: refused, the child stays in apply.
      const wrong = await rejection(complete(repo, child.plan_id, [{ covers: "vibes", type: "manual", command: "look" }]));
      expect(wrong.message).toBe("A does not require evidence 'vibes' (declared: proof,review)");
      expect(await getPlan(repo, child.plan_id)).toMatchObject({ phase: "apply", processing_state: "processing" });

      const done = await complete(repo, child.plan_id, [...PROOF, { covers: "review", type: "manual", artifact: "review.md" }]);
      expect(done).toMatchObject({ completed: true, evidence: ["proof", "review"], issue_transition: { from: "VERIFY", to: "DONE" } });
      expect(status(repo, "A")).toBe("DONE");

      const after = await getPlan(repo, root.plan_id);
      expect(after).toMatchObject({ processing_state: "completed", phase: "apply" });
      expect(after.events.slice(-2).map((e) => e.kind)).toEqual(["wave_finished", "plan_completed"]);
      expect(after.events.at(-1)!.reason).toBe(`every child completed (1 of 1); their work is on ${root.integration_branch}`);
      expect(await claimNext(repo, root.plan_id)).toEqual({ claimed: null, reason: `execution plan ${root.plan_id} has ended completed` });

      const again = await rejection(complete(repo, child.plan_id, PROOF));
      expect(again.message).toMatch(/has already completed; its completion is refused/);
      expect((await getPlan(repo, child.plan_id)).events.map((e) => e.kind)).toEqual(["child_created", "report_refused", "claimed", "report_refused", "phase_moved", "report_refused", "phase_moved", "report_refused", "completed", "report_refused"]);
    });

    it("a refused done fails the child with validation", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"], evidence_required: ["proof", "review"] }]);
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      const { claimed } = await claimNext(repo, root.plan_id);
      await advance(repo, claimed!.plan_id, "execute");
      await advance(repo, claimed!.plan_id, "apply");
      const r = await complete(repo, claimed!.plan_id, PROOF); // review is missing
      expect(r.completed).toBe(false);
      expect(r.failure!.decision).toMatchObject({ category: "validation", retry: false, final: true });
      expect(r.child).toMatchObject({ processing_state: "errored", last_error: { category: "validation" } });
      expect(r.child.last_error!.message).toMatch(/^the done of issue A was refused: A still needs evidence for: review /);
      expect((await getPlan(repo, root.plan_id)).processing_state).toBe("errored");
    });

    it("a refused start fails the child with validation (not retried); sequential stops the rest; the root says why", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"] },
      ]);
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      const { claimed } = await claimNext(repo, root.plan_id);
      await transition(repo, "A", "start"); // someone started it outside the plan
      const r = await advance(repo, claimed!.plan_id, "execute");
      expect(r.moved).toBe(false);
      expect(r.failure!.decision).toMatchObject({ category: "validation", retry: false, stop_others: true });
      expect(r.failure!.cancelled).toEqual([childFor(root, "B").plan_id]);
      expect(r.child.last_error).toEqual({ category: "validation", message: "the start of issue A was refused: A is ACTIVE, not READY" });
      const after = await getPlan(repo, root.plan_id);
      expect(after.processing_state).toBe("errored");
      const final = after.events.at(-1)!;
      expect(final.kind).toBe("plan_errored");
      expect(final.reason).toContain(`2 of 2 children did not complete: child ${claimed!.plan_id} (issue A, attempt 1) errored with validation: the start of issue A was refused`);
      expect(final.reason).toContain("failure handler: no retry: validation is not retriable");
      expect(final.reason).toContain(`was cancelled: sibling child ${claimed!.plan_id} (issue A, attempt 1) failed finally with validation`);
    });

    it("two reports for one child at once: the second is refused", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"] }]);
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      const { claimed } = await claimNext(repo, root.plan_id);
      const [first, second] = await Promise.allSettled([advance(repo, claimed!.plan_id, "execute"), advance(repo, claimed!.plan_id, "execute")]);
      expect(first.status).toBe("fulfilled");
      expect(second.status).toBe("rejected");
      // Refused while the first is in progress, or (when the first ended before it began) as a move already made.
      expect(((second as PromiseRejectedResult).reason as Error).message).toMatch(
        /another report for child .* is in progress|phase move execute → execute is refused/,
      );
      expect(await getPlan(repo, claimed!.plan_id)).toMatchObject({ phase: "execute", processing_state: "processing" });
    });
  });

  describe("claiming", () => {
    it("sequential: one at a time, strictly in wave then issue order, each after its dependencies", async () => {
      const repo = repoWith([
        { id: "I1", scope: ["src/1"] },
        { id: "I3", scope: ["src/3"], depends_on: ["I1"] },
        { id: "I2", scope: ["src/2"] },
      ]);
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      const first = await claimNext(repo, root.plan_id);
      expect(first.claimed!.issue).toBe("I1");
      const busy = await claimNext(repo, root.plan_id);
      expect(busy).toEqual({ claimed: null, reason: `sequential: child ${first.claimed!.plan_id} (issue I1, attempt 1) is processing, and one child runs at a time` });
      await advance(repo, first.claimed!.plan_id, "execute");
      await advance(repo, first.claimed!.plan_id, "apply");
      await complete(repo, first.claimed!.plan_id, PROOF);
      expect(await runOne(repo, root.plan_id)).toBe("I2"); // wave 0 before wave 1
      expect(await runOne(repo, root.plan_id)).toBe("I3");
      expect((await getPlan(repo, root.plan_id)).processing_state).toBe("completed");
    });

    it("sequential waits on a dependency outside the plan instead of skipping ahead", async () => {
      const repo = repoWith([
        { id: "X", scope: ["src/x"] },
        { id: "A", scope: ["src/a"], depends_on: ["X"] },
        { id: "B", scope: ["src/b"], depends_on: ["X"] },
      ]);
      const root = await createExecutionPlan(repo, { issues: ["A", "B"] });
      expect(await claimNext(repo, root.plan_id)).toEqual({ claimed: null, reason: "sequential: the next child cannot start: A waits on X (READY)" });
      // The same answer again is not recorded twice.
      await claimNext(repo, root.plan_id);
      expect((await getPlan(repo, root.plan_id)).events.filter((e) => e.kind === "claim_waiting")).toHaveLength(1);
    });

    it("parallel: up to max_parallel, never two children sharing scope, never before the dependencies are DONE", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["./src/a/b/"] }, // inside A's scope
        { id: "C", scope: ["src/c"] },
        { id: "D", scope: ["src/d"], depends_on: ["A"] },
        { id: "E", scope: ["src/e"] },
      ]);
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel", max_parallel: 2 });
      const a = await claimNext(repo, root.plan_id);
      expect(a.claimed!.issue).toBe("A");
      const c = await claimNext(repo, root.plan_id);
      expect(c.claimed!.issue).toBe("C");
      expect(c.reason).toMatch(/2 processing of max_parallel 2; no processing sibling shares its scope/);
      expect((await claimNext(repo, root.plan_id)).reason).toBe("parallel: 2 children are processing, the max_parallel of 2");
      await fail(repo, c.claimed!.plan_id, "permission", "no access"); // final, but parallel without fail_fast: the others go on
      const blocked = await claimNext(repo, root.plan_id);
      expect(blocked.claimed!.issue).toBe("E"); // B shares scope with A, D waits on A
      const none = await claimNext(repo, root.plan_id);
      expect(none.reason).toBe("parallel: 2 children are processing, the max_parallel of 2");
      await fail(repo, blocked.claimed!.plan_id, "conflict", "needs a person");
      expect(await claimNext(repo, root.plan_id)).toEqual({
        claimed: null,
        reason: "no queued child can start: B shares ./src/a/b/ with A, which is processing; D waits on A (READY)",
      });
      expect((await claimNext(repo, root.plan_id)).claimed).toBeNull();
    });
  });

  describe("failures", () => {
    it("a retriable failure errors the child and queues attempt + 1 (same parent, same issue) until max_retries", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"] }]);
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { max_retries: 2 });
      const first = (await claimNext(repo, root.plan_id)).claimed!;
      await advance(repo, first.plan_id, "execute");
      const r1 = await fail(repo, first.plan_id, "transient", "network blip");
      expect(r1.child).toMatchObject({ processing_state: "errored", last_error: { category: "transient", message: "network blip" } });
      expect(r1.decision).toMatchObject({ retry: true, next_attempt: 2 });
      expect(r1.retry).toMatchObject({ attempt: 2, issue: "A", parent_plan_id: root.plan_id, processing_state: "queued", phase: "strategize", retry_of: first.plan_id });

      // The retry does not start the issue again: it is ACTIVE from attempt 1.
      const second = (await claimNext(repo, root.plan_id)).claimed!;
      expect(second.plan_id).toBe(r1.retry!.plan_id);
      const ex = await advance(repo, second.plan_id, "execute");
      expect(ex.moved).toBe(true);
      expect(ex.issue_transition).toBeUndefined();
      expect((await getPlan(repo, second.plan_id)).events.at(-1)!.reason).toMatch(/issue A is already ACTIVE from an earlier attempt; it is not started again/);

      const r2 = await fail(repo, second.plan_id, "rate_limit", "429");
      expect(r2.retry!.attempt).toBe(3);
      const third = (await claimNext(repo, root.plan_id)).claimed!;
      const r3 = await fail(repo, third.plan_id, "timeout", "too slow");
      expect(r3.decision).toMatchObject({ retry: false, final: true });
      expect(r3.retry).toBeNull();

      const tree = await getPlan(repo, root.plan_id);
      expect(tree.children.map((c) => [c.attempt, c.processing_state])).toEqual([
        [1, "errored"],
        [2, "errored"],
        [3, "errored"],
      ]);
      expect(tree.subplan_count).toBe(3);
      expect(tree.processing_state).toBe("errored");
      expect(tree.events.at(-1)!.reason).toMatch(/1 of 1 children did not complete: child .* \(issue A, attempt 3\) errored with timeout: too slow \(failure handler: no retry: timeout is retriable but attempt 3 exceeds max_retries 2/);
    });

    it("fail_fast cancels the queued siblings and the processing ones, whose next report is refused", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"] },
        { id: "C", scope: ["src/c"] },
      ]);
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel", max_parallel: 2, fail_fast: true });
      const a = (await claimNext(repo, root.plan_id)).claimed!;
      const b = (await claimNext(repo, root.plan_id)).claimed!;
      await advance(repo, b.plan_id, "execute");
      const r = await fail(repo, a.plan_id, "configuration", "missing secret");
      expect(r.decision).toMatchObject({ retry: false, stop_others: true });
      expect(r.cancelled.sort()).toEqual([b.plan_id, childFor(root, "C").plan_id].sort());

      const refusedAdvance = await rejection(advance(repo, b.plan_id, "apply"));
      expect(refusedAdvance.code).toBe("refused");
      expect(refusedAdvance.message).toBe(
        `child ${b.plan_id} (issue B, attempt 1) was cancelled (sibling child ${a.plan_id} (issue A, attempt 1) failed finally with configuration (missing secret) and fail_fast is set); its move to apply is refused`,
      );
      expect((await rejection(complete(repo, b.plan_id, PROOF))).message).toMatch(/was cancelled .*; its completion is refused/);
      expect((await rejection(() => fail(repo, b.plan_id, "transient", "x"))).message).toMatch(/was cancelled .*; its failure \(transient\) is refused/);
      expect(status(repo, "B")).toBe("ACTIVE"); // nothing moved after the cancel
      const tree = await getPlan(repo, root.plan_id);
      expect(tree.processing_state).toBe("errored");
      expect(tree.children.map((c) => c.processing_state)).toEqual(["errored", "cancelled", "cancelled"]);
    });

    it("parallel without fail_fast: a final failure cancels only the work that depended on it", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"] },
        { id: "C", scope: ["src/c"], depends_on: ["A"] },
        { id: "D", scope: ["src/d"], depends_on: ["C"] },
      ]);
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel", max_parallel: 3 });
      const a = (await claimNext(repo, root.plan_id)).claimed!;
      const r = await fail(repo, a.plan_id, "conflict", "both edited main.ts");
      expect(r.decision.stop_others).toBe(false);
      expect(r.cancelled).toEqual([]);
      const tree = await getPlan(repo, root.plan_id);
      expect(childFor(tree, "C")).toMatchObject({ processing_state: "cancelled" });
      expect(childFor(tree, "C").cancel_reason).toBe(`its issue C depends on A, whose child ${a.plan_id} (issue A, attempt 1) ended errored with no retry left`);
      expect(childFor(tree, "D").cancel_reason).toMatch(/its issue D depends on C, whose child .* \(issue C, attempt 1\) ended cancelled/);
      expect(await runOne(repo, root.plan_id)).toBe("B");
      const end = await getPlan(repo, root.plan_id);
      expect(end.processing_state).toBe("errored");
      expect(end.events.filter((e) => e.kind === "wave_finished").map((e) => e.data.wave)).toEqual([1, 2, 0]); // the stranded waves end first
      expect(end.events.at(-1)!.reason).toMatch(/^3 of 4 children did not complete: child .* \(issue A, attempt 1\) errored with conflict: both edited main.ts/);
    });

    it("tick fails children processing longer than the timeout, and every call ticks first", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"] },
      ]);
      const t0 = Date.parse("2026-12-01T10:00:00Z");
      const at = (s: number) => ({ now: () => t0 + s * 1000 });
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel", timeout: 60 }, at(0));
      const a = (await claimNext(repo, root.plan_id, at(0))).claimed!;
      const b = (await claimNext(repo, root.plan_id, at(30))).claimed!;
      expect(await tick(repo, at(60))).toEqual([]); // exactly the timeout is not longer than it
      expect(await tick(repo, at(61))).toEqual([a.plan_id]);
      const failedA = await getPlan(repo, a.plan_id, at(61));
      expect(failedA.last_error).toEqual({ category: "timeout", message: "processing for 61 s, longer than the timeout of 60 s" });
      // B times out inside the next call (a claim), before the claim decides.
      const next = await claimNext(repo, root.plan_id, at(100));
      expect(next.claimed).toMatchObject({ issue: "A", attempt: 2 });
      const tree = await getPlan(repo, root.plan_id, at(100));
      expect(childFor(tree, "B")).toMatchObject({ processing_state: "errored", last_error: { category: "timeout" } });
      expect(childFor(tree, "B", 2).processing_state).toBe("queued");
      expect(b.plan_id).toBe(childFor(tree, "B").plan_id);
    });

    it("refuses an unknown category, an empty message, unknown plans and roots", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"] }]);
      const root = await createExecutionPlan(repo, { milestone: "M1" });
      const child = root.children[0];
      expect((await rejection(() => fail(repo, child.plan_id, "gremlins", "x"))).message).toMatch(/^'gremlins' is not an error category/);
      expect((await rejection(() => fail(repo, child.plan_id, "timeout", " "))).code).toBe("invalid_input");
      expect((await rejection(() => fail(repo, "01ARZ3NDEKTSV4RRFFQ69G5FAV", "timeout", "x"))).code).toBe("not_found");
      expect((await rejection(() => fail(repo, root.plan_id, "timeout", "x"))).message).toMatch(/is a root plan; only its children report/);
      expect((await rejection(() => claimNext(repo, child.plan_id))).message).toMatch(/is a child plan; claim from its root/);
      expect((await rejection(() => getPlan(repo, "01ARZ3NDEKTSV4RRFFQ69G5FAV"))).code).toBe("not_found");
      // A queued child may report failure (it could not even begin).
      expect((await fail(repo, child.plan_id, "configuration", "no runner")).child.processing_state).toBe("errored");
    });
  });

  describe("reading plans", () => {
    it("reads answer as if ticked, but write nothing: the next command records the tick", async () => {
      const repo = repoWith([{ id: "A", scope: ["src/a"] }]);
      const t0 = Date.parse("2026-12-01T10:00:00Z");
      const at = (s: number) => ({ now: () => t0 + s * 1000 });
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { timeout: 60 }, at(0));
      const a = (await claimNext(repo, root.plan_id, at(0))).claimed!;
      const before = await storedState(name, repo);
      expect(before).not.toBe("");

      const read = await getPlan(repo, a.plan_id, at(100));
      expect(read).toMatchObject({ processing_state: "errored", last_error: { category: "timeout" } });
      expect(read.events.map((e) => e.kind)).toEqual(["child_created", "claimed", "child_failed"]);
      expect((await listPlans(repo, at(100)))[0].children_by_state).toMatchObject({ processing: 0, errored: 1, queued: 1 });
      expect(await storedState(name, repo)).toBe(before);

      expect(await tick(repo, at(100))).toEqual([a.plan_id]); // the tick is still to be made
      expect(await storedState(name, repo)).not.toBe(before);
      const kept = await getPlan(repo, a.plan_id, at(100));
      expect(kept.events).toEqual(read.events); // the same answer, ids and times included
      expect(await tick(repo, at(101))).toEqual([]);
    });

    it("getPlan: the CLI dict, the tree with retries and true depth, and the timeline; listPlans", async () => {
      const repo = repoWith([
        { id: "A", scope: ["src/a"] },
        { id: "B", scope: ["src/b"] },
      ]);
      const root = await createExecutionPlan(repo, { milestone: "M1" }, { execution_mode: "parallel" });
      const a = (await claimNext(repo, root.plan_id)).claimed!;
      await fail(repo, a.plan_id, "transient", "blip");
      const tree = await getPlan(repo, root.plan_id);
      expect(tree.children.map((c) => [c.issue, c.attempt, c.depth, c.processing_state])).toEqual([
        ["A", 1, 1, "errored"],
        ["B", 1, 1, "queued"],
        ["A", 2, 1, "queued"],
      ]);
      expect(tree.events.map((e) => e.kind)).toEqual([
        "created",
        "integration_branch",
        "child_created",
        "child_created",
        "decomposed",
        "claimed",
        "child_failed",
        "retry_queued",
      ]);
      const child = await getPlan(repo, a.plan_id);
      expect(child).toMatchObject({ parent_plan_id: root.plan_id, root_plan_id: root.plan_id, depth: 1, children: [] });
      expect(child).not.toHaveProperty("subplan_count");
      expect(child).not.toHaveProperty("subplan_config");
      expect(child.events.map((e) => e.kind)).toEqual(["child_created", "claimed", "child_failed"]);

      const second = await createExecutionPlan(repo, { issues: ["B"] });
      const list = await listPlans(repo);
      expect(list.map((p) => p.plan_id)).toEqual([second.plan_id, root.plan_id]);
      expect(list[1]).toMatchObject({ subplan_count: 3, title: "deliver milestone M1", children_by_state: { queued: 2, processing: 0, completed: 0, errored: 1, cancelled: 0 } });
    });
  });
});
