import { describe, expect, it } from "vitest";
import { derivePlan } from "../plan/derive";
import { doneIssue, makeIssue, makeMilestone, records } from "@/tests/support/records";
import {
  COLUMN_HEADER_HEIGHT,
  COLUMN_WIDTH,
  LANE_GAP,
  LANE_HEADER_HEIGHT,
  ROW_HEIGHT,
  chipKey,
  defaultCollapsedLanes,
  layoutWaveLanes,
  type GraphItem,
  type LaneView,
} from "./lanes";
import { parseWavesView, formatWavesView, type WavesView } from "./view-url";
import { firstViewport, formatViewport, meetsOnScreen, parseViewport, readableZoom } from "./viewport";

// Milestone M0 (listed first) and M1. Wave 0: A (DONE, M1), B (M1), X (CANCELLED, M0), Y (M0).
// Wave 1: C (M1, after A and B), Z (M0, after Y).
const plan = derivePlan(
  records({
    milestones: [makeMilestone({ id: "M0", title: "First" }), makeMilestone({ id: "M1", title: "Second" })],
    issues: [
      doneIssue({ id: "A" }),
      makeIssue({ id: "B" }),
      makeIssue({ id: "C", depends_on: ["A", "B"] }),
      makeIssue({ id: "X", milestone: "M0", cancelled: true }),
      makeIssue({ id: "Y", milestone: "M0" }),
      makeIssue({ id: "Z", milestone: "M0", depends_on: ["Y"] }),
    ],
  }),
);
const all = () => true;
const view = (over: Partial<LaneView> = {}): LaneView => ({ groupByMilestone: true, fold: true, openChips: new Set(), collapsedLanes: new Set(), ...over });
const item = (items: GraphItem[], id: string) => items.find((i) => i.id === id)!;

