import { describe, expect, it } from "vitest";
import { planRoadmap } from "./queries";
import { deriveRoadmap, roadmapOrder } from "./roadmap";
import { doneIssue, makeIssue, makeMilestone, planOf } from "@/tests/support/records";

const doneMs = (id: string, extra: Parameters<typeof makeMilestone>[0] = { id }) =>
  makeMilestone({ ...extra, id, evidence_required: ["x"], covers: ["x"] });

describe("§3.4 roadmap order", () => {
  it("sorts by rank, then order, then byte-wise id", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "b", order: 5 }),
        makeMilestone({ id: "B", order: 5 }),
        makeMilestone({ id: "A", order: 9 }),
        makeMilestone({ id: "Z", order: -3 }),
        makeMilestone({ id: "R1", order: 0, depends_on: ["A"] }),
        makeMilestone({ id: "R2", order: -100, depends_on: ["R1"] }),
      ],
      [],
    );
    expect(roadmapOrder(plan).map((m) => m.id)).toEqual(["Z", "B", "b", "A", "R1", "R2"]);
    expect(planRoadmap(plan).milestones.map((m) => m.id)).toEqual(["Z", "B", "b", "A", "R1", "R2"]);
  });

  it("the roadmap carries the full PlanMilestone objects", () => {
    const plan = planOf([makeMilestone({ id: "M1" })], [makeIssue({ id: "I1" })]);
    expect(planRoadmap(plan).milestones).toEqual(plan.milestones);
  });

  it("version labels do not order the roadmap", () => {
    const plan = planOf([makeMilestone({ id: "M1", version: "0.9", order: 1 }), makeMilestone({ id: "M2", version: "0.1", order: 2 })], []);
    expect(roadmapOrder(plan).map((m) => m.id)).toEqual(["M1", "M2"]);
  });
});

describe("§3.4 now and next", () => {
  it("now = the first open milestone when unblocked; next = the second open one", () => {
    const plan = planOf(
      [doneMs("M1", { id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2 }), makeMilestone({ id: "M3", order: 3 }), makeMilestone({ id: "M4", order: 4 })],
      [makeIssue({ id: "I2", milestone: "M2" }), makeIssue({ id: "I3", milestone: "M3" }), makeIssue({ id: "I4", milestone: "M4" })],
    );
    const r = deriveRoadmap(plan);
    expect(r.now).toBe("M2");
    expect(r.next).toBe("M3");
  });

  it("DONE, CANCELLED and SUPERSEDED milestones are not open", () => {
    const plan = planOf(
      [
        doneMs("M1", { id: "M1", order: 1 }),
        makeMilestone({ id: "M2", order: 2, cancelled: true }),
        makeMilestone({ id: "M3", order: 3, superseded_by: "M5" }),
        makeMilestone({ id: "M4", order: 4 }),
        makeMilestone({ id: "M5", order: 5 }),
      ],
      [makeIssue({ id: "I4", milestone: "M4" }), makeIssue({ id: "I5", milestone: "M5" })],
    );
    const r = deriveRoadmap(plan);
    expect(r.now).toBe("M4");
    expect(r.next).toBe("M5");
  });

  it("next is the second open milestone even when it is blocked", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2, depends_on: ["M1"] })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    const r = deriveRoadmap(plan);
    expect(r.now).toBe("M1");
    expect(r.next).toBe("M2");
  });

  it("when the first open milestone is blocked there is no now, and next is that first open milestone", () => {
    // M2 and M3 depend on the cancelled M1 and are blocked forever; M4 is DONE, so M2 is the first open one.
    const blockedFirst = planOf(
      [
        makeMilestone({ id: "M1", order: 1, cancelled: true }),
        makeMilestone({ id: "M2", order: 1, depends_on: ["M1"] }),
        makeMilestone({ id: "M3", order: 2, depends_on: ["M1"] }),
        makeMilestone({ id: "M4", order: 3 }),
      ],
      [makeIssue({ id: "I2", milestone: "M2" }), makeIssue({ id: "I3", milestone: "M3" }), doneIssue({ id: "I4", milestone: "M4" })],
    );
    expect(roadmapOrder(blockedFirst).map((m) => m.id)).toEqual(["M1", "M4", "M2", "M3"]);
    const r2 = deriveRoadmap(blockedFirst);
    expect(r2.now).toBeUndefined();
    expect(r2.next).toBe("M2");
    expect("now" in r2).toBe(false);
  });

  it("a milestone cycle makes the first open milestone blocked: no now, next = first open", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1, depends_on: ["M2"] }), makeMilestone({ id: "M2", order: 2, depends_on: ["M1"] })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    const r = deriveRoadmap(plan);
    expect(r.now).toBeUndefined();
    expect(r.next).toBe("M1");
  });

  it("one open milestone: now only, next absent", () => {
    const plan = planOf([doneMs("M1", { id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2 })], [makeIssue({ id: "I2", milestone: "M2" })]);
    const r = deriveRoadmap(plan);
    expect(r.now).toBe("M2");
    expect("next" in r).toBe(false);
  });

  it("no open milestone: neither now nor next", () => {
    const plan = planOf([doneMs("M1"), makeMilestone({ id: "M2", cancelled: true })], []);
    const r = deriveRoadmap(plan);
    expect(r).toEqual({ milestones: roadmapOrder(plan) });
    expect("now" in r).toBe(false);
    expect("next" in r).toBe(false);
  });

  it("an empty plan has an empty roadmap", () => {
    expect(deriveRoadmap(planOf([], []))).toEqual({ milestones: [] });
  });
});
