// A seeded random driver runs a whole execution plan (3 waves of 6 children from a generated
// repository with real YAML issues and overlapping scopes) through claims, phase moves, completions
// and failures of every category (timeouts through the clock), checking the coordinator's
// invariants after every single step.
import { afterAll, describe, expect, it } from "vitest";
import { CapabilityError } from "../plan/errors";
import { loadPlan } from "../repo";
import { scopesOverlap } from "../plan/scope";
import type { Plan } from "../plan/shapes";
import { advance, claimNext, complete, fail, getPlan, createExecutionPlan, type PlanDetail, type PlanView } from "./coordinator";
import { parseSubplanConfig, type SubplanConfigInput } from "./config";
import { ERROR_CATEGORIES, type ErrorCategory } from "./failure";
import { closeStores } from "./store";
import { createTestRepo, removeTestRepo, seededRandom, wavedIssues } from "@/tests/support/repo";

const repos: string[] = [];
afterAll(() => {
  closeStores();
  repos.forEach(removeTestRepo);
});

const PROOF = [{ covers: "proof", type: "test", command: "npm test" }];
const TIMEOUT_S = 30;

interface Run {
  steps: number;
  categories: Set<string>;
  claims: number;
  finalFailures: number;
  end: PlanDetail;
  /** Claims that passed a child over because it shared scope with a processing sibling / waited on a dependency. */
  scopeWaits: number;
  depWaits: number;
}

function latestByIssue(children: readonly PlanView[]): PlanView[] {
  const m = new Map<string, PlanView>();
  for (const c of children) if (!m.has(c.issue!) || m.get(c.issue!)!.attempt < c.attempt) m.set(c.issue!, c);
  return [...m.values()];
}

function depsOf(plan: Plan, issueId: string) {
  const issue = plan.issues.find((i) => i.id === issueId)!;
  return [...new Set(issue.depends_on)].filter((d) => d !== issueId).map((d) => plan.issues.find((i) => i.id === d)!).filter(Boolean);
}

function checkInvariants(tree: PlanDetail, plan: Plan, cfg: ReturnType<typeof parseSubplanConfig>, seen: Map<string, string>, where: string): void {
  const ctx = (msg: string) => `${where}: ${msg}`;
  const processing = tree.children.filter((c) => c.processing_state === "processing");
  // 1. the concurrency limit
  const limit = cfg.execution_mode === "sequential" ? 1 : cfg.max_parallel;
  expect(processing.length, ctx("too many processing")).toBeLessThanOrEqual(limit);
  // 2. no two scope-sharing siblings processing at once
  const scope = (id: string) => plan.issues.find((i) => i.id === id)!.scope;
  for (let i = 0; i < processing.length; i++) {
    for (let j = i + 1; j < processing.length; j++) {
      const a = processing[i];
      const b = processing[j];
      const clash = scope(a.issue!).some((x) => scope(b.issue!).some((y) => scopesOverlap(x, y)));
      expect(clash, ctx(`${a.issue} and ${b.issue} share scope and both process`)).toBe(false);
    }
  }
  // 3. no work starts before its issue's dependencies are DONE: neither a processing child, nor a started issue
  for (const c of tree.children) {
    if (c.processing_state === "processing" || c.phase !== "strategize") {
      for (const d of depsOf(plan, c.issue!)) expect(d.status, ctx(`${c.issue} runs while ${d.id} is ${d.status}`)).toBe("DONE");
    }
  }
  for (const issue of plan.issues) {
    if (["ACTIVE", "VERIFY", "DONE"].includes(issue.status)) {
      for (const d of depsOf(plan, issue.id)) expect(d.status, ctx(`${issue.id} is ${issue.status} before ${d.id}`)).toBe("DONE");
    }
  }
  // 4. retries never exceed max_retries
  const perIssue = new Map<string, number>();
  for (const c of tree.children) {
    expect(c.attempt - 1, ctx(`${c.issue} retried ${c.attempt - 1} times`)).toBeLessThanOrEqual(cfg.max_retries);
    perIssue.set(c.issue!, (perIssue.get(c.issue!) ?? 0) + 1);
  }
  for (const [issue, n] of perIssue) expect(n, ctx(`${issue} has ${n} attempts`)).toBeLessThanOrEqual(cfg.max_retries + 1);
  // 5. a final failure under fail_fast (or sequential) leaves nothing queued or processing
  const latest = latestByIssue(tree.children);
  if ((cfg.fail_fast || cfg.execution_mode === "sequential") && latest.some((c) => c.processing_state === "errored")) {
    const live = tree.children.filter((c) => c.processing_state === "queued" || c.processing_state === "processing");
    expect(live.map((c) => c.issue), ctx("a final failure did not stop the others")).toEqual([]);
    expect(tree.processing_state).toBe("errored");
  }
  // 6. terminal states never change; a child's issue is DONE exactly when it completed with work
  for (const c of tree.children) {
    const was = seen.get(c.plan_id);
    if (was && ["completed", "errored", "cancelled"].includes(was)) expect(c.processing_state, ctx(`${c.plan_id} left ${was}`)).toBe(was);
    seen.set(c.plan_id, c.processing_state);
    if (c.processing_state === "completed") expect(plan.issues.find((i) => i.id === c.issue)!.status).toBe("DONE");
  }
  // 7. the root ends exactly when every latest attempt has ended, completed iff all completed
  const allEnded = latest.every((c) => ["completed", "errored", "cancelled"].includes(c.processing_state));
  if (allEnded) expect(tree.processing_state).toBe(latest.every((c) => c.processing_state === "completed") ? "completed" : "errored");
  else expect(tree.processing_state).toBe("processing");
}

