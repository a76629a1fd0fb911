"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type FinalConnectionState,
  type Node,
  type NodeProps,
  type Viewport,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import Link from "@/components/Link";
import { useRouter, useSearchParams } from "next/navigation";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { dependencyIndex, downstreamOf, upstreamOf } from "@/lib/graph/closure";
import { criticalPath } from "@/lib/graph/critical-path";
import { groupByPath, partnersByIssue, scopePairs } from "@/lib/graph/conflicts";
import { CodeMarkBadge, CodeMarkLegend } from "./waves/CodeMark";
import type { CodeMark } from "@/lib/code/marks";
import { STATUS_COLOURS, toDot, toMermaid } from "@/lib/graph/export";
import {
  FOLDED_STATUSES,
  chipKey,
  defaultCollapsedLanes,
  laneOrder,
  laneTitle,
  layoutWaveLanes,
  type GraphItem,
} from "@/lib/graph/lanes";
import { formatWavesView, parseWavesView, type WavesView } from "@/lib/graph/view-url";
import { firstViewport, readableZoom, sameViewport } from "@/lib/graph/viewport";
import type { Plan, PlanIssue } from "@/lib/plan/shapes";
import { EditReview } from "./EditReview";
import { ISSUE_STATUS_ORDER, ISSUE_STATUS_STYLE } from "./status";
import { useEditFlow, useTabUndo } from "./useEditFlow";
import { FIT_ALL, GRAPH_VIEW, GraphChrome } from "./graph-chrome";
import { panByKey, zoomByKey } from "./graph-keys";
import { useSystemColorMode } from "./useSystemColorMode";

/** A view that would draw more issues than this starts with every lane but the focus collapsed. */
export const COLLAPSE_ABOVE = 1000;
/** Beyond this many nodes only those in view are put in the page. */
const DRAW_VISIBLE_ABOVE = 600;
/** The smallest text inside a node, in CSS pixels (titles and badges; ids are 14 px). */
const SMALLEST_NODE_FONT_PX = 13;
/** The first view never zooms out further: every node's text is at least 12 px on screen. */
export const FIRST_VIEW_MIN_ZOOM = readableZoom(SMALLEST_NODE_FONT_PX);

type Highlight = "selected" | "up" | "down" | "partner" | "dim" | undefined;

interface IssueNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  status: string;
  conflicts: number;
  highlight: Highlight;
  isCritical: boolean;
  column: number;
  row: number;
  code?: CodeMark;
}

interface ChipNodeData extends Record<string, unknown> {
  count: number;
  counts: [string, number][];
  isOpen: boolean;
  column: number;
  row: number;
}

interface LaneNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  total: number;
  counts: [string, number][];
  isCollapsed: boolean;
}

interface ColumnNodeData extends Record<string, unknown> {
  label: string;
}

const HIGHLIGHT_CLASS: Record<NonNullable<Highlight>, string> = {
  selected: "ring-4 ring-fuchsia-500",
  up: "ring-2 ring-sky-500",
  down: "ring-2 ring-orange-500",
  partner: "ring-2 ring-red-500 ring-dashed",
  // De-emphasised by colour, not by opacity: the text keeps its contrast and stays readable.
  dim: "!border-slate-200 !bg-slate-100 grayscale dark:!border-slate-800 dark:!bg-slate-900",
};

/** Larger than React Flow's 6 px, with a ring, so the handle a dependency is dragged from is seen. */
const HANDLE_CLASS = "!h-3 !w-3 !border-2 !border-white !bg-slate-600 dark:!border-slate-900 dark:!bg-slate-300";

/** A dependency edge's id names both ends: the dependency (from) and the issue that waits on it (to). */
const dependencyOf = (edgeId: string): { dependency: string; dependent: string } | undefined => {
  if (edgeId.startsWith("conflict:")) return undefined;
  const at = edgeId.indexOf("->");
  return at > 0 ? { dependency: edgeId.slice(0, at), dependent: edgeId.slice(at + 2) } : undefined;
};

const IssueNode = memo(function IssueNode({ data }: NodeProps<Node<IssueNodeData>>) {
  const style = ISSUE_STATUS_STYLE[data.status];
  return (
    <div
      className={`relative box-border flex h-[64px] w-[220px] flex-col justify-center gap-0.5 rounded-md border-l-[6px] border border-slate-300 bg-white px-2 text-left shadow-sm dark:border-slate-600 dark:bg-slate-900 ${style?.ring ?? ""} ${data.highlight ? HIGHLIGHT_CLASS[data.highlight] : ""} ${data.isCritical ? "outline outline-[3px] outline-offset-2 outline-violet-600 dark:outline-violet-400" : ""}`}
      data-status={data.status}
      data-highlight={data.highlight ?? ""}
      data-critical={data.isCritical ? "true" : undefined}
      data-column={data.column}
      data-row={data.row}
    >
      {/* Arrows run from a dependency to what waits on it: a drag starts on the right and ends on the left. */}
      <Handle type="target" position={Position.Left} isConnectableStart={false} className={HANDLE_CLASS} title={`Drop here: ${data.id} waits on the issue dragged from`} />
      <div className="flex items-center gap-1 leading-4">
        <span className="font-mono text-[14px] font-semibold" data-text="id">
          {data.id}
        </span>
        <span className={`rounded px-1 text-[13px] font-semibold ${style?.badge ?? ""}`}>{data.status}</span>
        <CodeMarkBadge mark={data.code} />
        {data.conflicts > 0 && (
          <span className="ml-auto rounded-full bg-red-700 px-1.5 text-[13px] font-semibold text-white" title={`${data.conflicts} scope conflict(s)`} data-testid="conflict-badge">
            {data.conflicts}
          </span>
        )}
      </div>
      <div className="line-clamp-2 text-[13px] leading-4 text-slate-700 dark:text-slate-300" title={data.title} data-text="title">
        {data.title}
      </div>
      <Handle type="source" position={Position.Right} isConnectableEnd={false} className={HANDLE_CLASS} title={`Drag to an issue that should wait on ${data.id}`} />
    </div>
  );
});

