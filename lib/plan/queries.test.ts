import { describe, expect, it } from "vitest";
import { CapabilityError } from "./errors";
import { planIssues, planModel, planNext, planRecord, planRoadmap, planStatus, planValidate, planWaves } from "./queries";
import {
  activeIssue,
  doneIssue,
  issueIn,
  makeIssue,
  makeMilestone,
  milestoneIn,
  planOf,
  warn,
} from "@/tests/support/records";

function thrown(fn: () => unknown): CapabilityError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CapabilityError) return error;
    throw new Error(`threw something else: ${String(error)}`);
  }
  throw new Error("did not throw");
}

const twoMilestones = () =>
  planOf(
    [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2 })],
    [
      doneIssue({ id: "I1", milestone: "M1" }),
      makeIssue({ id: "I2", milestone: "M1", depends_on: ["I1"], scope: ["lib"] }),
      makeIssue({ id: "I3", milestone: "M2", scope: ["lib/x"] }),
      makeIssue({ id: "I4", milestone: "M2", cancelled: true }),
      activeIssue({ id: "I5", milestone: "M2", depends_on: ["I3"] }),
    ],
  );

describe("§7 plan.model", () => {
  it("is the plan itself", () => {
    const plan = twoMilestones();
    expect(planModel(plan)).toBe(plan);
  });

  it("serialises in the contract's field order (Plan, PlanProject, PlanIssue, PlanMilestone, PlanCounts, PlanFinding, edges, waves)", () => {
    const plan = twoMilestones();
    expect(Object.keys(plan)).toEqual(["project", "statuses", "milestones", "issues", "waves", "edges", "milestone_edges", "findings"]);
    expect(Object.keys(plan.project)).toEqual(["name", "repository", "default_branch", "active_milestone"]);
    expect(Object.keys(plan.statuses)).toEqual(["issue", "milestone"]);
    expect(Object.keys(plan.issues[0])).toEqual([
      "id", "milestone", "status", "wave", "priority", "profile", "parallel_safe", "title", "slug", "depends_on",
      "blocked_by", "dependents", "scope", "serves", "objective", "evidence_have", "evidence_need", "started_at",
      "verified_at", "completed_at",
    ]);
    expect(Object.keys(plan.milestones[0])).toEqual([
      "id", "status", "order", "priority", "title", "slug", "version", "rank", "depends_on", "blocked_by",
      "dependents", "claims", "counts", "issues", "outcome",
    ]);
    expect(Object.keys(plan.milestones[0].counts)).toEqual(["total", "required", "by_status"]);
    expect(Object.keys(plan.waves[0])).toEqual(["wave", "issues"]);
    expect(Object.keys(plan.edges[0])).toEqual(["from", "to"]);
    expect(plan.findings.length).toBeGreaterThan(0);
    for (const f of plan.findings) expect(Object.keys(f)).toEqual(["level", "code", "subject", "message"]);
  });
});

describe("§7 plan.status", () => {
  it("reports project, vocabularies, milestone progress, next_ready and plan-wide counts", () => {
    const plan = twoMilestones();
    const out = planStatus(plan);
    expect(Object.keys(out)).toEqual(["project", "statuses", "milestones", "next_ready", "counts"]);
    expect(out.project).toEqual(plan.project);
    expect(out.statuses).toEqual(plan.statuses);
    expect(out.milestones).toEqual(
      plan.milestones.map((m) => ({ id: m.id, status: m.status, title: m.title, counts: m.counts })),
    );
    expect(out.next_ready).toEqual(issueIn(plan, "I2"));
    expect(out.counts).toEqual({
      total: 5,
      required: 4,
      by_status: { ACTIVE: 1, BLOCKED: 0, CANCELLED: 1, DONE: 1, READY: 2, VERIFY: 0 },
    });
  });

  it("restricted to a milestone, counts only its issues", () => {
    const out = planStatus(twoMilestones(), { milestone: "M2" });
    expect(out.counts).toEqual({
      total: 3,
      required: 2,
      by_status: { ACTIVE: 1, BLOCKED: 0, CANCELLED: 1, DONE: 0, READY: 1, VERIFY: 0 },
    });
    expect(out.next_ready?.id).toBe("I3");
  });

  it("an unknown milestone is not_found: no milestone 'X'", () => {
    const error = thrown(() => planStatus(twoMilestones(), { milestone: "X" }));
    expect(error.code).toBe("not_found");
    // Issue 27: the refusal names the known ids nearest to the one asked for.
    expect(error.message).toMatch(/^no milestone 'X'; the nearest known: \S/);
  });

  it("next_ready is omitted when nothing is READY", () => {
    const out = planStatus(planOf([makeMilestone({ id: "M1" })], [activeIssue({ id: "I1" })]));
    expect("next_ready" in out).toBe(false);
  });
});

