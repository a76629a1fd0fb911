import { describe, expect, it } from "vitest";
import { pickNextIssue, priorityRank } from "./next-issue";
import { planNext } from "./queries";
import { activeIssue, doneIssue, issueIn, makeIssue, makeMilestone, planOf } from "@/tests/support/records";

const M1 = makeMilestone({ id: "M1" });
const NOTHING_READY = "no issue is READY; every one of them waits on a dependency or on its milestone's gate";
const NOTHING_DECLARED = "the plan declares no issue to hand out";

describe("§3.5 priority rank", () => {
  it("p0→0, p1→1, p2→2, anything else (p3, empty, P0) → 3", () => {
    expect(["p0", "p1", "p2", "p3", "", "P0", "high"].map(priorityRank)).toEqual([0, 1, 2, 3, 3, 3, 3]);
  });
});

describe("§3.5 next_ready ranking", () => {
  it("the lowest wave wins over a better priority", () => {
    const plan = planOf(
      [M1],
      [doneIssue({ id: "I0" }), makeIssue({ id: "I1", priority: "p0", depends_on: ["I0"] }), makeIssue({ id: "I2", priority: "p3" })],
    );
    expect(issueIn(plan, "I1").wave).toBe(1);
    expect(pickNextIssue(plan)?.id).toBe("I2");
  });

  it("within a wave the better priority wins over a smaller id", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", priority: "p2" }), makeIssue({ id: "I2", priority: "p0" })]);
    expect(pickNextIssue(plan)?.id).toBe("I2");
  });

  it("p2 beats an unknown priority, which ranks like p3", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", priority: "urgent" }), makeIssue({ id: "I2", priority: "p2" })]);
    expect(pickNextIssue(plan)?.id).toBe("I2");
    const tie = planOf([M1], [makeIssue({ id: "I2", priority: "p3" }), makeIssue({ id: "I1", priority: "" })]);
    expect(pickNextIssue(tie)?.id).toBe("I1");
  });

  it("equal wave and priority: the byte-wise smaller id (I10 before I2)", () => {
    const plan = planOf([M1], [makeIssue({ id: "I2" }), makeIssue({ id: "I10" })]);
    expect(pickNextIssue(plan)?.id).toBe("I10");
  });

  it("only READY issues are handed out", () => {
    const plan = planOf([M1], [activeIssue({ id: "I1", priority: "p0" }), makeIssue({ id: "I2", priority: "p3" })]);
    expect(pickNextIssue(plan)?.id).toBe("I2");
  });

  it("without a milestone the scope is the active milestone", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2 })],
      [makeIssue({ id: "A1", milestone: "M2", priority: "p0" }), makeIssue({ id: "B1", milestone: "M1", priority: "p3" })],
    );
    expect(plan.project.active_milestone).toBe("M1");
    expect(pickNextIssue(plan)?.id).toBe("B1");
  });

  it("a given milestone is the scope", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2 })],
      [makeIssue({ id: "A1", milestone: "M1", priority: "p0" }), makeIssue({ id: "B1", milestone: "M2", priority: "p3" })],
    );
    expect(pickNextIssue(plan, "M2")?.id).toBe("B1");
  });

  it("widens to the whole plan when the scope has no READY issue", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2 })],
      [activeIssue({ id: "A1", milestone: "M1" }), makeIssue({ id: "B2", milestone: "M2", priority: "p2" }), makeIssue({ id: "B1", milestone: "M2", priority: "p2" })],
    );
    expect(plan.project.active_milestone).toBe("M1");
    expect(pickNextIssue(plan)?.id).toBe("B1");
    expect(pickNextIssue(plan, "M1")?.id).toBe("B1");
  });

  it("widens also for an explicit unknown milestone (next_ready(Some(\"M999\")))", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" })]);
    expect(pickNextIssue(plan, "M999")?.id).toBe("I1");
  });

  it("none READY anywhere is absent", () => {
    const plan = planOf([M1], [activeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(pickNextIssue(plan)).toBeUndefined();
    expect(pickNextIssue(plan, "M1")).toBeUndefined();
    expect(pickNextIssue(planOf([], []))).toBeUndefined();
  });
});

describe("§3.5 plan.next", () => {
  it("returns the issue and the derived active milestone, without a reason", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" })]);
    const out = planNext(plan);
    expect(out).toEqual({ issue: issueIn(plan, "I1"), active_milestone: "M1" });
    expect("reason" in out).toBe(false);
  });

  it("active_milestone echoes the input milestone", () => {
    const plan = planOf([M1, makeMilestone({ id: "M2", order: 5 })], [makeIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2" })]);
    expect(planNext(plan, { milestone: "M2" })).toEqual({ issue: issueIn(plan, "I2"), active_milestone: "M2" });
    expect(planNext(plan, { milestone: "M999" }).active_milestone).toBe("M999");
    expect(planNext(plan, { milestone: "M999" }).issue?.id).toBe("I1");
  });

  it("no READY issue while issues exist: the waiting reason, no issue", () => {
    const plan = planOf([M1], [activeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    const out = planNext(plan);
    expect(out).toEqual({ active_milestone: "M1", reason: NOTHING_READY });
    expect("issue" in out).toBe(false);
    expect(planNext(plan, { milestone: "M1" })).toEqual({ active_milestone: "M1", reason: NOTHING_READY });
  });

  it("a given milestone without issues: the 'declares no issue' reason, even when other milestones have waiting issues", () => {
    const plan = planOf([M1, makeMilestone({ id: "M2" })], [activeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(planNext(plan, { milestone: "M2" })).toEqual({ active_milestone: "M2", reason: NOTHING_DECLARED });
  });

  it("no issue at all: the 'declares no issue' reason", () => {
    expect(planNext(planOf([], []))).toEqual({ active_milestone: "", reason: NOTHING_DECLARED });
    expect(planNext(planOf([M1], []))).toEqual({ active_milestone: "M1", reason: NOTHING_DECLARED });
  });
});