const ChipNode = memo(function ChipNode({ data }: NodeProps<Node<ChipNodeData>>) {
  return (
    <div
      className="box-border flex h-[64px] w-[220px] flex-col justify-center rounded-md border-2 border-dashed border-slate-400 bg-slate-100 px-2 text-left text-[13px] text-slate-800 dark:border-slate-500 dark:bg-slate-800 dark:text-slate-100"
      data-testid="fold-chip"
      data-open={data.isOpen ? "true" : "false"}
      data-column={data.column}
      data-row={data.row}
    >
      <div className="text-[14px] font-semibold" data-text="title">
        {data.isOpen ? "▾" : "▸"} {data.count} finished
      </div>
      <div data-testid="fold-counts">{data.counts.map(([s, n]) => `${s} ${n}`).join(" · ")}</div>
    </div>
  );
});

const LaneNode = memo(function LaneNode({ data, width }: NodeProps<Node<LaneNodeData>>) {
  return (
    <div
      className="box-border flex h-[36px] items-center gap-3 rounded-md border border-indigo-300 bg-indigo-50 px-3 text-[14px] text-slate-900 dark:border-indigo-800 dark:bg-indigo-950 dark:text-slate-100"
      style={{ width }}
      data-testid="lane"
      data-lane={data.id}
      data-collapsed={data.isCollapsed ? "true" : "false"}
    >
      <span className="font-semibold" data-text="title">
        {data.isCollapsed ? "▸" : "▾"} {data.title}
      </span>
      <span className="font-mono text-[13px] text-slate-700 dark:text-slate-300">{data.id}</span>
      <span className="text-[13px]" data-testid="lane-counts">
        {data.total} issues{data.counts.length > 0 && " · "}
        {data.counts.map(([s, n]) => `${s} ${n}`).join(" · ")}
      </span>
    </div>
  );
});

const ColumnNode = memo(function ColumnNode({ data }: NodeProps<Node<ColumnNodeData>>) {
  return (
    <div className="w-[220px] border-b-2 border-slate-300 pb-1 text-[14px] font-semibold text-slate-800 dark:border-slate-600 dark:text-slate-200" data-text="title">
      {data.label}
    </div>
  );
});

// At module scope: React Flow re-creates every node when this object changes.
const nodeTypes = { issue: IssueNode, chip: ChipNode, lane: LaneNode, column: ColumnNode };

const minimapColour = (n: Node) =>
  n.type === "issue" ? STATUS_COLOURS[(n.data as IssueNodeData).status] ?? "#94a3b8" : n.type === "lane" ? "#818cf8" : n.type === "chip" ? "#cbd5e1" : "transparent";