describe("layoutWaveLanes", () => {
  it("folds the DONE and CANCELLED issues of a cell into one chip with their count, above the rest of the cell", () => {
    const { items, issueIds } = layoutWaveLanes(plan, all, view());
    expect(issueIds.sort()).toEqual(["B", "C", "Y", "Z"]);
    const chip = item(items, `fold:${chipKey("M1", 0)}`);
    expect(chip).toMatchObject({ kind: "chip", ids: ["A"], counts: { DONE: 1 }, isOpen: false });
    expect(item(items, "B").y).toBe(chip.y + ROW_HEIGHT);
    expect(item(items, `fold:${chipKey("M0", 0)}`)).toMatchObject({ ids: ["X"], counts: { CANCELLED: 1 } });
  });
  it("draws the folded issues under their chip when it is open, and pushes the rest of the cell down", () => {
    const { items, issueIds } = layoutWaveLanes(plan, all, view({ openChips: new Set([chipKey("M1", 0)]) }));
    expect(issueIds).toContain("A");
    const chip = item(items, `fold:${chipKey("M1", 0)}`);
    expect(chip).toMatchObject({ isOpen: true });
    expect([item(items, "A").y, item(items, "B").y]).toEqual([chip.y + ROW_HEIGHT, chip.y + 2 * ROW_HEIGHT]);
  });
  it("draws every issue and no chip when folding is off", () => {
    const { items, issueIds } = layoutWaveLanes(plan, all, view({ fold: false }));
    expect(issueIds.sort()).toEqual(["A", "B", "C", "X", "Y", "Z"]);
    expect(items.some((i) => i.kind === "chip")).toBe(false);
  });
  it("puts one lane per milestone under the wave columns, in the plan's milestone order, each as tall as its tallest cell", () => {
    const { items } = layoutWaveLanes(plan, all, view());
    const lanes = items.filter((i) => i.kind === "lane");
    expect(lanes.map((l) => l.id)).toEqual(["lane:M0", "lane:M1"]);
    expect(lanes[0]).toMatchObject({ title: "First", total: 3, counts: { CANCELLED: 1, READY: 1, BLOCKED: 1 }, y: COLUMN_HEADER_HEIGHT });
    // M0: wave 0 holds a chip and Y (two rows), wave 1 holds Z.
    expect(lanes[1].y).toBe(COLUMN_HEADER_HEIGHT + LANE_HEADER_HEIGHT + 2 * ROW_HEIGHT + LANE_GAP);
    expect(item(items, "Z")).toMatchObject({ x: COLUMN_WIDTH, y: COLUMN_HEADER_HEIGHT + LANE_HEADER_HEIGHT });
    expect(items.filter((i) => i.kind === "column").map((c) => c.id)).toEqual(["wave:0", "wave:1"]);
  });
  it("draws a collapsed lane as its header alone, which still counts its issues by status", () => {
    const { items, issueIds } = layoutWaveLanes(plan, all, view({ collapsedLanes: new Set(["M0"]) }));
    expect(issueIds.sort()).toEqual(["B", "C"]);
    expect(item(items, "lane:M0")).toMatchObject({ isCollapsed: true, counts: { CANCELLED: 1, READY: 1, BLOCKED: 1 } });
    expect(item(items, "lane:M1").y).toBe(COLUMN_HEADER_HEIGHT + LANE_HEADER_HEIGHT + LANE_GAP);
  });
  it("without grouping, draws one band ordered by milestone then id, and no lane header", () => {
    const { items, columns } = layoutWaveLanes(plan, all, view({ groupByMilestone: false }));
    expect(items.some((i) => i.kind === "lane")).toBe(false);
    expect(columns[0].ids).toEqual([`fold:${chipKey("", 0)}`, "Y", "B"]);
    expect(item(items, `fold:${chipKey("", 0)}`)).toMatchObject({ ids: ["X", "A"], counts: { CANCELLED: 1, DONE: 1 } });
  });
  it("lists each column's issues and chips from top to bottom, across lanes", () => {
    const { columns } = layoutWaveLanes(plan, all, view());
    expect(columns.map((c) => c.ids)).toEqual([
      [`fold:${chipKey("M0", 0)}`, "Y", `fold:${chipKey("M1", 0)}`, "B"],
      ["Z", "C"],
    ]);
  });
  it("leaves out what the filter excludes, lanes and columns included", () => {
    const { items, issueIds } = layoutWaveLanes(plan, (i) => i.milestone === "M1" && i.status !== "DONE", view());
    expect(issueIds).toEqual(["B", "C"]);
    expect(items.filter((i) => i.kind === "lane").map((l) => l.id)).toEqual(["lane:M1"]);
    expect(items.some((i) => i.kind === "chip")).toBe(false);
  });
  it("is pure and its bounds hold every item", () => {
    const a = layoutWaveLanes(plan, all, view());
    expect(a).toEqual(layoutWaveLanes(plan, all, view()));
    for (const i of a.items) {
      expect(i.x + i.width).toBeLessThanOrEqual(a.bounds.x + a.bounds.width);
      expect(i.y + i.height).toBeLessThanOrEqual(a.bounds.y + a.bounds.height);
    }
  });
});

describe("defaultCollapsedLanes", () => {
  it("collapses every lane but the focus when more issues than the limit would be drawn, and none otherwise", () => {
    expect([...defaultCollapsedLanes(plan, all, "M1", 5)]).toEqual(["M0"]);
    expect(defaultCollapsedLanes(plan, all, "M1", 6).size).toBe(0);
    expect([...defaultCollapsedLanes(plan, all, null, 2)].sort()).toEqual(["M0", "M1"]);
  });
});