describe("§7 plan.issues", () => {
  it("unfiltered: every issue, total and the vocabularies", () => {
    const plan = twoMilestones();
    expect(planIssues(plan)).toEqual({ issues: plan.issues, total: 5, statuses: plan.statuses });
  });

  it("filters by milestone, status and wave together", () => {
    const plan = twoMilestones();
    expect(planIssues(plan, { milestone: "M2" }).issues.map((i) => i.id)).toEqual(["I3", "I4", "I5"]);
    expect(planIssues(plan, { status: "READY" }).issues.map((i) => i.id)).toEqual(["I2", "I3"]);
    expect(planIssues(plan, { wave: 1 }).issues.map((i) => i.id)).toEqual(["I2", "I5"]);
    const both = planIssues(plan, { milestone: "M2", status: "READY", wave: 0 });
    expect(both.issues.map((i) => i.id)).toEqual(["I3"]);
    expect(both.total).toBe(1);
  });

  it("wave 0 includes issues that have no wave (cycle members)", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" })],
      [makeIssue({ id: "I1", depends_on: ["I2"] }), makeIssue({ id: "I2", depends_on: ["I1"] }), makeIssue({ id: "I3" })],
    );
    expect(planIssues(plan, { wave: 0 }).issues.map((i) => i.id)).toEqual(["I1", "I2", "I3"]);
  });

  it("a status outside the vocabulary is invalid_input with the exact message", () => {
    const error = thrown(() => planIssues(twoMilestones(), { status: "PLANNED" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      "'PLANNED' is not an issue status; the vocabulary is READY, BLOCKED, ACTIVE, VERIFY, DONE, CANCELLED",
    );
  });

  it("status matching is exact (lowercase is not in the vocabulary)", () => {
    expect(thrown(() => planIssues(twoMilestones(), { status: "ready" })).code).toBe("invalid_input");
  });
});

describe("§7 plan.waves", () => {
  it("waves carry full PlanIssue objects", () => {
    const plan = twoMilestones();
    const out = planWaves(plan);
    expect(out.waves).toEqual([
      { wave: 0, issues: [issueIn(plan, "I1"), issueIn(plan, "I3"), issueIn(plan, "I4")] },
      { wave: 1, issues: [issueIn(plan, "I2"), issueIn(plan, "I5")] },
    ]);
  });

  it("the milestone filter drops waves left empty and keeps wave numbers", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2" })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2", depends_on: ["I1"] })],
    );
    expect(planWaves(plan, { milestone: "M2" }).waves).toEqual([{ wave: 1, issues: [issueIn(plan, "I2")] }]);
    // Issue 27: an unknown milestone is refused on every read but next (it was an empty list).
    expect(thrown(() => planWaves(plan, { milestone: "M404" })).code).toBe("not_found");
  });

  it("serialised_by_scope holds every scope_conflict finding, not filtered by milestone", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2" })],
      [
        makeIssue({ id: "I1", milestone: "M1", scope: ["lib"] }),
        makeIssue({ id: "I2", milestone: "M1", scope: ["lib"], depends_on: ["I9"] }),
        makeIssue({ id: "I3", milestone: "M2", scope: ["app"] }),
      ],
    );
    const expected = [warn("scope_conflict", "I1", "shares lib with I2; they may not run concurrently")];
    expect(planWaves(plan).serialised_by_scope).toEqual(expected);
    expect(planWaves(plan, { milestone: "M2" }).serialised_by_scope).toEqual(expected);
  });
});

describe("§7 plan.roadmap and plan.next", () => {
  it("plan.roadmap is the roadmap", () => {
    const out = planRoadmap(twoMilestones());
    expect(out.milestones.map((m) => m.id)).toEqual(["M1", "M2"]);
    expect(out.now).toBe("M1");
    expect(out.next).toBe("M2");
  });

  it("plan.next hands out the next issue, fields {issue, active_milestone}", () => {
    const out = planNext(twoMilestones());
    expect(out.issue?.id).toBe("I2");
    expect(Object.keys(out)).toEqual(["issue", "active_milestone"]);
  });
});

