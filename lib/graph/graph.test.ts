import { describe, expect, it } from "vitest";
import { derivePlan } from "../plan/derive";
import { makeIssue, makeMilestone, records } from "@/tests/support/records";
import { dependencyIndex, downstreamOf, upstreamOf } from "./closure";
import { groupByPath, partnersByIssue, scopePairs } from "./conflicts";
import { toDot, toMermaid } from "./export";
import { COLUMN_WIDTH, ROW_HEIGHT, layoutByWave } from "./layout";

// A <- B <- C, B <- D; E and F form a cycle; G stands alone and shares a path with A (both READY, wave 0).
const plan = derivePlan(
  records({
    milestones: [makeMilestone({ id: "M1" }), makeMilestone({ id: "M0" })],
    issues: [
      makeIssue({ id: "A", scope: ["lib/a"] }),
      makeIssue({ id: "B", depends_on: ["A"], scope: ["lib/shared"] }),
      makeIssue({ id: "C", depends_on: ["B"], scope: ["lib/c"] }),
      makeIssue({ id: "D", depends_on: ["B"], milestone: "M0", scope: ["lib/d"] }),
      makeIssue({ id: "E", depends_on: ["F"], scope: ["x"] }),
      makeIssue({ id: "F", depends_on: ["E"], scope: ["y"] }),
      makeIssue({ id: "G", scope: ["lib/a/g.ts"] }),
    ],
  }),
);

describe("layoutByWave", () => {
  it("puts one column per wave and the issues in a cycle in a column of their own, last", () => {
    const { columns } = layoutByWave(plan);
    expect(columns.map((c) => c.key)).toEqual([0, 1, 2, "cycle"]);
    expect(columns[0].ids).toEqual(["A", "G"]);
    expect(columns[3].ids).toEqual(["E", "F"]);
  });
  it("orders a column by milestone, then id, and positions rows and columns on a grid", () => {
    const { nodes, columns } = layoutByWave(plan);
    expect(columns[2].ids).toEqual(["D", "C"]); // D is in M0, which sorts before M1
    const c = nodes.find((n) => n.id === "C")!;
    expect([c.x, c.y]).toEqual([2 * COLUMN_WIDTH, ROW_HEIGHT]);
  });
  it("leaves out what the filter excludes and drops empty columns", () => {
    const { columns } = layoutByWave(plan, (i) => i.milestone === "M0");
    expect(columns).toEqual([{ key: 2, label: "Wave 2", ids: ["D"] }]);
  });
  it("is pure: the same plan gives the same layout", () => {
    expect(layoutByWave(plan)).toEqual(layoutByWave(plan));
  });
});

describe("closure", () => {
  const index = dependencyIndex(plan.issues);
  it("finds what an issue waits on and what finishing it unblocks, transitively", () => {
    expect([...upstreamOf("C", index)].sort()).toEqual(["A", "B"]);
    expect([...downstreamOf("A", index)].sort()).toEqual(["B", "C", "D"]);
    expect(downstreamOf("G", index).size).toBe(0);
  });
  it("terminates on a cycle and never lists the issue itself", () => {
    expect([...upstreamOf("E", index)]).toEqual(["F"]);
  });
});

describe("conflicts", () => {
  it("reads the pairs behind scope_conflict findings and groups them by path", () => {
    expect(scopePairs(plan.findings)).toEqual([{ a: "A", b: "G", path: "lib/a" }]);
    const group = groupByPath([
      { a: "I1", b: "I2", path: "lib" },
      { a: "I1", b: "I3", path: "lib" },
      { a: "I4", b: "I5", path: "app" },
    ]);
    expect(group.map((g) => [g.path, g.pairs.length])).toEqual([
      ["lib", 2],
      ["app", 1],
    ]);
    expect(partnersByIssue([{ a: "I1", b: "I2", path: "lib" }]).get("I2")).toHaveLength(1);
  });
  it("parses the path and partner out of the finding's message", () => {
    expect(
      scopePairs([{ level: "WARN", code: "scope_conflict", subject: "I1", message: "shares apps/web with I2; they may not run concurrently" }]),
    ).toEqual([{ a: "I1", b: "I2", path: "apps/web" }]);
  });
});

describe("export", () => {
  it("writes Mermaid with one subgraph per wave, a node per issue and an edge per dependency", () => {
    const text = toMermaid(plan);
    expect(text.startsWith("flowchart LR\n")).toBe(true);
    expect(text).toContain('subgraph w0["Wave 0"]');
    expect(text).toContain("n_A --> n_B");
    expect(text).toContain('subgraph w3["In a cycle"]');
    expect(text.match(/-->/g)).toHaveLength(plan.edges.length);
  });
  it("writes DOT with clusters and quoted ids", () => {
    const text = toDot(plan, plan.issues.filter((i) => i.milestone === "M0"));
    expect(text).toContain('"D" [label="D BLOCKED');
    expect(text).not.toContain('"A" ->');
    expect(text.trim().endsWith("}")).toBe(true);
  });
});
