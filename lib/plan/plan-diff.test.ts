import { describe, expect, it } from "vitest";
import { diffPlans as changesBetween } from "./changes";
import { diffPlans } from "./plan-diff";
import { previewLines } from "./preview-text";
import { doneIssue, makeIssue, makeMilestone, planOf } from "@/tests/support/records";

const M = [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", order: 2 })];

// Issue 27: the preview is plan.changes's diff (one function, one schema), plus scope_conflicts and is_empty.
describe("diffPlans (an edit's preview)", () => {
  it("two equal plans differ in nothing", () => {
    const plan = planOf(M, [makeIssue({ id: "I1" })]);
    const d = diffPlans(plan, plan);
    expect(d).toMatchObject({ issues: [], milestones: [], findings: { new: [], resolved: [] }, scope_conflicts: [], is_empty: true });
    expect(previewLines(d)).toEqual(["nothing derived changes"]);
  });

  it("is plan.changes's diff of the same two plans, member for member", () => {
    const before = planOf(M, [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    const after = planOf(M, [doneIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2", depends_on: ["I1"] })]);
    const { scope_conflicts: _s, is_empty, ...rest } = diffPlans(before, after);
    expect(rest).toEqual(changesBetween(before, after));
    expect(is_empty).toBe(false);
  });

  it("names each issue's status, wave and milestone change from → to, in words too", () => {
    const before = planOf(M, [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    const after = planOf(M, [doneIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2", depends_on: ["I1"] })]);
    const d = diffPlans(before, after);
    expect(d.issues.map((i) => [i.id, i.from, i.to, i.milestone_from, i.milestone])).toEqual([
      ["I1", "READY", "DONE", "M1", "M1"],
      ["I2", "BLOCKED", "READY", "M1", "M2"],
    ]);
    expect(d.next).toEqual({ from: "I1", to: "I2" });
    const lines = previewLines(d);
    expect(lines).toContain("I1: status READY → DONE");
    expect(lines).toContain("I2: status BLOCKED → READY, milestone M1 → M2");
    expect(lines).toContain("next issue: I1 → I2");
  });

  it("identifies findings: new ones are new, gone ones resolved; an added issue is from null", () => {
    const before = planOf(M, [makeIssue({ id: "I1", depends_on: ["I9"] })]);
    const after = planOf(M, [makeIssue({ id: "I1", scope: ["src/a"] }), makeIssue({ id: "I2", scope: ["src/a"] })]);
    const d = diffPlans(before, after);
    expect(d.findings.resolved.map((f) => f.code)).toEqual(["unknown_dependency"]);
    expect(d.findings.new.map((f) => f.code)).toContain("scope_conflict");
    expect(d.scope_conflicts).toEqual(d.findings.new.filter((f) => f.code === "scope_conflict"));
    expect(d.issues.find((i) => i.id === "I2")).toMatchObject({ from: null, to: "READY", milestone_from: null, milestone: "M1" });
    expect(previewLines(d).find((l) => l.startsWith("I2: "))).toMatch(/^I2: added, status – → READY, wave – → \d+, milestone – → M1$/);
  });

  it("names a removed issue and the roadmap's now and next when they move", () => {
    const before = planOf(M, [makeIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2" })]);
    const after = planOf(M, [doneIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2" })]);
    const d = diffPlans(before, after);
    expect(d.milestones).toEqual([{ id: "M1", from: expect.any(String), to: "DONE" }]);
    expect(d.roadmap.now).toEqual({ from: "M1", to: "M2" });
    const removed = diffPlans(before, planOf(M, [makeIssue({ id: "I1" })]));
    expect(removed.issues).toMatchObject([{ id: "I2", from: "READY", to: null }]);
    expect(previewLines(removed)).toContain("I2: removed");
  });
});
