import { describe, expect, it } from "vitest";
import { derivePlan } from "../plan/derive";
import { makeIssue, makeMilestone, records } from "@/tests/support/records";
import { dependencyIndex, downstreamOf, upstreamOf } from "./closure";
import { partnersByIssue, scopePairs } from "./conflicts";
import { dependencyEdgeId, dependencyOf, highlightOf, orderedCounts, toFlowEdges, toFlowNodes, type GraphSelection } from "./flow-elements";
import { layoutWaveLanes } from "./lanes";

// A <- B <- C; G shares a path with A; D is DONE (folded into a chip).
const plan = derivePlan(
  records({
    milestones: [makeMilestone({ id: "M1" })],
    issues: [
      makeIssue({ id: "A", scope: ["lib/a"] }),
      makeIssue({ id: "B", depends_on: ["A"], scope: ["lib/b"] }),
      makeIssue({ id: "C", depends_on: ["B"], scope: ["lib/c"] }),
      makeIssue({ id: "G", scope: ["lib/a/g.ts"] }),
    ],
  }),
);
const byId = new Map(plan.issues.map((i) => [i.id, i]));
const conflicts = partnersByIssue(scopePairs(plan.findings));
const layout = layoutWaveLanes(plan, () => true, { groupByMilestone: true, fold: true, openChips: new Set(), collapsedLanes: new Set() });
const index = dependencyIndex(plan.issues);
const none: GraphSelection = { issue: null, partners: new Set() };
const selectB: GraphSelection = { issue: "B", chain: { up: upstreamOf("B", index), down: downstreamOf("B", index) }, partners: new Set() };
const order = ["DONE", "READY", "BLOCKED"];

describe("toFlowNodes", () => {
  const nodes = toFlowNodes({ plan, layout, byId, conflicts, selection: none, critical: new Set(["A"]), codeMarks: {}, statusOrder: order });
  it("makes one node per layout item, at the item's place and size", () => {
    expect(nodes.map((n) => n.id)).toEqual(layout.items.map((i) => i.id));
    const a = nodes.find((n) => n.id === "A")!;
    const item = layout.items.find((i) => i.id === "A")!;
    expect([a.position.x, a.position.y, a.width, a.height]).toEqual([item.x, item.y, item.width, item.height]);
  });
  it("gives an issue its status, conflict count, critical mark and an aria label naming them", () => {
    const a = nodes.find((n) => n.id === "A")!;
    expect(a.type).toBe("issue");
    if (a.type !== "issue") return;
    expect(a.data).toMatchObject({ id: "A", status: "READY", conflicts: 1, isCritical: true, highlight: undefined });
    expect(a.ariaLabel).toContain("on the critical path");
    const c = nodes.find((n) => n.id === "C")!;
    expect(c.type === "issue" && c.data.isCritical).toBe(false);
  });
  it("makes headers neither focusable nor selectable, and a lane names its issue count", () => {
    const column = nodes.find((n) => n.type === "column")!;
    expect([column.focusable, column.selectable]).toEqual([false, false]);
    const lane = nodes.find((n) => n.type === "lane")!;
    expect(lane.ariaLabel).toMatch(/^Milestone lane .*, 4 issues/);
  });
  it("marks the selection, its chain, and dims the rest", () => {
    const lit = toFlowNodes({ plan, layout, byId, conflicts, selection: selectB, critical: new Set(), codeMarks: {}, statusOrder: order });
    const by = (id: string) => lit.find((n) => n.id === id)!.data.highlight;
    expect([by("A"), by("B"), by("C"), by("G")]).toEqual(["up", "selected", "down", "dim"]);
  });
});

describe("toFlowEdges", () => {
  it("draws a dependency edge between drawn issues only, with an id naming both ends", () => {
    const edges = toFlowEdges({ plan, shown: ["A", "B"], selection: none, conflicts, criticalPath: [], critical: new Set(), chosenEdge: null });
    expect(edges.map((e) => e.id)).toEqual(["A->B"]);
    expect(dependencyOf(edges[0].id)).toEqual({ dependency: "A", dependent: "B" });
  });
  it("draws the selected issue's scope conflicts as dashed red edges that cannot be selected", () => {
    const sel: GraphSelection = { issue: "A", chain: { up: new Set(), down: downstreamOf("A", index) }, partners: new Set(["G"]) };
    const edges = toFlowEdges({ plan, shown: ["A", "B", "C", "G"], selection: sel, conflicts, criticalPath: [], critical: new Set(), chosenEdge: null });
    const conflict = edges.find((e) => e.id.startsWith("conflict:"))!;
    expect(conflict).toMatchObject({ source: "A", target: "G", label: "lib/a", selectable: false, focusable: false });
    expect(conflict.style?.strokeDasharray).toBe("6 4");
    expect(dependencyOf(conflict.id)).toBeUndefined();
  });
  it("draws the critical path thick and violet, and the chosen edge above it", () => {
    const edges = toFlowEdges({
      plan,
      shown: ["A", "B", "C"],
      selection: none,
      conflicts,
      criticalPath: ["A", "B", "C"],
      critical: new Set(["A", "B", "C"]),
      chosenEdge: dependencyEdgeId("B", "C"),
    });
    const ab = edges.find((e) => e.id === "A->B")!;
    const bc = edges.find((e) => e.id === "B->C")!;
    expect(ab.className).toBe("critical");
    expect(ab.style?.stroke).toBe("#7c3aed");
    expect(bc.selected).toBe(true);
    expect(bc.zIndex).toBeGreaterThan(ab.zIndex!);
  });
  it("lights the selection's chain and fades the other edges", () => {
    const edges = toFlowEdges({ plan, shown: ["A", "B", "C"], selection: selectB, conflicts, criticalPath: [], critical: new Set(), chosenEdge: null });
    expect(edges.every((e) => e.animated)).toBe(true);
    const onlyC: GraphSelection = { issue: "C", chain: { up: new Set(["B"]), down: new Set() }, partners: new Set() };
    const faded = toFlowEdges({ plan, shown: ["A", "B", "C"], selection: onlyC, conflicts, criticalPath: [], critical: new Set(), chosenEdge: null });
    expect(faded.find((e) => e.id === "A->B")!.style?.opacity).toBe(0.15);
  });
});

describe("helpers", () => {
  it("highlights nothing without a selection", () => {
    expect(highlightOf("A", none)).toBeUndefined();
  });
  it("orders counts by the status order, unknown statuses last", () => {
    expect(orderedCounts({ BLOCKED: 1, ODD: 2, DONE: 3 }, order)).toEqual([
      ["DONE", 3],
      ["BLOCKED", 1],
      ["ODD", 2],
    ]);
  });
});