async function fetchPlan(): Promise<Plan> {
  const res = await fetch("/api/v1/plan", { cache: "no-store" });
  if (!res.ok) throw new Error(`the plan could not be read (${res.status})`);
  return (await res.json()) as Plan;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

const orderedCounts = (counts: Record<string, number>): [string, number][] =>
  ISSUE_STATUS_ORDER.filter((s) => counts[s]).map((s) => [s, counts[s]] as [string, number]).concat(
    Object.entries(counts).filter(([s]) => !(ISSUE_STATUS_ORDER as readonly string[]).includes(s)),
  );


/** The view the address names; a link to a column of the list (`#cycle`) without a milestone means all. */
function viewFromLocation(active: string | null): WavesView {
  const params = new URLSearchParams(window.location.search);
  const view = parseWavesView(params, active);
  return window.location.hash.length > 1 && !params.has("milestone") ? { ...view, milestone: null } : view;
}

const NO_CODE_MARKS: Record<string, CodeMark> = {};

export function WavesGraph({ initialPlan, codeMarks = NO_CODE_MARKS }: { initialPlan: Plan; codeMarks?: Record<string, CodeMark> }) {
  return (
    <ReactFlowProvider>
      <WavesView initialPlan={initialPlan} codeMarks={codeMarks} />
    </ReactFlowProvider>
  );
}

function WavesView({ initialPlan, codeMarks }: { initialPlan: Plan; codeMarks: Record<string, CodeMark> }) {
  const { data: plan = initialPlan } = useQuery({ queryKey: ["plan"], queryFn: fetchPlan, initialData: initialPlan });
  const router = useRouter();
  const flow = useReactFlow();
  const colorMode = useSystemColorMode();
  const params = useSearchParams();
  const searchRef = useRef<HTMLInputElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);
  const [display, setDisplay] = useState<"graph" | "list">("graph");
  const [isReady, setReady] = useState(false);

  // Editing dependencies: a drag adds one, Delete on a selected edge removes one; both go through
  // the editor's preview-then-confirm flow and share the tab's one undo.
  const queryClient = useQueryClient();
  const refreshAfterEdit = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ["plan"] });
    router.refresh();
  }, [queryClient, router]);
  const edit = useEditFlow(refreshAfterEdit);
  const undo = useTabUndo();
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const [intent, setIntent] = useState<{ title: string; sentence: string } | null>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  const active = plan.project.active_milestone || null;
  // The view is the URL's: read once, then kept in state (so a control answers at once) and
  // written back on every change; back and forward read it again.
  const [view, setView] = useState<WavesView>(() => parseWavesView(new URLSearchParams(params.toString()), active));
  const viewRef = useRef(view);
  /** Set when the page navigates away: a late write of the view would fight the navigation. */
  const isLeaving = useRef(false);
  useEffect(() => {
    const onPop = () => {
      viewRef.current = viewFromLocation(active);
      setView(viewRef.current);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [active]);

  // A link to a column of the list (`/waves#cycle`, `#wave-3`) names no milestone: it means the
  // whole plan. Known only in the browser, so applied after hydration.
  useEffect(() => {
    const next = viewFromLocation(active);
    if (next.milestone === viewRef.current.milestone) return;
    viewRef.current = next;
    setView(next);
    requestAnimationFrame(() => document.getElementById(window.location.hash.slice(1))?.scrollIntoView());
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Move to another view: a new history entry, or (for the viewport and typing) the same one. */
  const go = useCallback(
    (patch: Partial<WavesView>, how: "push" | "replace" = "push") => {
      if (isLeaving.current) return;
      const next = { ...viewRef.current, ...patch };
      viewRef.current = next;
      setView(next);
      const query = formatWavesView(next, active);
      const url = `${window.location.pathname}${query ? `?${query}` : ""}${window.location.hash}`;
      if (url === `${window.location.pathname}${window.location.search}${window.location.hash}`) return;
      if (how === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [active],
  );

  const byId = useMemo(() => new Map(plan.issues.map((i) => [i.id, i])), [plan]);
  const index = useMemo(() => dependencyIndex(plan.issues), [plan]);
  const pairs = useMemo(() => scopePairs(plan.findings), [plan]);
  const partners = useMemo(() => partnersByIssue(pairs), [pairs]);
  const statusKey = view.statuses?.join(",") ?? "";
  const include = useCallback(
    (i: PlanIssue) => (view.milestone === null || i.milestone === view.milestone) && (view.statuses === null || view.statuses.includes(i.status)),
    // statusKey stands for view.statuses, which is a new array on every URL change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [view.milestone, statusKey],
  );
  const visibleIssues = useMemo(() => plan.issues.filter(include), [plan, include]);
  const collapsedKey = view.collapsed?.join(",") ?? null;
  const collapsedLanes = useMemo(
    () => (collapsedKey !== null ? new Set(view.collapsed) : defaultCollapsedLanes(plan, include, view.milestone ?? active, COLLAPSE_ABOVE)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [collapsedKey, plan, include, view.milestone, active],
  );
  const openKey = view.open.join(",");
  const layout = useMemo(
    () =>
      layoutWaveLanes(plan, include, {
        groupByMilestone: view.groupByMilestone,
        fold: view.fold,
        openChips: new Set(openKey ? openKey.split(",") : []),
        collapsedLanes,
      }),
    [plan, include, view.groupByMilestone, view.fold, openKey, collapsedLanes],
  );
  const itemById = useMemo(() => new Map(layout.items.map((i) => [i.id, i])), [layout]);
  const waveOf = useMemo(() => new Map(plan.waves.flatMap((w) => w.issues.map((id) => [id, w.wave] as const))), [plan]);

  const selected = view.issue && byId.has(view.issue) ? view.issue : null;
  const chain = useMemo(() => (selected ? { up: upstreamOf(selected, index), down: downstreamOf(selected, index) } : undefined), [selected, index]);
  const selectedPartners = useMemo(
    () => new Set((selected ? partners.get(selected) ?? [] : []).map((p) => (p.a === selected ? p.b : p.a))),
    [selected, partners],
  );
  // The same answer as plan.critical_path for the milestone in focus (the whole plan for all).
  const critical = useMemo(() => criticalPath(plan, view.milestone === null ? {} : { milestone: view.milestone }), [plan, view.milestone]);
  const showCritical = view.critical && critical.length > 0;
  const criticalSet = useMemo(() => new Set(showCritical ? critical : []), [critical, showCritical]);

  const highlightOf = useCallback(
    (id: string): Highlight => {
      if (!selected) return undefined;
      if (id === selected) return "selected";
      if (chain?.up.has(id)) return "up";
      if (chain?.down.has(id)) return "down";
      if (selectedPartners.has(id)) return "partner";
      return "dim";
    },
    [selected, chain, selectedPartners],
  );

  const place = useMemo(() => {
    const at = new Map<string, { column: number; row: number }>();
    layout.columns.forEach((c, ci) => c.ids.forEach((id, row) => at.set(id, { column: ci, row })));
    return at;
  }, [layout]);

  const nodes = useMemo<Node[]>(
    () =>
      layout.items.map((it: GraphItem): Node => {
        const common = { id: it.id, position: { x: it.x, y: it.y }, width: it.width, height: it.height };
        switch (it.kind) {
          case "column":
            return { ...common, type: "column", data: { label: it.label }, focusable: false, selectable: false, ariaLabel: it.label } satisfies Node<ColumnNodeData>;
          case "lane":
            return {
              ...common,
              type: "lane",
              data: { id: it.lane, title: it.title, total: it.total, counts: orderedCounts(it.counts), isCollapsed: it.isCollapsed },
              ariaLabel: `Milestone lane ${it.title}, ${it.total} issues, ${it.isCollapsed ? "collapsed; press Enter to expand" : "press Enter to collapse"}`,
            } satisfies Node<LaneNodeData>;
          case "chip":
            return {
              ...common,
              type: "chip",
              data: { count: it.ids.length, counts: orderedCounts(it.counts), isOpen: it.isOpen, ...place.get(it.id)! },
              ariaLabel: `${it.ids.length} finished issues of ${it.lane ? `${laneTitle(plan, it.lane)}, ` : ""}${it.column === "cycle" ? "the cycle" : `wave ${it.column}`}, ${it.isOpen ? "shown; press Enter to fold" : "folded; press Enter to show"}`,
            } satisfies Node<ChipNodeData>;
          case "issue": {
            const issue = byId.get(it.id)!;
            return {
              ...common,
              type: "issue",
              data: {
                id: it.id,
                title: issue.title,
                status: issue.status,
                conflicts: partners.get(it.id)?.length ?? 0,
                highlight: highlightOf(it.id),
                isCritical: criticalSet.has(it.id),
                ...place.get(it.id)!,
                code: codeMarks[it.id],
              },
              ariaLabel: `${it.id} ${issue.title}, ${issue.status}, wave ${issue.wave}${criticalSet.has(it.id) ? ", on the critical path" : ""}`,
            } satisfies Node<IssueNodeData>;
          }
        }
      }),
    [layout, plan, byId, partners, highlightOf, criticalSet, place, codeMarks],
  );

  const edges = useMemo<Edge[]>(() => {
    const shown = new Set(layout.issueIds);
    const criticalEdges = new Set<string>();
    for (let k = 1; k < critical.length; k++) if (criticalSet.has(critical[k])) criticalEdges.add(`${critical[k - 1]}->${critical[k]}`);
    const dep: Edge[] = plan.edges
      .filter((e) => shown.has(e.from) && shown.has(e.to))
      .map((e) => {
        const id = `${e.from}->${e.to}`;
        const lit = selected && [e.from, e.to].every((x) => x === selected || chain?.up.has(x) || chain?.down.has(x));
        const onPath = criticalEdges.has(id);
        const isChosen = id === selectedEdge;
        return {
          id,
          source: e.from,
          target: e.to,
          animated: !!lit,
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
                ? { opacity: lit ? 1 : 0.15, strokeWidth: lit ? 2 : 1 }
                : undefined,
        };
      });
    const conflictEdges: Edge[] = selected
      ? (partners.get(selected) ?? [])
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
  }, [plan, layout, selected, chain, partners, critical, criticalSet, selectedEdge]);

  // The first view of a scope: everything if it fits at a readable zoom, else readable text from
  // the first wave (or the selected issue). A viewport in the URL wins (a shared link, back/forward).
  const scopeKey = `${view.milestone}|${statusKey}|${view.groupByMilestone}|${view.fold}`;
  const urlViewport = view.viewport;
  const urlViewportKey = urlViewport ? `${urlViewport.x},${urlViewport.y},${urlViewport.zoom}` : "";
  const pendingFocus = useRef<string | null>(null);
  /** The first view this page placed by itself: not a move of the reader's, so not written into the URL. */
  const autoViewport = useRef<Viewport | null>(null);
  const open = useCallback(
    (id: string) => {
      isLeaving.current = true;
      router.push(`/issues/${encodeURIComponent(id)}`);
    },
    [router],
  );
  const firstView = useCallback((): Viewport => {
    const pane = paneRef.current;
    const anchor = selected ? itemById.get(selected) : undefined;
    return firstViewport(layout.bounds, { width: pane?.clientWidth ?? 1000, height: pane?.clientHeight ?? 560 }, {
      minZoom: FIRST_VIEW_MIN_ZOOM,
      maxZoom: 1.25,
      padding: 24,
      anchor,
    });
    // Only a new scope (or a new viewport in the URL) moves the graph; a new layout within it does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scopeKey, selected, layout.bounds]);
  useEffect(() => {
    const target = urlViewport ?? firstView();
    autoViewport.current = urlViewport ? null : target;
    if (!sameViewport(target, flow.getViewport())) void flow.setViewport(target);
    setReady(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scopeKey, urlViewportKey]);

  const focusNode = useCallback(
    (id: string) => {
      const it = itemById.get(id);
      if (!it) return;
      void flow.setCenter(it.x + it.width / 2, it.y + it.height / 2, { zoom: Math.max(flow.getZoom(), 1), duration: 250 });
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.focus());
    },
    [itemById, flow],
  );
  // After a search or a conflict link changed the scope, focus the issue once it is laid out.
  useEffect(() => {
    const id = pendingFocus.current;
    if (id && itemById.has(id)) {
      pendingFocus.current = null;
      focusNode(id);
    }
  }, [itemById, focusNode]);

  const select = useCallback((id: string | null, how: "push" | "replace" = "push") => go({ issue: id }, how), [go]);
  const toggleChip = useCallback(
    (id: string) => {
      const it = itemById.get(id);
      if (it?.kind !== "chip") return;
      go({ open: it.isOpen ? view.open.filter((k) => k !== it.key) : [...view.open, it.key] });
    },
    [itemById, go, view.open],
  );
  const toggleLane = useCallback(
    (lane: string) => go({ collapsed: collapsedLanes.has(lane) ? [...collapsedLanes].filter((l) => l !== lane) : [...collapsedLanes, lane] }),
    [collapsedLanes, go],
  );

  /** Show an issue wherever it is: widen the scope, unfold its chip, expand its lane; select and focus it. */
  const openIssue = (issue: PlanIssue) => {
    const patch: Partial<WavesView> = { issue: issue.id, q: "" };
    if (!include(issue)) {
      patch.milestone = issue.milestone;
      patch.statuses = null;
      patch.viewport = null;
    }
    const lane = view.groupByMilestone ? issue.milestone : "";
    if (view.groupByMilestone && collapsedLanes.has(lane)) patch.collapsed = [...collapsedLanes].filter((l) => l !== lane);
    if (view.fold && FOLDED_STATUSES.has(issue.status)) {
      const key = chipKey(lane, waveOf.get(issue.id) ?? "cycle");
      if (!view.open.includes(key)) patch.open = [...view.open, key];
    }
    pendingFocus.current = issue.id;
    go(patch);
    if (itemById.has(issue.id)) {
      pendingFocus.current = null;
      focusNode(issue.id);
    }
  };

  // `/` searches, from anywhere on the page.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key === "/" && !(t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable))) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const neighbour = useCallback(
    (id: string, key: string): string | undefined => {
      const at = place.get(id);
      if (!at) return undefined;
      const col = layout.columns[at.column];
      if (key === "ArrowUp") return col.ids[at.row - 1];
      if (key === "ArrowDown") return col.ids[at.row + 1];
      const other = layout.columns[at.column + (key === "ArrowRight" ? 1 : -1)];
      return other ? other.ids[Math.min(at.row, other.ids.length - 1)] : undefined;
    },
    [layout, place],
  );

  const titled = (id: string) => `${id} ${byId.get(id)?.title ?? ""}`.trim();

  /** Propose "dependent depends on dependency": previewed, written only on Confirm. */
  const proposeDependency = (dependency: string, dependent: string) => {
    if (dependency === dependent || !byId.has(dependency) || !byId.has(dependent)) return;
    setIntent({ title: "Add a dependency", sentence: `${titled(dependent)} will wait on ${titled(dependency)} (the arrow ${dependency} → ${dependent}).` });
    edit.preview({
      id: dependent,
      input: { add: { depends_on: [dependency] } },
      label: `add depends_on ${dependency}`,
      undo: { id: dependent, input: { remove: { depends_on: [dependency] } }, label: `undo of add depends_on ${dependency}` },
    });
  };

  /** Propose removing the dependency an edge draws: previewed, written only on Confirm. */
  const proposeRemoval = (edgeId: string) => {
    const d = dependencyOf(edgeId);
    if (!d) return;
    setIntent({ title: "Remove a dependency", sentence: `${titled(d.dependent)} will no longer wait on ${titled(d.dependency)} (the arrow ${d.dependency} → ${d.dependent}).` });
    edit.preview({
      id: d.dependent,
      input: { remove: { depends_on: [d.dependency] } },
      label: `remove depends_on ${d.dependency}`,
      undo: { id: d.dependent, input: { add: { depends_on: [d.dependency] } }, label: `undo of remove depends_on ${d.dependency}` },
    });
  };

  const proposeUndo = () => {
    if (!undo) return;
    setIntent({ title: "Undo the last edit", sentence: `${undo.label} on ${titled(undo.id)}.` });
    edit.preview({ id: undo.id, input: undo.input, label: undo.label, undoes: undo.ledger_id });
  };

  const closeDialog = () => {
    edit.dismiss();
    setIntent(null);
  };

  // A drag ends on a handle (onConnect), or anywhere on an issue's card (onConnectEnd).
  const onConnect = (c: Connection) => proposeDependency(c.source, c.target);
  const onConnectEnd = (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || !state.fromNode || state.fromHandle?.type !== "source") return;
    const point = "changedTouches" in event ? event.changedTouches[0] : event;
    const card = document.elementFromPoint(point.clientX, point.clientY)?.closest<HTMLElement>(".react-flow__node-issue");
    const to = state.toNode?.id ?? card?.dataset.id;
    if (to) proposeDependency(state.fromNode.id, to);
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    for (const c of changes) if (c.type === "select" && c.selected && dependencyOf(c.id)) setSelectedEdge(c.id);
  };

  // The dialog takes the focus when a preview opens; Escape cancels it.
  const previewShown = edit.pending?.preview;
  useEffect(() => {
    if (previewShown && !previewShown.written) dialogRef.current?.focus();
  }, [previewShown]);
  // An edge the plan no longer has is no longer selected.
  useEffect(() => {
    if (selectedEdge && !plan.edges.some((e) => `${e.from}->${e.to}` === selectedEdge)) setSelectedEdge(null);
  }, [plan, selectedEdge]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    // Delete (or Backspace) on a focused or selected dependency edge proposes removing it.
    if (e.key === "Delete" || e.key === "Backspace") {
      const focused = (e.target as Element).closest<HTMLElement>(".react-flow__edge")?.dataset.id;
      const target = focused && dependencyOf(focused) ? focused : selectedEdge;
      if (target) {
        e.preventDefault();
        setSelectedEdge(target);
        proposeRemoval(target);
        return;
      }
    }
    // + and - zoom wherever the graph has focus; the arrow keys pan it, or move between nodes.
    if (zoomByKey(flow, e)) return;
    const el = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node");
    const id = el?.dataset.id;
    if (!id) {
      panByKey(flow, e);
      return;
    }
    if (id.startsWith("lane:") || id.startsWith("fold:")) {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (id.startsWith("lane:")) toggleLane(id.slice("lane:".length));
        else toggleChip(id);
        return;
      }
    } else if (e.key === "Enter") {
      e.preventDefault();
      open(id);
      return;
    } else if (e.key === " ") {
      e.preventDefault();
      select(selected === id ? null : id);
      return;
    } else if (e.key === "Escape") {
      select(null);
      return;
    }
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      const next = neighbour(id, e.key);
      if (next) {
        // Walking the graph selects as it goes; one history entry for the walk, not one per step.
        if (!next.startsWith("fold:")) select(next, "replace");
        focusNode(next);
      }
    }
  };

  const matches = useMemo(() => {
    const q = view.q.trim().toLowerCase();
    if (!q) return [];
    return plan.issues.filter((i) => i.id.toLowerCase().includes(q) || i.title.toLowerCase().includes(q)).slice(0, 8);
  }, [view.q, plan]);

  const groups = useMemo(() => groupByPath(pairs), [pairs]);
  const milestoneIds = useMemo(() => laneOrder(plan, plan.issues.map((i) => i.milestone)), [plan]);
  const shownStatuses = view.statuses ?? [...ISSUE_STATUS_ORDER];
  const isBig = layout.items.length > DRAW_VISIBLE_ABOVE;
  const button = "rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800";

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600 dark:text-slate-400">Milestone</span>
          <select
            value={view.milestone ?? ""}
            onChange={(e) => go({ milestone: e.target.value === "" ? null : e.target.value, viewport: null, issue: null, open: [], collapsed: null })}
            className="max-w-64 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
            data-testid="milestone-filter"
          >
            <option value="">All milestones</option>
            {milestoneIds.map((m) => (
              <option key={m} value={m}>
                {laneTitle(plan, m)}
                {m === active ? " (active)" : ""}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className={button}
          onClick={() => go({ milestone: view.milestone === null ? active : null, viewport: null, issue: null, open: [], collapsed: null })}
          data-testid="scope-toggle"
          disabled={view.milestone === null && active === null}
        >
          {view.milestone === null ? "Active milestone only" : "All milestones"}
        </button>
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="text-xs text-slate-600 dark:text-slate-400">Status</legend>
          {ISSUE_STATUS_ORDER.map((s) => (
            <label key={s} className="flex items-center gap-1 text-xs">
              <input
                type="checkbox"
                checked={shownStatuses.includes(s)}
                onChange={() => {
                  const next = shownStatuses.includes(s) ? shownStatuses.filter((x) => x !== s) : [...shownStatuses, s];
                  go({ statuses: next.length === ISSUE_STATUS_ORDER.length ? null : ISSUE_STATUS_ORDER.filter((x) => next.includes(x)), viewport: null });
                }}
              />
              <span className={`inline-block h-3 w-3 rounded-sm ${ISSUE_STATUS_STYLE[s].bar}`} aria-hidden />
              {s}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex items-center gap-3 text-xs">
          <legend className="text-xs text-slate-600 dark:text-slate-400">Show</legend>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={view.groupByMilestone} onChange={() => go({ groupByMilestone: !view.groupByMilestone, viewport: null, collapsed: null, open: [] })} data-testid="group-toggle" />
            lanes by milestone
          </label>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={view.fold} onChange={() => go({ fold: !view.fold, viewport: null, open: [] })} data-testid="fold-toggle" />
            fold finished work
          </label>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={view.critical} onChange={() => go({ critical: !view.critical })} data-testid="critical-toggle" />
            critical path
          </label>
        </fieldset>
        <div className="relative">
          <label className="flex flex-col gap-1">
            <span className="text-xs text-slate-600 dark:text-slate-400">Search (press /)</span>
            <input
              ref={searchRef}
              type="search"
              value={view.q}
              onChange={(e) => go({ q: e.target.value }, "replace")}
              onKeyDown={(e) => {
                if (e.key === "Enter" && matches[0]) openIssue(matches[0]);
                if (e.key === "Escape") go({ q: "" }, "replace");
              }}
              placeholder="id or title"
              className="w-48 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
              data-testid="waves-search"
              aria-controls={matches.length > 0 ? "search-results" : undefined}
            />
          </label>
          {matches.length > 0 && (
            <ul id="search-results" className="absolute z-10 mt-1 w-80 rounded border border-slate-300 bg-white text-xs shadow dark:border-slate-700 dark:bg-slate-900">
              {matches.map((m) => (
                <li key={m.id}>
                  <button type="button" className="w-full px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => openIssue(m)}>
                    <span className="font-mono">{m.id}</span> {m.title}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="ml-auto flex flex-wrap gap-2">
          <button type="button" onClick={() => setDisplay(display === "graph" ? "list" : "graph")} className={button}>
            {display === "graph" ? "Show as list" : "Show as graph"}
          </button>
          <button type="button" onClick={() => download("waves.mmd", toMermaid(plan, visibleIssues))} className={button} data-testid="export-mermaid">
            Export Mermaid
          </button>
          <button type="button" onClick={() => download("waves.dot", toDot(plan, visibleIssues))} className={button} data-testid="export-dot">
            Export DOT
          </button>
        </div>
      </div>

      <div className="flex min-h-8 flex-wrap items-center gap-3 text-sm">
        {selected && byId.get(selected) ? (
          <div className="flex flex-wrap items-center gap-2" data-testid="selection">
            <Link href={`/issues/${encodeURIComponent(selected)}`} className="font-mono font-semibold text-blue-700 underline dark:text-blue-300">
              {selected}
            </Link>
            <span className="max-w-md truncate">{byId.get(selected)!.title}</span>
            <span className="text-xs">
              Waits on {chain?.up.size ?? 0} · unblocks {chain?.down.size ?? 0} · conflicts {partners.get(selected)?.length ?? 0}
            </span>
            <button type="button" className="text-xs underline" onClick={() => select(null)}>
              clear
            </button>
          </div>
        ) : (
          <span className="text-xs text-slate-600 dark:text-slate-400" data-testid="scope-note">
            {view.milestone === null ? "All milestones" : `Milestone ${laneTitle(plan, view.milestone)}`}: {layout.issueIds.length} of {visibleIssues.length} issues drawn
            {view.fold ? "; finished work folded into chips" : ""}. Drag or use the arrow keys to pan, + and - to zoom.
          </span>
        )}
        {selectedEdge && dependencyOf(selectedEdge) && (
          <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="edge-selection">
            <span>
              Dependency <span className="font-mono font-semibold">{dependencyOf(selectedEdge)!.dependency} → {dependencyOf(selectedEdge)!.dependent}</span> selected
              ({dependencyOf(selectedEdge)!.dependent} waits on {dependencyOf(selectedEdge)!.dependency}): Delete removes it
            </span>
            <button type="button" className={button} onClick={() => proposeRemoval(selectedEdge)} data-testid="edge-remove">
              Remove…
            </button>
          </div>
        )}
        {undo && (
          <button type="button" className={`ml-auto ${button}`} disabled={edit.busy} onClick={proposeUndo} data-testid="edit-undo" title={`${undo.label} on ${undo.id}`}>
            Undo last edit ({undo.id})
          </button>
        )}
        <button type="button" className={`${undo ? "" : "ml-auto "}${button}`} onClick={() => void flow.fitView(FIT_ALL)} data-testid="fit-all">
          Fit all
        </button>
      </div>

      <div className="grid gap-4 2xl:grid-cols-[1fr_18rem]">
        <div>
          {display === "graph" && (
            <div className="relative">
              <div
                ref={paneRef}
                className="h-[calc(100vh-21rem)] min-h-[420px] w-full rounded border border-slate-200 bg-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-800 dark:bg-slate-950"
                onKeyDown={onKeyDown}
                tabIndex={0}
                role="region"
                aria-label="Waves graph: the arrow keys pan, + and - zoom; Tab moves to the issues"
                data-testid="waves-graph"
                data-node-count={nodes.length}
                data-issue-count={layout.issueIds.length}
                data-ready={isReady ? "true" : "false"}
              >
                <ReactFlow
                  nodes={nodes}
                  edges={edges}
                  nodeTypes={nodeTypes}
                  nodesDraggable={false}
                  nodesConnectable
                  onConnect={onConnect}
                  onConnectEnd={onConnectEnd}
                  onEdgesChange={onEdgesChange}
                  onEdgeClick={(_, edge) => dependencyOf(edge.id) && setSelectedEdge(selectedEdge === edge.id ? null : edge.id)}
                  deleteKeyCode={null}
                  elementsSelectable
                  onlyRenderVisibleElements={isBig}
                  onNodeClick={(_, n) => {
                    if (n.type === "lane") toggleLane((n.data as LaneNodeData).id);
                    else if (n.type === "chip") toggleChip(n.id);
                    else if (n.type === "issue") select(selected === n.id ? null : n.id);
                  }}
                  onNodeDoubleClick={(_, n) => {
                    if (n.type === "issue") open(n.id);
                  }}
                  onPaneClick={() => {
                    if (selected) select(null);
                    setSelectedEdge(null);
                  }}
                  onMoveEnd={(_, v) => {
                    const known = viewRef.current.viewport ?? autoViewport.current;
                    if (!known || !sameViewport(v, known)) go({ viewport: v }, "replace");
                  }}
                  defaultViewport={urlViewport ?? undefined}
                  {...GRAPH_VIEW}
                  colorMode={colorMode}
                >
                  <GraphChrome minimapLabel="Minimap: where the view is in the whole graph" nodeColor={minimapColour} />
                </ReactFlow>
              </div>
              {intent && (edit.busy || edit.pending || edit.outcome) && (
                <div
                  ref={dialogRef}
                  role="dialog"
                  aria-labelledby="graph-edit-title"
                  aria-describedby="graph-edit-sentence"
                  tabIndex={-1}
                  data-testid="graph-edit-dialog"
                  onKeyDown={(e) => {
                    if (e.key === "Escape") closeDialog();
                  }}
                  className="absolute right-3 top-3 z-10 flex max-h-[calc(100%-1.5rem)] w-[30rem] max-w-[calc(100%-1.5rem)] flex-col gap-2 overflow-auto rounded-md border border-slate-300 bg-white p-3 text-sm shadow-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
                >
                  <div className="flex items-start gap-2">
                    <h2 id="graph-edit-title" className="font-semibold">
                      {intent.title}
                    </h2>
                    <button type="button" onClick={closeDialog} className="ml-auto rounded px-1 text-xs underline" data-testid="graph-edit-close">
                      Close
                    </button>
                  </div>
                  <p id="graph-edit-sentence">{intent.sentence}</p>
                  {edit.busy && !edit.pending?.preview && <p>Deriving what it would change…</p>}
                  <EditReview flow={edit} />
                </div>
              )}
            </div>
          )}
          <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700 dark:text-slate-300" aria-label="Legend">
            {ISSUE_STATUS_ORDER.map((s) => (
              <li key={s} className="flex items-center gap-1">
                <span className={`inline-block h-3 w-3 rounded-sm ${ISSUE_STATUS_STYLE[s].bar}`} aria-hidden />
                {s}: {ISSUE_STATUS_STYLE[s].label}
              </li>
            ))}
            <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-sky-500" aria-hidden />waits on (selected)</li>
            <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-orange-500" aria-hidden />unblocked by finishing it</li>
            <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-full bg-red-700" aria-hidden />scope conflicts</li>
            <li className="flex items-center gap-1" data-testid="edit-hint">
              <span className="inline-block h-3 w-3 rounded-full border-2 border-white bg-slate-600 ring-1 ring-slate-400" aria-hidden />
              to add a dependency, drag from an issue&apos;s right handle onto the issue that waits on it (arrows run from a dependency to what waits on it); select an arrow and press Delete to remove one
            </li>
            <CodeMarkLegend />
            <li className="flex items-center gap-1" data-testid="critical-legend">
              <span className="inline-block h-1 w-4 bg-violet-600" aria-hidden />
              critical path{critical.length ? ` (${critical.length} issues${showCritical ? "" : ", hidden"})` : " (nothing unfinished)"}
              {showCritical && critical.some((id) => itemById.has(id)) && (
                <button type="button" className="underline" onClick={() => focusNode(critical.find((id) => itemById.has(id))!)} data-testid="critical-start">
                  go to its start
                </button>
              )}
            </li>
          </ul>
          <section aria-label="Issues by wave, as a list" className={display === "list" ? "" : "sr-only"} data-testid="waves-list">
            {/* The waves below are its h3s: the outline goes h1, h2, h3 without a gap. */}
            <h2 className="mb-2 font-semibold">Issues by wave</h2>
            {layout.columns.map((c) => (
              <div key={String(c.key)} id={c.key === "cycle" ? "cycle" : `wave-${c.key}`} className="mb-3">
                <h3 className="text-sm font-semibold">{c.label}</h3>
                <ul className="ml-4 list-disc text-sm">
                  {c.ids.map((id) => {
                    const it = itemById.get(id);
                    if (it?.kind === "chip") return <li key={id}>{it.ids.length} finished: {it.ids.join(", ")}</li>;
                    const i = byId.get(id)!;
                    return (
                      <li key={id}>
                        <Link href={`/issues/${encodeURIComponent(id)}`} className="font-mono text-blue-700 underline dark:text-blue-300">
                          {id}
                        </Link>{" "}
                        {i.status} — {i.title}
                        {i.blocked_by.length > 0 && <> (waits on {i.blocked_by.join(", ")})</>}
                      </li>
                    );
                  })}
                </ul>
              </div>
            ))}
          </section>
        </div>

        <aside className="flex flex-col gap-3 text-sm">
          <div className="rounded border border-slate-200 p-3 dark:border-slate-800">
            <h2 className="mb-2 font-semibold">Scope conflicts ({pairs.length})</h2>
            <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">Issues of one wave that share a path may not run at once. Select an issue to draw its conflicts.</p>
            <div className="max-h-[420px] overflow-auto" data-testid="conflict-list">
              {groups.slice(0, 60).map((g) => (
                <details key={g.path} className="mb-1">
                  <summary className="cursor-pointer font-mono text-xs">
                    {g.path} <span className="text-slate-600 dark:text-slate-400">({g.pairs.length})</span>
                  </summary>
                  <ul className="ml-3 text-xs">
                    {g.pairs.slice(0, 50).map((p) => (
                      <li key={`${p.a}-${p.b}`}>
                        <button type="button" className="font-mono text-blue-700 underline dark:text-blue-300" onClick={() => openIssue(byId.get(p.a)!)}>
                          {p.a}
                        </button>
                        {" ↔ "}
                        <button type="button" className="font-mono text-blue-700 underline dark:text-blue-300" onClick={() => openIssue(byId.get(p.b)!)}>
                          {p.b}
                        </button>
                      </li>
                    ))}
                  </ul>
                </details>
              ))}
              {groups.length > 60 && <p className="text-xs">…and {groups.length - 60} more paths</p>}
            </div>
          </div>
        </aside>
      </div>
    </div>
  );
}

