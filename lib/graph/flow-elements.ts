import type { CodeMark } from "../code/marks";
import type { Plan, PlanIssue } from "../plan/shapes";
import type { ScopePair } from "./conflicts";
import { laneTitle, type LaneLayout } from "./lanes";

// The waves graph's nodes and edges as React Flow draws them, from the lane layout and what is
// selected. Pure: plain objects React Flow takes as they are (lib/ imports no React).

export type Highlight = "selected" | "up" | "down" | "partner" | "dim" | undefined;

export interface IssueNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  status: string;
  conflicts: number;
  highlight: Highlight;
  isCritical: boolean;
  column: number;
  row: number;
  code?: CodeMark;
  /** Its stamps do not count (unsealed): `cockpit plan adopt` may admit them. */
  isUnsealed?: boolean;
}

export interface ChipNodeData extends Record<string, unknown> {
  count: number;
  counts: [string, number][];
  isOpen: boolean;
  column: number;
  row: number;
}

export interface LaneNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  total: number;
  counts: [string, number][];
  isCollapsed: boolean;
}

export interface ColumnNodeData extends Record<string, unknown> {
  label: string;
}

interface NodeBase {
  id: string;
  position: { x: number; y: number };
  width: number;
  height: number;
  ariaLabel: string;
  focusable?: boolean;
  selectable?: boolean;
}

export type FlowNode =
  | (NodeBase & { type: "issue"; data: IssueNodeData })
  | (NodeBase & { type: "chip"; data: ChipNodeData })
  | (NodeBase & { type: "lane"; data: LaneNodeData })
  | (NodeBase & { type: "column"; data: ColumnNodeData });

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  animated?: boolean;
  selected?: boolean;
  selectable?: boolean;
  focusable: boolean;
  ariaLabel?: string;
  className?: string;
  zIndex?: number;
  interactionWidth?: number;
  label?: string;
  labelStyle?: { fontSize: number; fontWeight: number };
  style?: { stroke?: string; strokeWidth?: number; strokeDasharray?: string; opacity?: number };
}

/** The chain of the selected issue: what it waits on (up) and what finishing it unblocks (down). */
export interface Chain {
  up: ReadonlySet<string>;
  down: ReadonlySet<string>;
}

export interface GraphSelection {
  /** The selected issue, or null. */
  issue: string | null;
  chain?: Chain;
  /** The issues sharing a path with the selected one. */
  partners: ReadonlySet<string>;
}

/** Every dependency edge, a new one too, is drawn in one solid colour readable on light and dark. */
export const PLAIN_EDGE = { stroke: "#64748b", strokeWidth: 1.5 } as const;

/** A dependency edge's id names both ends: the dependency (from) and the issue that waits on it (to). */
export const dependencyEdgeId = (dependency: string, dependent: string) => `${dependency}->${dependent}`;

/** The two ends of a dependency edge's id; undefined for a conflict edge or anything else. */
export function dependencyOf(edgeId: string): { dependency: string; dependent: string } | undefined {
  if (edgeId.startsWith("conflict:")) return undefined;
  const at = edgeId.indexOf("->");
  return at > 0 ? { dependency: edgeId.slice(0, at), dependent: edgeId.slice(at + 2) } : undefined;
}

/** How an issue is drawn against the selection: itself, upstream, downstream, a conflict partner, or dimmed. */
export function highlightOf(id: string, selection: GraphSelection): Highlight {
  const { issue, chain, partners } = selection;
  if (!issue) return undefined;
  if (id === issue) return "selected";
  if (chain?.up.has(id)) return "up";
  if (chain?.down.has(id)) return "down";
  if (partners.has(id)) return "partner";
  return "dim";
}

/** Status counts in `order` first, then any status the order does not know. */
export function orderedCounts(counts: Record<string, number>, order: readonly string[]): [string, number][] {
  return order
    .filter((s) => counts[s])
    .map((s) => [s, counts[s]] as [string, number])
    .concat(Object.entries(counts).filter(([s]) => !order.includes(s)));
}

export interface NodeInput {
  plan: Pick<Plan, "milestones">;
  layout: LaneLayout;
  byId: ReadonlyMap<string, PlanIssue>;
  /** Conflict pairs by issue (partnersByIssue). */
  conflicts: ReadonlyMap<string, readonly ScopePair[]>;
  selection: GraphSelection;
  critical: ReadonlySet<string>;
  codeMarks: Readonly<Record<string, CodeMark>>;
  statusOrder: readonly string[];
  /** The issues whose stamps do not count (unsealedIssueIds). */
  unsealed?: ReadonlySet<string>;
}

/** The column and row of each issue and chip, as the keyboard walks them. */
export function placesOf(layout: Pick<LaneLayout, "columns">): Map<string, { column: number; row: number }> {
  const at = new Map<string, { column: number; row: number }>();
  layout.columns.forEach((c, ci) => c.ids.forEach((id, row) => at.set(id, { column: ci, row })));
  return at;
}