describe("firstViewport", () => {
  const pane = { width: 1000, height: 500 };
  const options = { minZoom: 0.9, maxZoom: 1.25, padding: 20 };
  it("fits and centres a graph that fits at a readable zoom, never magnifying past maxZoom", () => {
    const v = firstViewport({ x: 0, y: 0, width: 480, height: 230 }, pane, options);
    expect(v.zoom).toBe(1.25);
    expect([v.x, v.y]).toEqual([500 - 240 * 1.25, 250 - 115 * 1.25]);
    expect(firstViewport({ x: 0, y: 0, width: 960, height: 100 }, pane, options).zoom).toBe(1);
  });
  it("keeps a graph too big to fit at the readable zoom, starting at its top-left corner (the first wave)", () => {
    const v = firstViewport({ x: 0, y: 0, width: 5000, height: 9000 }, pane, options);
    expect(v).toEqual({ x: 20, y: 20, zoom: 0.9 });
  });
  it("centres the anchor (the issue in focus) when the graph does not fit", () => {
    const v = firstViewport({ x: 0, y: 0, width: 5000, height: 9000 }, pane, { ...options, anchor: { x: 1000, y: 2000, width: 200, height: 50 } });
    expect(v).toEqual({ x: 500 - 1100 * 0.9, y: 250 - 2025 * 0.9, zoom: 0.9 });
  });
  it("tells whether a box, drawn at a viewport, meets a rectangle of the screen (the minimap's corner)", () => {
    const corner = { x: 775, y: 325, width: 225, height: 175 };
    const card = { x: 0, y: 0, width: 220, height: 64 };
    expect(meetsOnScreen([card], { x: 20, y: 20, zoom: 1 }, corner)).toBe(false);
    // The same card drawn at 2× from (600, 300) reaches x 1040 and y 428: under the corner.
    expect(meetsOnScreen([card], { x: 600, y: 300, zoom: 2 }, corner)).toBe(true);
    // Touching the corner's edge is not meeting it.
    expect(meetsOnScreen([card], { x: 555, y: 20, zoom: 1 }, corner)).toBe(false);
    expect(meetsOnScreen([], { x: 0, y: 0, zoom: 1 }, corner)).toBe(false);
  });
  it("gives the zoom at which a font is drawn at least 12 px", () => {
    expect(readableZoom(14)).toBe(0.86);
    expect(14 * readableZoom(14)).toBeGreaterThanOrEqual(12);
    expect(readableZoom(12)).toBe(1);
  });
  it("writes a viewport as x,y,zoom and reads it back; refuses anything else", () => {
    expect(formatViewport({ x: 10.4, y: -3.6, zoom: 0.86123 })).toBe("10,-4,0.861");
    expect(parseViewport("10,-4,0.861")).toEqual({ x: 10, y: -4, zoom: 0.861 });
    for (const bad of ["", "1,2", "a,b,c", "1,2,0", "1,2,-1", "1,,1", "1,2,3,4"]) expect(parseViewport(bad)).toBeUndefined();
  });
});

describe("the view in the URL", () => {
  it("reads an empty query as the defaults: the active milestone, every status, lanes, folded, critical path on", () => {
    expect(parseWavesView(new URLSearchParams(""), "M1")).toEqual({
      milestone: "M1",
      statuses: null,
      groupByMilestone: true,
      fold: true,
      open: [],
      collapsed: null,
      critical: true,
      q: "",
      issue: null,
      viewport: null,
    });
    expect(parseWavesView(new URLSearchParams("milestone=all"), "M1").milestone).toBeNull();
    expect(parseWavesView(new URLSearchParams(""), null).milestone).toBeNull();
  });
  it("writes only what differs from the defaults, and reads back what it wrote", () => {
    const v: WavesView = {
      milestone: null,
      statuses: ["READY", "BLOCKED"],
      groupByMilestone: false,
      fold: false,
      open: [chipKey("M1", 0), chipKey("M0", 2)],
      collapsed: [],
      critical: false,
      q: "auth & co",
      issue: "B",
      viewport: { x: 12, y: -40, zoom: 0.9 },
    };
    const query = formatWavesView(v, "M1");
    expect(query).toBe("milestone=all&status=READY%2CBLOCKED&group=none&fold=off&open=M1%7E0%2CM0%7E2&collapsed=&critical=off&q=auth+%26+co&issue=B&v=12%2C-40%2C0.9");
    expect(parseWavesView(new URLSearchParams(query), "M1")).toEqual(v);
    expect(formatWavesView(parseWavesView(new URLSearchParams(""), "M1"), "M1")).toBe("");
  });
});
