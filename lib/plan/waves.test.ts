import { describe, expect, it } from "vitest";
import { layerByDependencies } from "./waves";
import {
  activeIssue,
  doneIssue,
  fail,
  findingsOf,
  issueIn,
  makeIssue,
  makeMilestone,
  milestoneIn,
  planOf,
} from "@/tests/support/records";

const M1 = makeMilestone({ id: "M1" });

describe("§3.2 waves", () => {
  it("wave = length of the longest dependency path; each wave lists its issues in id order", () => {
    // I1 → I2 → I4, I1 → I4, I3 alone, I5 after I4 and I3
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I5", depends_on: ["I4", "I3"] }),
        makeIssue({ id: "I4", depends_on: ["I1", "I2"] }),
        makeIssue({ id: "I3" }),
        makeIssue({ id: "I2", depends_on: ["I1"] }),
        makeIssue({ id: "I1" }),
      ],
    );
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["I1", "I3"] },
      { wave: 1, issues: ["I2"] },
      { wave: 2, issues: ["I4"] },
      { wave: 3, issues: ["I5"] },
    ]);
    expect(plan.issues.map((i) => [i.id, i.wave])).toEqual([
      ["I1", 0],
      ["I2", 1],
      ["I3", 0],
      ["I4", 2],
      ["I5", 3],
    ]);
  });

  it("a wave lists its issues in byte-wise id order, not in the order they were freed", () => {
    // I1's dependent I4 is freed before I2's dependent I3; wave 1 still reads I3, I4. I10 sorts before I3.
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I1" }),
        makeIssue({ id: "I2" }),
        makeIssue({ id: "I4", depends_on: ["I1"] }),
        makeIssue({ id: "I3", depends_on: ["I2"] }),
        makeIssue({ id: "I10", depends_on: ["I2"] }),
      ],
    );
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["I1", "I2"] },
      { wave: 1, issues: ["I10", "I3", "I4"] },
    ]);
  });

  it("every issue takes part whatever its status (DONE and CANCELLED occupy waves)", () => {
    const plan = planOf(
      [M1],
      [
        doneIssue({ id: "I1" }),
        makeIssue({ id: "I2", cancelled: true, depends_on: ["I1"] }),
        activeIssue({ id: "I3", depends_on: ["I2"] }),
      ],
    );
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["I1"] },
      { wave: 1, issues: ["I2"] },
      { wave: 2, issues: ["I3"] },
    ]);
  });

  it("unknown and self dependencies are ignored; duplicates are harmless", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", depends_on: ["I1", "ZZ"] }), makeIssue({ id: "I2", depends_on: ["I1", "I1", "I2"] })],
    );
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["I1"] },
      { wave: 1, issues: ["I2"] },
    ]);
  });

  it("issues of every milestone (and of none) share one layering", () => {
    const plan = planOf(
      [makeMilestone({ id: "MA" }), makeMilestone({ id: "MB" })],
      [makeIssue({ id: "A1", milestone: "MA" }), makeIssue({ id: "B1", milestone: "MB", depends_on: ["A1"] }), makeIssue({ id: "C1", milestone: "" })],
    );
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["A1", "C1"] },
      { wave: 1, issues: ["B1"] },
    ]);
  });

  it("a cycle: one cycle FAIL (subject graph) naming every unplaced issue — members and everything downstream — in id order", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I0" }),
        makeIssue({ id: "I1", depends_on: ["I0"] }),
        makeIssue({ id: "I3", depends_on: ["I4"] }),
        makeIssue({ id: "I4", depends_on: ["I3", "I1"] }),
        makeIssue({ id: "I2", depends_on: ["I4"] }), // downstream of the cycle
        makeIssue({ id: "I9", depends_on: ["I2", "I0"] }), // further downstream
        makeIssue({ id: "I5", depends_on: ["I1"] }),
      ],
    );
    expect(findingsOf(plan, "cycle")).toEqual([
      fail("cycle", "graph", "a dependency cycle prevents these issues from ever becoming ready: I2 I3 I4 I9"),
    ]);
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["I0"] },
      { wave: 1, issues: ["I1"] },
      { wave: 2, issues: ["I5"] },
    ]);
  });

  it("two separate cycles still give a single cycle finding", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "A", depends_on: ["B"] }),
        makeIssue({ id: "B", depends_on: ["A"] }),
        makeIssue({ id: "C", depends_on: ["D"] }),
        makeIssue({ id: "D", depends_on: ["C"] }),
      ],
    );
    expect(findingsOf(plan, "cycle")).toEqual([
      fail("cycle", "graph", "a dependency cycle prevents these issues from ever becoming ready: A B C D"),
    ]);
    expect(plan.waves).toEqual([]);
  });

  it("unplaced issues are absent from Plan.waves but serialise wave 0", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", depends_on: ["I2"] }), makeIssue({ id: "I2", depends_on: ["I1"] }), makeIssue({ id: "I3", depends_on: ["I2"] })],
    );
    expect(plan.waves).toEqual([]);
    expect(plan.issues.map((i) => i.wave)).toEqual([0, 0, 0]);
  });

  it("waves never depend on statuses (a DONE chain keeps its layering)", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1" }), doneIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(issueIn(plan, "I2").wave).toBe(1);
  });

  it("no issues, no waves and no cycle finding", () => {
    const plan = planOf([M1], []);
    expect(plan.waves).toEqual([]);
    expect(findingsOf(plan, "cycle")).toEqual([]);
  });

  it("layerByDependencies layers by index, -1 for nodes in or downstream of a cycle", () => {
    const { layer, layers } = layerByDependencies([[], [0], [3], [2], [1, 0, 0], [3]]);
    expect([...layer]).toEqual([0, 1, -1, -1, 2, -1]);
    expect(layers).toEqual([[0], [1], [4]]);
  });
});