interface Scenario {
  seed: number;
  config: SubplanConfigInput;
  /** The chance that a report on a processing child is a failure. */
  failRate: number;
  /** The categories of the run's failures, in turn (timeouts also come from stalls). */
  schedule: ErrorCategory[];
  /** Steps at which the clock jumps past the timeout (besides a small random chance). */
  stalls: number[];
}

async function simulate(s: Scenario): Promise<Run> {
  const { seed } = s;
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const repo = createTestRepo({ issues: wavedIssues(3, 6, seed) });
  repos.push(repo);
  const cfg = parseSubplanConfig({ ...s.config, timeout: TIMEOUT_S });
  let now = Date.parse("2026-12-01T09:00:00Z");
  const o = () => ({ now: () => now });
  const root = await createExecutionPlan(repo, { milestone: "M1" }, cfg, o());
  expect(root.children).toHaveLength(18);
  expect(new Set(root.children.map((c) => c.wave))).toEqual(new Set([0, 1, 2]));

  let failures = 0;
  const categories = new Set<string>();
  const seen = new Map<string, string>();
  const passedOver: string[] = [];
  let claims = 0;
  let finalFailures = 0;
  let steps = 0;

  let tree: PlanDetail = await getPlan(repo, root.plan_id, o());
  for (; steps < 400; steps++) {
    if (tree.processing_state !== "processing") break;
    now += 1000;
    const processing = tree.children.filter((c) => c.processing_state === "processing");
    const roll = random();
    const where = `seed ${seed} step ${steps}`;
    if (processing.length > 0 && (s.stalls.includes(steps) || roll < 0.015)) {
      // Stall: the clock jumps past the timeout; the next call's tick fails every processing child.
      now += (TIMEOUT_S + 1) * 1000;
      const after = await getPlan(repo, root.plan_id, o());
      for (const c of processing) {
        const c2 = after.children.find((k) => k.plan_id === c.plan_id)!;
        expect(c2.processing_state, `${where}: ${c.issue} outlived the timeout`).not.toBe("processing");
        if (c2.processing_state === "errored") {
          expect(c2.last_error!.category).toBe("timeout");
          categories.add("timeout");
        }
      }
    } else if (processing.length === 0 || roll < 0.45) {
      // Claim (also when the limit is reached: the answer must then be "none").
      const r = await claimNext(repo, root.plan_id, o());
      if (r.claimed) {
        claims++;
        expect(processing.length, `${where}: claimed past the limit`).toBeLessThan(cfg.execution_mode === "sequential" ? 1 : cfg.max_parallel);
        const plan = loadPlan(repo);
        for (const d of depsOf(plan, r.claimed.issue!)) expect(d.status, `${where}: claimed ${r.claimed.issue} before ${d.id}`).toBe("DONE");
        const over = /; passed over: (.*)$/.exec(r.reason);
        if (over) passedOver.push(...over[1].split("; "));
      } else {
        expect(r.reason.length).toBeGreaterThan(0);
        passedOver.push(...r.reason.split(": ").slice(1).join(": ").split("; "));
      }
    } else {
      const c = pick(processing);
      if (random() < s.failRate) {
        const category = s.schedule[failures++ % s.schedule.length];
        const r = await fail(repo, c.plan_id, category, `simulated ${category}`, o());
        categories.add(category);
        expect(r.decision.category).toBe(category);
        if (r.decision.final) finalFailures++;
        if (r.decision.stop_others) {
          // The cancelled processing siblings' next report is refused.
          for (const id of r.cancelled) {
            const sibling = processing.find((p) => p.plan_id === id);
            if (!sibling) continue;
            let refusal: unknown;
            try {
              await advance(repo, id, sibling.phase === "strategize" ? "execute" : "apply", o());
            } catch (error) {
              refusal = error;
            }
            expect(refusal, `${where}: cancelled ${id} still reports`).toBeInstanceOf(CapabilityError);
            expect((refusal as Error).message).toMatch(/was cancelled .* is refused$/);
          }
        }
      } else if (c.phase === "strategize") {
        const r = await advance(repo, c.plan_id, "execute", o());
        expect(r.moved, `${where}: ${JSON.stringify(r.failure?.decision)}`).toBe(true);
      } else if (c.phase === "execute") {
        expect((await advance(repo, c.plan_id, "apply", o())).moved).toBe(true);
      } else {
        expect((await complete(repo, c.plan_id, PROOF, o())).completed).toBe(true);
      }
    }
    tree = await getPlan(repo, root.plan_id, o());
    checkInvariants(tree, loadPlan(repo), cfg, seen, where);
  }
  const end = tree;
  expect(end.processing_state, `the plan did not end in ${steps} steps`).not.toBe("processing");
  const scopeWaits = passedOver.filter((w) => w.includes(" shares ")).length;
  const depWaits = passedOver.filter((w) => w.includes(" waits on ")).length;
  if (process.env.SIM_DEBUG) {
    const count = (st: string) => end.children.filter((c) => c.processing_state === st).length;
    console.log(seed, { steps, claims, finalFailures, categories: [...categories], end: end.processing_state, children: end.children.length, completed: count("completed"), errored: count("errored"), cancelled: count("cancelled"), scopeWaits, depWaits });
  }
  return { steps, categories, claims, finalFailures, end, scopeWaits, depWaits };
}

