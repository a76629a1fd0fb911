import { describe, expect, it } from "vitest";
import { diffPlans } from "./plan-diff";
import { doneIssue, makeIssue, makeMilestone, planOf } from "@/tests/support/records";

const M = [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", order: 2 })];

describe("diffPlans", () => {
  it("two equal plans differ in nothing", () => {
    const plan = planOf(M, [makeIssue({ id: "I1" })]);
    expect(diffPlans(plan, plan)).toEqual({ issues: [], milestones: [], findings: { added: [], resolved: [] }, scope_conflicts: [], roadmap: {}, is_empty: true });
  });

  it("names each issue's status, wave and milestone change from → to", () => {
    const before = planOf(M, [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    const after = planOf(M, [doneIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2", depends_on: ["I1"] })]);
    const d = diffPlans(before, after);
    expect(d.issues).toEqual([
      { id: "I1", status: { from: "READY", to: "DONE" } },
      { id: "I2", status: { from: "BLOCKED", to: "READY" }, milestone: { from: "M1", to: "M2" } },
    ]);
    expect(d.next_issue).toEqual({ from: "I1", to: "I2" });
    expect(d.is_empty).toBe(false);
  });

  it("identifies findings by level, code, subject and message: new ones are added, gone ones resolved", () => {
    const before = planOf(M, [makeIssue({ id: "I1", depends_on: ["I9"] })]);
    const after = planOf(M, [makeIssue({ id: "I1", scope: ["src/a"] }), makeIssue({ id: "I2", scope: ["src/a"] })]);
    const d = diffPlans(before, after);
    expect(d.findings.resolved.map((f) => f.code)).toEqual(["unknown_dependency"]);
    expect(d.findings.added.map((f) => f.code)).toContain("scope_conflict");
    expect(d.scope_conflicts).toEqual(d.findings.added.filter((f) => f.code === "scope_conflict"));
    expect(d.issues).toEqual([{ id: "I2", presence: "added", status: { from: "", to: "READY" }, wave: { from: -1, to: expect.any(Number) }, milestone: { from: "", to: "M1" } }]);
  });

  it("names a removed issue and the roadmap's now and next when they move", () => {
    const before = planOf(M, [makeIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2" })]);
    const after = planOf(M, [doneIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2" })]);
    const d = diffPlans(before, after);
    expect(d.milestones).toEqual([{ id: "M1", status: { from: expect.any(String), to: "DONE" } }]);
    expect(d.roadmap.now).toEqual({ from: "M1", to: "M2" });
    expect(diffPlans(before, planOf(M, [makeIssue({ id: "I1" })])).issues).toEqual([{ id: "I2", presence: "removed" }]);
  });
});