/** One node per layout item: column headers, lanes, chips and issues. */
export function toFlowNodes(input: NodeInput): FlowNode[] {
  const { plan, layout, byId, conflicts, selection, critical, codeMarks, statusOrder, unsealed } = input;
  const place = placesOf(layout);
  return layout.items.map((it): FlowNode => {
    const common = { id: it.id, position: { x: it.x, y: it.y }, width: it.width, height: it.height };
    switch (it.kind) {
      case "column":
        return { ...common, type: "column", data: { label: it.label }, focusable: false, selectable: false, ariaLabel: it.label };
      case "lane":
        return {
          ...common,
          type: "lane",
          data: { id: it.lane, title: it.title, total: it.total, counts: orderedCounts(it.counts, statusOrder), isCollapsed: it.isCollapsed },
          ariaLabel: `Milestone lane ${it.title}, ${it.total} issues, ${it.isCollapsed ? "collapsed; press Enter to expand" : "press Enter to collapse"}`,
        };
      case "chip":
        return {
          ...common,
          type: "chip",
          data: { count: it.ids.length, counts: orderedCounts(it.counts, statusOrder), isOpen: it.isOpen, ...place.get(it.id)! },
          ariaLabel: `${it.ids.length} finished issues of ${it.lane ? `${laneTitle(plan, it.lane)}, ` : ""}${it.column === "cycle" ? "the cycle" : `wave ${it.column}`}, ${it.isOpen ? "shown; press Enter to fold" : "folded; press Enter to show"}`,
        };
      case "issue": {
        const issue = byId.get(it.id)!;
        return {
          ...common,
          type: "issue",
          data: {
            id: it.id,
            title: issue.title,
            status: issue.status,
            conflicts: conflicts.get(it.id)?.length ?? 0,
            highlight: highlightOf(it.id, selection),
            isCritical: critical.has(it.id),
            ...place.get(it.id)!,
            code: codeMarks[it.id],
            ...(unsealed?.has(it.id) ? { isUnsealed: true } : {}),
          },
          ariaLabel: `${it.id} ${issue.title}, ${issue.status}, wave ${issue.wave}${critical.has(it.id) ? ", on the critical path" : ""}${unsealed?.has(it.id) ? ", its stamps unsealed" : ""}`,
        };
      }
    }
  });
}

export interface EdgeInput {
  plan: Pick<Plan, "edges">;
  /** The issues drawn as nodes: an edge is drawn when both its ends are. */
  shown: readonly string[];
  selection: GraphSelection;
  conflicts: ReadonlyMap<string, readonly ScopePair[]>;
  /** The critical path in order, and the part of it drawn. */
  criticalPath: readonly string[];
  critical: ReadonlySet<string>;
  /** The dependency edge the person selected, or null. */
  chosenEdge: string | null;
}

/** The dependency edges between drawn issues, and the selected issue's scope conflicts (dashed red). */
export function toFlowEdges(input: EdgeInput): FlowEdge[] {
  const { plan, selection, conflicts, criticalPath, critical, chosenEdge } = input;
  const shown = new Set(input.shown);
  const selected = selection.issue;
  const chain = selection.chain;
  const criticalEdges = new Set<string>();
  for (let k = 1; k < criticalPath.length; k++) if (critical.has(criticalPath[k])) criticalEdges.add(dependencyEdgeId(criticalPath[k - 1], criticalPath[k]));
  const dep = plan.edges
    .filter((e) => shown.has(e.from) && shown.has(e.to))
    .map((e): FlowEdge => {
      const id = dependencyEdgeId(e.from, e.to);
      const lit = !!selected && [e.from, e.to].every((x) => x === selected || chain?.up.has(x) || chain?.down.has(x));
      const onPath = criticalEdges.has(id);
      const isChosen = id === chosenEdge;
      return {
        id,
        source: e.from,
        target: e.to,
        animated: lit,
        selected: isChosen,
        focusable: true,
        ariaLabel: `${e.to} depends on ${e.from}; press Delete to remove the dependency`,
        className: [onPath ? "critical" : "", isChosen ? "chosen" : ""].join(" ").trim() || undefined,
        zIndex: isChosen ? 2 : onPath ? 1 : 0,
        interactionWidth: 16,
        ...(isChosen ? { label: "Delete removes", labelStyle: { fontSize: 13, fontWeight: 600 } } : {}),
        style: isChosen
          ? { stroke: "#c026d3", strokeWidth: 5 }
          : onPath
            ? { stroke: "#7c3aed", strokeWidth: 4, opacity: selected && !lit ? 0.5 : 1 }
            : selected
              ? { ...PLAIN_EDGE, opacity: lit ? 1 : 0.15, strokeWidth: lit ? 2 : 1.5 }
              : PLAIN_EDGE,
      };
    });
  const conflictEdges: FlowEdge[] = selected
    ? (conflicts.get(selected) ?? [])
        .filter((p) => shown.has(p.a) && shown.has(p.b))
        .map((p) => ({
          id: `conflict:${p.a}:${p.b}`,
          source: p.a,
          target: p.b,
          label: p.path,
          selectable: false,
          focusable: false,
          style: { stroke: "#dc2626", strokeDasharray: "6 4" },
        }))
    : [];
  return [...dep, ...conflictEdges];
}