describe("a simulated execution plan: 3 waves of 6 children, max_parallel 2", () => {
  const runs: Run[] = [];

  it("parallel without fail_fast: retries, stranded dependents, the root ends with its reasons", async () => {
    const run = await simulate({
      seed: 11,
      config: { execution_mode: "parallel", max_parallel: 2 },
      failRate: 0.12,
      schedule: ["transient", "rate_limit", "configuration", "transient", "validation", "rate_limit", "permission", "transient", "conflict"],
      stalls: [25],
    });
    runs.push(run);
    const latest = latestByIssue(run.end.children);
    expect(run.end.processing_state).toBe(latest.every((c) => c.processing_state === "completed") ? "completed" : "errored");
    expect(run.end.children.some((c) => c.attempt > 1)).toBe(true); // retries happened
    expect(run.end.children.filter((c) => c.processing_state === "completed").length).toBeGreaterThan(5);
    expect(run.scopeWaits, "no claim ever met a scope clash").toBeGreaterThan(0);
    expect(run.depWaits, "no claim ever met an unfinished dependency").toBeGreaterThan(0);
    expect(run.end.events.filter((e) => e.kind === "wave_finished")).toHaveLength(3);
    if (run.end.processing_state === "errored") expect(run.end.events.at(-1)!.kind).toBe("plan_errored");
  }, 60_000);

  it("parallel with fail_fast: the first final failure cancels the rest", async () => {
    const run = await simulate({
      seed: 23,
      config: { execution_mode: "parallel", max_parallel: 2, fail_fast: true, max_retries: 1 },
      failRate: 0.08,
      schedule: ["rate_limit", "transient", "permission"],
      stalls: [],
    });
    runs.push(run);
    expect(run.finalFailures).toBeGreaterThanOrEqual(1);
    expect(run.end.processing_state).toBe("errored");
    expect(run.end.children.some((c) => c.processing_state === "cancelled")).toBe(true);
    expect(run.end.children.some((c) => c.processing_state === "completed")).toBe(true);
  }, 60_000);

  it("sequential: one at a time; a final failure stops the others", async () => {
    const run = await simulate({
      seed: 5,
      config: { execution_mode: "sequential", max_parallel: 2, max_retries: 3 },
      failRate: 0.1,
      schedule: ["transient", "rate_limit", "transient", "conflict"],
      stalls: [12],
    });
    runs.push(run);
    expect(run.claims).toBeGreaterThan(1);
  }, 60_000);

  it("every failure category was exercised", async () => {
    const all = new Set(runs.flatMap((r) => [...r.categories]));
    expect([...all].sort()).toEqual([...ERROR_CATEGORIES].sort());
  });
});
