import type { Plan, PlanIssue } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import { layoutByWave } from "./layout";

// The waves graph as the page draws it: wave columns, milestone lanes (swimlanes) across them,
// and finished work folded into one chip per cell. Pure: the same plan and view give the same items.

/** Statuses folded into a chip: finished work, kept out of the way of what is left. */
export const FOLDED_STATUSES: ReadonlySet<string> = new Set(["DONE", "CANCELLED"]);

export const COLUMN_WIDTH = 250;
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 64;
export const ROW_HEIGHT = 76;
export const COLUMN_HEADER_HEIGHT = 40;
export const LANE_HEADER_HEIGHT = 44;
export const LANE_GAP = 20;

export type ColumnKey = number | "cycle";

interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type GraphItem =
  | (Placed & { kind: "column"; id: string; column: ColumnKey; label: string })
  | (Placed & { kind: "lane"; id: string; lane: string; title: string; isCollapsed: boolean; total: number; counts: Record<string, number> })
  | (Placed & { kind: "issue"; id: string; lane: string; column: ColumnKey })
  | (Placed & { kind: "chip"; id: string; key: string; lane: string; column: ColumnKey; ids: string[]; counts: Record<string, number>; isOpen: boolean });

export interface LaneView {
  /** One lane per milestone (true), or a single band with no header (false). */
  groupByMilestone: boolean;
  /** Fold DONE and CANCELLED issues into one chip per cell. */
  fold: boolean;
  /** Chips shown open (see chipKey). */
  openChips: ReadonlySet<string>;
  /** Lanes (milestone ids) drawn as their header alone. */
  collapsedLanes: ReadonlySet<string>;
}

export interface LaneLayout {
  items: GraphItem[];
  /** Per column, left to right: the ids of its issues and chips from top to bottom (keyboard moves). */
  columns: { key: ColumnKey; label: string; ids: string[] }[];
  /** The issues drawn as nodes. */
  issueIds: string[];
  /** The box around every item. */
  bounds: { x: number; y: number; width: number; height: number };
}

/** The key of the chip of one cell: its lane (milestone id, "" without lanes) and its column. */
export const chipKey = (lane: string, column: ColumnKey) => `${lane}~${column}`;

function countStatuses(issues: readonly PlanIssue[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const i of issues) counts.set(i.status, (counts.get(i.status) ?? 0) + 1);
  return Object.fromEntries(counts);
}

/** Lane order: the plan's milestone order, then milestone ids the plan does not know, by id. */
export function laneOrder(plan: Pick<Plan, "milestones">, present: Iterable<string>): string[] {
  const wanted = new Set(present);
  const known = plan.milestones.map((m) => m.id).filter((id) => wanted.has(id));
  const seen = new Set(known);
  return [...known, ...[...wanted].filter((id) => !seen.has(id)).sort(compareBytes)];
}

export function laneTitle(plan: Pick<Plan, "milestones">, lane: string): string {
  if (lane === "") return "(no milestone)";
  const m = plan.milestones.find((x) => x.id === lane);
  return m ? m.title || m.id : `${lane} (unknown milestone)`;
}

/**
 * Lay out the issues `include` keeps: one column per wave (layoutByWave), lanes by milestone
 * under the columns, and in each cell a chip for its finished issues first (their issues under
 * it when open), then the rest by id.
 */
export function layoutWaveLanes(
  plan: Pick<Plan, "waves" | "issues" | "milestones">,
  include: (issue: PlanIssue) => boolean,
  view: LaneView,
): LaneLayout {
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const base = layoutByWave(plan, include);
  const width = Math.max(1, base.columns.length) * COLUMN_WIDTH - (COLUMN_WIDTH - NODE_WIDTH);
  const items: GraphItem[] = base.columns.map((c, ci) => ({
    kind: "column",
    id: `wave:${c.key}`,
    column: c.key,
    label: c.label,
    x: ci * COLUMN_WIDTH,
    y: 0,
    width: NODE_WIDTH,
    height: COLUMN_HEADER_HEIGHT - 8,
  }));
  const columns = base.columns.map((c) => ({ key: c.key, label: c.label, ids: [] as string[] }));
  const issueIds: string[] = [];

  const laneOf = (i: PlanIssue) => (view.groupByMilestone ? i.milestone : "");
  const lanes = view.groupByMilestone ? laneOrder(plan, base.columns.flatMap((c) => c.ids.map((id) => byId.get(id)!.milestone))) : [""];
  let top = COLUMN_HEADER_HEIGHT;
  for (const lane of lanes) {
    const isCollapsed = view.groupByMilestone && view.collapsedLanes.has(lane);
    const header = view.groupByMilestone ? LANE_HEADER_HEIGHT : 0;
    if (view.groupByMilestone) {
      const members = base.columns.flatMap((c) => c.ids.map((id) => byId.get(id)!).filter((i) => i.milestone === lane));
      items.push({
        kind: "lane",
        id: `lane:${lane}`,
        lane,
        title: laneTitle(plan, lane),
        isCollapsed,
        total: members.length,
        counts: countStatuses(members),
        x: 0,
        y: top,
        width,
        height: LANE_HEADER_HEIGHT - 8,
      });
    }
    let rows = 0;
    if (!isCollapsed) {
      base.columns.forEach((c, ci) => {
        const cell = c.ids.map((id) => byId.get(id)!).filter((i) => laneOf(i) === lane);
        const folded = view.fold ? cell.filter((i) => FOLDED_STATUSES.has(i.status)) : [];
        const rest = view.fold ? cell.filter((i) => !FOLDED_STATUSES.has(i.status)) : cell;
        let row = 0;
        const place = (y: number) => ({ x: ci * COLUMN_WIDTH, y: top + header + y * ROW_HEIGHT, width: NODE_WIDTH, height: NODE_HEIGHT });
        if (folded.length) {
          const key = chipKey(lane, c.key);
          const isOpen = view.openChips.has(key);
          const id = `fold:${key}`;
          items.push({ kind: "chip", id, key, lane, column: c.key, ids: folded.map((i) => i.id), counts: countStatuses(folded), isOpen, ...place(row++) });
          columns[ci].ids.push(id);
          if (isOpen) for (const i of folded) placeIssue(i, row++);
        }
        for (const i of rest) placeIssue(i, row++);
        rows = Math.max(rows, row);

        function placeIssue(i: PlanIssue, r: number) {
          items.push({ kind: "issue", id: i.id, lane, column: c.key, ...place(r) });
          columns[ci].ids.push(i.id);
          issueIds.push(i.id);
        }
      });
    }
    top += header + rows * ROW_HEIGHT + (view.groupByMilestone ? LANE_GAP : 0);
  }
  const bottom = items.reduce((b, it) => Math.max(b, it.y + it.height), 0);
  return { items, columns, issueIds, bounds: { x: 0, y: 0, width, height: bottom } };
}

/**
 * The lanes a large view starts with collapsed: none while the drawn issues stay within `limit`;
 * otherwise every lane but the focus (so the first view draws one milestone's work).
 */
export function defaultCollapsedLanes(
  plan: Pick<Plan, "issues">,
  include: (issue: PlanIssue) => boolean,
  focus: string | null,
  limit: number,
): Set<string> {
  const lanes = new Set<string>();
  let n = 0;
  for (const i of plan.issues) {
    if (!include(i)) continue;
    n++;
    if (i.milestone !== focus) lanes.add(i.milestone);
  }
  return n > limit ? lanes : new Set();
}
