import { describe, expect, it } from "vitest";
import type { IssueRecord } from "../plan/records";
import { activeIssue, doneIssue, makeIssue, makeMilestone, planOf, sealedStamps, verifyIssue } from "@/tests/support/records";
import { criticalPath, deriveCriticalPath, milestoneWeights } from "./critical-path";

const ms = [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2" })];
const plan = (issues: IssueRecord[]) => planOf(ms, issues);
const dep = (id: string, ...depends_on: string[]) => makeIssue({ id, depends_on });

/** A DONE issue of a milestone that took `hours` from its sealed start to its sealed completion. */
function took(id: string, milestone: string, hours: number): IssueRecord {
  const start = Date.parse("2026-10-05T00:00:00Z");
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  return makeIssue({ id, milestone, covers: ["proof"], ...sealedStamps(id, { start: iso(start), done: iso(start + hours * 3_600_000) }) });
}

describe("what counts", () => {
  it("an empty plan, or one with nothing unfinished, has an empty path of total 0", () => {
    expect(deriveCriticalPath(plan([]))).toEqual({ milestone: null, path: [], total: 0 });
    expect(deriveCriticalPath(plan([doneIssue({ id: "A" }), makeIssue({ id: "B", cancelled: true })]))).toEqual({ milestone: null, path: [], total: 0 });
  });

  it("a chain of unfinished issues is the path, first to do first, one day per issue without history", () => {
    const p = plan([dep("C", "B"), dep("B", "A"), dep("A"), dep("Z")]);
    expect(deriveCriticalPath(p)).toEqual({
      milestone: null,
      path: [
        { id: "A", title: "Issue A", status: "READY", weight: 1 },
        { id: "B", title: "Issue B", status: "BLOCKED", weight: 1 },
        { id: "C", title: "Issue C", status: "BLOCKED", weight: 1 },
      ],
      total: 3,
    });
  });

  it("READY, BLOCKED, ACTIVE and VERIFY issues all count", () => {
    const p = plan([verifyIssue({ id: "A" }), activeIssue({ id: "B", depends_on: ["A"] }), dep("C", "B"), dep("D", "C")]);
    expect(deriveCriticalPath(p).path.map((s) => [s.id, s.status])).toEqual([
      ["A", "VERIFY"],
      ["B", "ACTIVE"],
      ["C", "BLOCKED"],
      ["D", "BLOCKED"],
    ]);
  });

  it("a DONE issue in the middle of a chain breaks it: the two ends are not one path", () => {
    // A <- B (DONE) <- C <- D: C waits on nothing unfinished, so the longest chain is C, D.
    const p = plan([dep("A"), doneIssue({ id: "B", depends_on: ["A"] }), dep("C", "B"), dep("D", "C")]);
    expect(criticalPath(p)).toEqual(["C", "D"]);
  });

  it("a cancelled link breaks the chain, and the cancelled issue is never on it", () => {
    // X <- Y (cancelled) <- Z <- W; Y blocks Z forever, but Z is still unfinished work.
    const p = plan([dep("X"), makeIssue({ id: "Y", depends_on: ["X"], cancelled: true }), dep("Z", "Y"), dep("W", "Z")]);
    expect(criticalPath(p)).toEqual(["Z", "W"]);
    expect(deriveCriticalPath(p).total).toBe(2);
  });

  it("members of a dependency cycle, and what waits on them, are left out", () => {
    // E <-> F is a cycle; G and H wait on it (no wave); A <- B is the longest chain left.
    const p = plan([dep("E", "F"), dep("F", "E"), dep("G", "F"), dep("H", "G"), dep("A"), dep("B", "A"), dep("K")]);
    expect(p.waves.flatMap((w) => w.issues)).not.toContain("E");
    expect(criticalPath(p)).toEqual(["A", "B"]);
  });

  it("a self-dependency is no step: the issue counts once and the chain through it holds", () => {
    const p = plan([dep("A", "A"), dep("B", "A", "B"), dep("C")]);
    expect(deriveCriticalPath(p).path.map((s) => s.id)).toEqual(["A", "B"]);
    expect(deriveCriticalPath(p).total).toBe(2);
  });

  it("unknown dependencies and repeated ones change nothing", () => {
    const p = plan([dep("A", "NOPE"), dep("B", "A", "A")]);
    expect(criticalPath(p)).toEqual(["A", "B"]);
    expect(deriveCriticalPath(p).total).toBe(2);
  });
});

describe("ties are broken by id", () => {
  it("between two chains of the same total, the one whose first id comes first wins", () => {
    const p = plan([dep("P"), dep("Q", "P"), dep("C"), dep("D", "C")]);
    expect(criticalPath(p)).toEqual(["C", "D"]);
  });

  it("at a fork, the branch with the smaller id wins; ids compare byte-wise (upper case first)", () => {
    // A <- b, A <- C (both leaves): C sorts before b byte-wise.
    expect(criticalPath(plan([dep("A"), dep("b", "A"), dep("C", "A")]))).toEqual(["A", "C"]);
    // The diamond A <- B <- D, A <- C <- D.
    expect(criticalPath(plan([dep("A"), dep("C", "A"), dep("B", "A"), dep("D", "B", "C")]))).toEqual(["A", "B", "D"]);
  });

  it("a heavier path wins over a smaller id", () => {
    const p = plan([dep("A"), dep("B", "A"), dep("X"), dep("Y", "X"), dep("Z", "Y")]);
    expect(criticalPath(p)).toEqual(["X", "Y", "Z"]);
  });

  it("the answer does not depend on the order the records were read in", () => {
    const issues = [dep("A"), dep("B", "A"), dep("C", "A"), dep("D", "C"), dep("E", "B"), dep("F")];
    const forward = criticalPath(plan(issues));
    expect(criticalPath(plan([...issues].reverse()))).toEqual(forward);
    expect(forward).toEqual(["A", "B", "E"]);
  });
});

describe("--milestone: the longest path that ends in an issue of the milestone", () => {
  // A (M2) <- B (M1) <- C (M2); D (M1) alone.
  const p = plan([
    makeIssue({ id: "A", milestone: "M2" }),
    makeIssue({ id: "B", milestone: "M1", depends_on: ["A"] }),
    makeIssue({ id: "C", milestone: "M2", depends_on: ["B"] }),
    makeIssue({ id: "D", milestone: "M1" }),
  ]);

  it("may start in another milestone, and stops at the milestone's last issue on the chain", () => {
    expect(deriveCriticalPath(p, { milestone: "M1" })).toMatchObject({ milestone: "M1", total: 2 });
    expect(criticalPath(p, { milestone: "M1" })).toEqual(["A", "B"]);
    expect(criticalPath(p, { milestone: "M2" })).toEqual(["A", "B", "C"]);
    expect(criticalPath(p)).toEqual(["A", "B", "C"]);
  });

  it("a milestone with nothing unfinished has an empty path", () => {
    expect(deriveCriticalPath(p, { milestone: "M3" })).toEqual({ milestone: "M3", path: [], total: 0 });
  });
});

describe("weights: the median cycle time of the issue's milestone, in days", () => {
  it("is the median of the DONE issues' sealed start-to-completion times, the mean of the middle two for an even count", () => {
    const odd = plan([took("H1", "M1", 1), took("H2", "M1", 3), took("H3", "M1", 48)]);
    expect(milestoneWeights(odd).get("M1")).toBe(125); // 3 h = 0.125 day
    const even = plan([took("H1", "M1", 12), took("H2", "M1", 36)]);
    expect(milestoneWeights(even).get("M1")).toBe(1000); // 24 h
  });

  it("a stamp that is not proven is no history", () => {
    // H2's start is not sealed (its DONE status rests only on the sealed completion).
    const unsealedStart = { ...took("H2", "M1", 100), started_event: "" };
    const p = plan([took("H1", "M1", 6), unsealedStart]);
    expect(p.issues.find((i) => i.id === "H2")!.status).toBe("DONE");
    expect(milestoneWeights(p).get("M1")).toBe(250);
  });

  it("a milestone without history weighs one day per issue, and so does a zero median", () => {
    const p = plan([took("H1", "M1", 0), dep("A"), makeIssue({ id: "B", milestone: "M2" })]);
    expect(milestoneWeights(p).has("M2")).toBe(false);
    expect(deriveCriticalPath(p).path.map((s) => s.weight)).toEqual([1]);
    expect(milestoneWeights(p).get("M1")).toBe(1000);
  });

  it("the heaviest chain wins, not the longest, and total is the sum of the weights", () => {
    // M1 issues take 2.4 h (0.1 day); M2 has no history (1 day per issue).
    const p = plan([
      took("H1", "M1", 2.4),
      dep("A"),
      dep("B", "A"),
      dep("C", "B"),
      makeIssue({ id: "X", milestone: "M2" }),
    ]);
    expect(deriveCriticalPath(p)).toEqual({ milestone: null, path: [{ id: "X", title: "Issue X", status: "READY", weight: 1 }], total: 1 });
  });

  it("totals are exact: three steps of 0.1 day tie with one of 0.3, and the tie goes to the smaller id", () => {
    const p = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M3" })],
      [took("H1", "M1", 2.4), took("H3", "M3", 7.2), dep("B"), dep("C", "B"), dep("D", "C"), makeIssue({ id: "A", milestone: "M3" })],
    );
    expect(deriveCriticalPath(p)).toEqual({ milestone: null, path: [{ id: "A", title: "Issue A", status: "READY", weight: 0.3 }], total: 0.3 });
    const q = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M3" })],
      [took("H1", "M1", 2.4), took("H3", "M3", 7.2), dep("B"), dep("C", "B"), dep("D", "C"), makeIssue({ id: "Z", milestone: "M3" })],
    );
    expect(deriveCriticalPath(q)).toMatchObject({ path: [{ id: "B" }, { id: "C" }, { id: "D" }], total: 0.3 });
  });
});