describe("§3.3 milestone ranks", () => {
  it("rank = Kahn layer over valid milestone edges", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "MD", depends_on: ["MB", "MC"] }),
        makeMilestone({ id: "MC", depends_on: ["MA"] }),
        makeMilestone({ id: "MB", depends_on: ["MA", "MX", "MB"] }),
        makeMilestone({ id: "MA" }),
        makeMilestone({ id: "ME", depends_on: ["MA", "MD"] }),
      ],
      [],
    );
    expect(plan.milestones.map((m) => [m.id, m.rank])).toEqual([
      ["MA", 0],
      ["MB", 1],
      ["MC", 1],
      ["MD", 2],
      ["ME", 3],
    ]);
  });

  it("milestone_cycle names cyclic and downstream milestones (space-joined, id order) and forces their rank to 0", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M0" }),
        makeMilestone({ id: "M1", depends_on: ["M0"] }),
        makeMilestone({ id: "M3", depends_on: ["M2"] }),
        makeMilestone({ id: "M2", depends_on: ["M3", "M1"] }),
        makeMilestone({ id: "M4", depends_on: ["M2"] }),
        makeMilestone({ id: "M5", depends_on: ["M1"] }),
      ],
      [],
    );
    expect(findingsOf(plan, "milestone_cycle")).toEqual([
      fail("milestone_cycle", "M2 M3 M4", "milestone dependencies form a cycle; no roadmap order exists"),
    ]);
    expect(plan.milestones.map((m) => [m.id, m.rank])).toEqual([
      ["M0", 0],
      ["M1", 1],
      ["M2", 0],
      ["M3", 0],
      ["M4", 0],
      ["M5", 2],
    ]);
  });

  it("self and unknown milestone dependencies do not form a cycle or raise the rank", () => {
    const plan = planOf([makeMilestone({ id: "M1", depends_on: ["M1", "M9"] })], [makeIssue({ id: "I1" })]);
    expect(milestoneIn(plan, "M1").rank).toBe(0);
    expect(findingsOf(plan, "milestone_cycle")).toEqual([]);
  });

  it("milestones in a cycle block each other through the gate", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", depends_on: ["M2"] }), makeMilestone({ id: "M2", depends_on: ["M1"] })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M1").blocked_by).toEqual(["M2"]);
    expect(milestoneIn(plan, "M2").blocked_by).toEqual(["M1"]);
    expect(plan.milestones.map((m) => m.status)).toEqual(["BLOCKED", "BLOCKED"]);
  });
});