describe("§7 plan.validate", () => {
  it("valid iff no FAIL; counts milestones, issues, failures and warnings; findings in order", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" })],
      [makeIssue({ id: "I1", depends_on: ["X"], evidence_required: [] }), makeIssue({ id: "I2", evidence_required: [] })],
    );
    const out = planValidate(plan);
    expect(out).toEqual({
      valid: false,
      milestones: 1,
      issues: 2,
      failures: 1,
      warnings: 2,
      findings: plan.findings,
    });
    expect(Object.keys(out)).toEqual(["valid", "milestones", "issues", "failures", "warnings", "findings"]);
  });

  it("warnings alone keep the plan valid", () => {
    const out = planValidate(planOf([makeMilestone({ id: "M1" })], [makeIssue({ id: "I1", evidence_required: [] })]));
    expect(out.valid).toBe(true);
    expect(out.warnings).toBe(1);
    expect(out.failures).toBe(0);
  });
});

describe("§7 plan.record", () => {
  it("a milestone id gives {milestone, issues} with its issues", () => {
    const plan = twoMilestones();
    const out = planRecord(plan, { id: "M2" });
    expect(out).toEqual({
      milestone: milestoneIn(plan, "M2"),
      issues: [issueIn(plan, "I3"), issueIn(plan, "I4"), issueIn(plan, "I5")],
    });
  });

  it("an issue id gives {issue, depends_on} with the dependency issues", () => {
    const plan = twoMilestones();
    expect(planRecord(plan, { id: "I5" })).toEqual({ issue: issueIn(plan, "I5"), depends_on: [issueIn(plan, "I3")] });
  });

  it("depends_on follows the declaration: itself and duplicates included, unknown ids dropped", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" })],
      [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1", "I2", "NOPE", "I1"] })],
    );
    const out = planRecord(plan, { id: "I2" });
    expect(out).toEqual({
      issue: issueIn(plan, "I2"),
      depends_on: [issueIn(plan, "I1"), issueIn(plan, "I2"), issueIn(plan, "I1")],
    });
  });

  it("the milestone is looked up first when an id names both", () => {
    // The loader refuses such a pair; the records alone can still carry it.
    const plan = planOf([makeMilestone({ id: "X1" })], [makeIssue({ id: "X1", milestone: "X1" })]);
    const out = planRecord(plan, { id: "X1" });
    expect("milestone" in out).toBe(true);
    expect(out).toEqual({ milestone: milestoneIn(plan, "X1"), issues: [issueIn(plan, "X1")] });
  });

  it("neither is not_found: no milestone or issue '<id>'", () => {
    const error = thrown(() => planRecord(twoMilestones(), { id: "Q7" }));
    expect(error.code).toBe("not_found");
    expect(error.message).toBe("no milestone or issue 'Q7'");
  });
});

describe("one rule for an unknown milestone (issue 27)", () => {
  const plan = () => planOf([makeMilestone({ id: "booking" }), makeMilestone({ id: "billing" }), makeMilestone({ id: "accounts" })], [makeIssue({ id: "I1", milestone: "booking" })]);

  it("status, issues and waves refuse it, naming the nearest known ids first", () => {
    for (const read of [() => planStatus(plan(), { milestone: "bookin" }), () => planIssues(plan(), { milestone: "bookin" }), () => planWaves(plan(), { milestone: "bookin" })]) {
      const error = thrown(read);
      expect(error.code).toBe("not_found");
      expect(error.message).toBe("no milestone 'bookin'; the nearest known: booking, billing, accounts");
    }
  });

  it("a milestone only an issue names is known (its file may be missing)", () => {
    const p = planOf([], [makeIssue({ id: "I1", milestone: "ghost" })]);
    expect(planIssues(p, { milestone: "ghost" }).total).toBe(1);
  });

  it("next widens instead, and says so; in scope it says nothing", () => {
    expect(planNext(plan(), { milestone: "bookin" })).toMatchObject({ issue: { id: "I1" }, widened: true });
    expect("widened" in planNext(plan(), { milestone: "booking" })).toBe(false);
  });
});
