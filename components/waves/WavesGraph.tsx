"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Node, type Viewport } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CodeMark } from "@/lib/code/marks";
import { dependencyIndex, downstreamOf, upstreamOf } from "@/lib/graph/closure";
import { partnersByIssue, scopePairs } from "@/lib/graph/conflicts";
import { criticalPath } from "@/lib/graph/critical-path";
import { dependencyOf, placesOf, toFlowEdges, toFlowNodes, type GraphSelection, type LaneNodeData } from "@/lib/graph/flow-elements";
import { FOLDED_STATUSES, chipKey, defaultCollapsedLanes, laneOrder, laneTitle, layoutWaveLanes, type GraphItem } from "@/lib/graph/lanes";
import type { WavesView as View } from "@/lib/graph/view-url";
import { firstViewport, formatViewport, openWorkStart, readableZoom, sameViewport, viewportClearOf } from "@/lib/graph/viewport";
import type { Plan, PlanIssue } from "@/lib/plan/shapes";
import { unsealedIssueIds } from "@/lib/plan/unsealed";
import { FIT_ALL, GRAPH_VIEW, GraphChrome, minimapStartsShown, useMinimapSwitch } from "../graph-chrome";
import { ISSUE_STATUS_ORDER } from "../status";
import { useSystemColorMode } from "../useSystemColorMode";
import { ConflictList } from "./ConflictList";
import { EditDialog } from "./EditDialog";
import { Legend } from "./Legend";
import { minimapColour, nodeTypes } from "./nodes";
import { parsePlanAnswer } from "./plan-answer";
import { SelectionBar } from "./SelectionBar";
import { Toolbar } from "./Toolbar";
import { useDependencyEditor } from "./useDependencyEditor";
import { useGraphKeys } from "./useGraphKeys";
import { useWavesView } from "./useWavesView";
import { WavesList } from "./WavesList";

/** A view that would draw more issues than this starts with every lane but the focus collapsed. */
export const COLLAPSE_ABOVE = 1000;
/** Beyond this many nodes only those in view are put in the page. */
const DRAW_VISIBLE_ABOVE = 600;
/** The smallest text inside a node, in CSS pixels (titles and badges; ids are 14 px). */
const SMALLEST_NODE_FONT_PX = 13;
/** The first view never zooms out further: every node's text is at least 12 px on screen. */
export const FIRST_VIEW_MIN_ZOOM = readableZoom(SMALLEST_NODE_FONT_PX);

/** The height the minimap (150 px, 15 px from the edge) takes from the bottom of the pane. */
const MINIMAP_ROOM_PX = 170;
const FIRST_VIEW = { minZoom: FIRST_VIEW_MIN_ZOOM, maxZoom: 1.25, padding: 24 } as const;

/** The side of the pane the edit dialog opens on: away from the cards the edit names. */
function dialogSideFor(ids: readonly string[], pane: HTMLElement | null): "left" | "right" {
  if (!pane) return "right";
  const box = pane.getBoundingClientRect();
  const xs = ids
    .map((id) => pane.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.getBoundingClientRect())
    .filter((r): r is DOMRect => !!r)
    .map((r) => r.left + r.width / 2 - box.left);
  if (!xs.length) return "right";
  return xs.reduce((a, b) => a + b, 0) / xs.length > box.width / 2 ? "left" : "right";
}

/** The pane less the minimap's height at its bottom: where a first view that fits is placed. */
function roomAboveMinimap(pane: HTMLElement | null): { width: number; height: number } {
  const height = pane?.clientHeight ?? 560;
  return { width: pane?.clientWidth ?? 1000, height: Math.max(height / 2, height - MINIMAP_ROOM_PX) };
}

async function fetchPlan(): Promise<Plan> {
  const res = await fetch("/api/v1/plan", { cache: "no-store" });
  if (!res.ok) throw new Error(`the plan could not be read (${res.status})`);
  return parsePlanAnswer(await res.json());
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
  const { data: plan = initialPlan, error: planError } = useQuery({ queryKey: ["plan"], queryFn: fetchPlan, initialData: initialPlan });
  const router = useRouter();
  const flow = useReactFlow();
  const colorMode = useSystemColorMode();
  const searchRef = useRef<HTMLInputElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);
  const [display, setDisplay] = useState<"graph" | "list">("graph");
  const [isReady, setReady] = useState(false);

  const queryClient = useQueryClient();
  const refreshAfterEdit = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ["plan"] });
    router.refresh();
  }, [queryClient, router]);

  const active = plan.project.active_milestone || null;
  const { view, viewRef, go, isLeaving } = useWavesView(active);

  const byId = useMemo(() => new Map(plan.issues.map((i) => [i.id, i])), [plan]);
  const editor = useDependencyEditor(plan, byId, refreshAfterEdit);
  const index = useMemo(() => dependencyIndex(plan.issues), [plan]);
  const pairs = useMemo(() => scopePairs(plan.findings), [plan]);
  const partners = useMemo(() => partnersByIssue(pairs), [pairs]);
  const unsealed = useMemo(() => unsealedIssueIds(plan), [plan]);
  const statusKey = view.statuses?.join(",") ?? "";
  const include = useCallback(
    (i: PlanIssue) => (view.milestone === null || i.milestone === view.milestone) && (view.statuses === null || view.statuses.includes(i.status)),
    // statusKey stands for view.statuses, which is a new array on every URL change.
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
    [view.milestone, statusKey],
  );
  const visibleIssues = useMemo(() => plan.issues.filter(include), [plan, include]);
  const collapsedKey = view.collapsed?.join(",") ?? null;
  const collapsedLanes = useMemo(
    () => (collapsedKey !== null ? new Set(view.collapsed) : defaultCollapsedLanes(plan, include, view.milestone ?? active, COLLAPSE_ABOVE)),
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
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
  const place = useMemo(() => placesOf(layout), [layout]);

  const selected = view.issue && byId.has(view.issue) ? view.issue : null;
  const chain = useMemo(() => (selected ? { up: upstreamOf(selected, index), down: downstreamOf(selected, index) } : undefined), [selected, index]);
  const selection = useMemo<GraphSelection>(
    () => ({ issue: selected, chain, partners: new Set((selected ? partners.get(selected) ?? [] : []).map((p) => (p.a === selected ? p.b : p.a))) }),
    [selected, chain, partners],
  );
  // The same answer as plan.critical_path for the milestone in focus (the whole plan for all).
  const critical = useMemo(() => criticalPath(plan, view.milestone === null ? {} : { milestone: view.milestone }), [plan, view.milestone]);
  const showCritical = view.critical && critical.length > 0;
  const criticalSet = useMemo(() => new Set(showCritical ? critical : []), [critical, showCritical]);

  const nodes = useMemo(
    () => toFlowNodes({ plan, layout, byId, conflicts: partners, selection, critical: criticalSet, codeMarks, statusOrder: ISSUE_STATUS_ORDER, unsealed }) as Node[],
    [layout, plan, byId, partners, selection, criticalSet, codeMarks, unsealed],
  );
  const edges = useMemo(
    () =>
      toFlowEdges({ plan, shown: layout.issueIds, selection, conflicts: partners, criticalPath: critical, critical: criticalSet, chosenEdge: editor.selectedEdge }) as Edge[],
    [plan, layout, selection, partners, critical, criticalSet, editor.selectedEdge],
  );

  // The first view of a scope: everything if it fits at a readable zoom, else readable text from
  // the first wave (or the selected issue). A viewport in the URL wins (a shared link, back/forward).
  const scopeKey = `${view.milestone}|${statusKey}|${view.groupByMilestone}|${view.fold}`;
  const urlViewport = view.viewport;
  const urlViewportKey = urlViewport ? `${urlViewport.x},${urlViewport.y},${urlViewport.zoom}` : "";
  const pendingFocus = useRef<string | null>(null);
  /** The first view this page placed by itself: not a move of the reader's, so not written into the URL. */
  const autoViewport = useRef<Viewport | null>(null);
  /** The viewports the graph wrote into the URL itself (at a move's end), until the URL brings each back once. */
  const ownViewports = useRef(new Set<string>());
  const open = useCallback(
    (id: string) => {
      isLeaving.current = true;
      router.push(`/issues/${encodeURIComponent(id)}`);
    },
    [router, isLeaving],
  );
  const firstView = useCallback((): Viewport => {
    const pane = paneRef.current;
    const anchor = selected ? itemById.get(selected) : undefined;
    // Without an issue in focus, a view that does not fit starts at the first open card (a phone
    // would otherwise open on the finished chips of the first waves).
    const open = layout.items.filter((it) => it.kind === "issue" && !FOLDED_STATUSES.has(byId.get(it.id)?.status ?? ""));
    const start = openWorkStart(layout.bounds, open, pane?.clientHeight ?? 560, FIRST_VIEW.minZoom);
    // The minimap sits in the bottom right corner: a first view that fits keeps the graph above it.
    return firstViewport(layout.bounds, roomAboveMinimap(pane), { ...FIRST_VIEW, anchor, start });
    // Only a new scope (or a new viewport in the URL) moves the graph; a new layout within it does not.
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
  }, [scopeKey, selected, layout.bounds]);
  // The minimap never hides a node of the first view: it starts shown only when no node of that
  // view lies under it, on a pane wider than a phone's; its button shows or hides it after that.
  const minimap = useMinimapSwitch();
  useEffect(() => {
    // A viewport the graph itself wrote into the URL at the end of a move is where the graph was
    // then, not a place to go back to: a move interrupted by a newer one (the dialog's pan, redone
    // when the sheet grows) ends at a point between, and going there would undo the newer move.
    if (urlViewport && ownViewports.current.delete(formatViewport(urlViewport))) {
      setReady(true);
      return;
    }
    const pane = paneRef.current;
    const target = urlViewport ?? firstView();
    // A viewport of the URL (a link, or the reader's own pan) keeps the minimap as it was.
    if (!urlViewport) minimap.startsShown(minimapStartsShown(pane, layout.items, target));
    autoViewport.current = urlViewport ? null : target;
    if (!sameViewport(target, flow.getViewport())) void flow.setViewport(target);
    setReady(true);
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
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
    const patch: Partial<View> = { issue: issue.id, q: "" };
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

  const onKeyDown = useGraphKeys({ flow, layout, place, searchRef, selected, onDeleteKey: editor.onDeleteKey, toggleLane, toggleChip, open, select, focusNode });

  const matches = useMemo(() => {
    const q = view.q.trim().toLowerCase();
    if (!q) return [];
    return plan.issues.filter((i) => i.id.toLowerCase().includes(q) || i.title.toLowerCase().includes(q)).slice(0, 8);
  }, [view.q, plan]);

  // Chosen when an edit is proposed, from where its cards are drawn then.
  const intentIds = editor.intent?.ids.join(",") ?? "";
  const dialogSide = useMemo(
    () => dialogSideFor(intentIds ? intentIds.split(",") : [], paneRef.current),
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
    [intentIds, editor.intent],
  );
  // The dialog never covers the cards the edit names: once it is drawn, the view pans (zoomed out
  // only if they must be to fit) to put them in the room it leaves, beside it or above the sheet.
  const isDialogOpen = editor.isDialogOpen;
  useEffect(() => {
    if (!isDialogOpen || !intentIds) return;
    const clear = () => {
      const pane = paneRef.current?.getBoundingClientRect();
      const dialog = editor.dialogRef.current?.getBoundingClientRect();
      if (!pane || !dialog) return;
      const cards = intentIds
        .split(",")
        .map((id) => itemById.get(id))
        .filter((it): it is GraphItem => !!it);
      const next = viewportClearOf(
        cards,
        { width: pane.width, height: pane.height },
        { left: dialog.left - pane.left, top: dialog.top - pane.top, right: dialog.right - pane.left, bottom: dialog.bottom - pane.top },
        flow.getViewport(),
        undefined,
        // The part of the pane in the window: on a phone the page scrolls, and a card below the
        // window's edge is not seen either.
        {
          left: Math.max(0, -pane.left),
          top: Math.max(0, -pane.top),
          right: Math.min(pane.width, window.innerWidth - pane.left),
          bottom: Math.min(pane.height, window.innerHeight - pane.top),
        },
      );
      if (next) void flow.setViewport(next, { duration: 200 });
    };
    // Measured once drawn, and again whenever the dialog's box changes: on a phone the sheet grows
    // when the preview arrives, and would cover cards that were clear of it while it was short.
    let frame = requestAnimationFrame(clear);
    const box = editor.dialogRef.current;
    const watch =
      box && typeof ResizeObserver !== "undefined"
        ? new ResizeObserver(() => {
            cancelAnimationFrame(frame);
            frame = requestAnimationFrame(clear);
          })
        : undefined;
    if (box) watch?.observe(box);
    return () => {
      cancelAnimationFrame(frame);
      watch?.disconnect();
    };
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
  }, [intentIds, isDialogOpen]);
  // Typing a search pans to its first match and selects it, once the typing pauses (a drawn match
  // only: Enter or a click on a result also widens the view to reach one that is not drawn).
  const firstMatch = matches[0]?.id;
  useEffect(() => {
    if (!firstMatch || firstMatch === viewRef.current.issue) return;
    const timer = setTimeout(() => {
      const it = itemById.get(firstMatch);
      if (!it) return;
      go({ issue: firstMatch }, "replace");
      void flow.setCenter(it.x + it.width / 2, it.y + it.height / 2, { zoom: Math.max(flow.getZoom(), FIRST_VIEW_MIN_ZOOM), duration: 250 });
    }, 250);
    return () => clearTimeout(timer);
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
  }, [firstMatch]);
  const milestoneIds = useMemo(() => laneOrder(plan, plan.issues.map((i) => i.milestone)), [plan]);
  const isBig = layout.items.length > DRAW_VISIBLE_ABOVE;
  const scopeNote =
    `${view.milestone === null ? "All milestones" : `Milestone ${laneTitle(plan, view.milestone)}`}: ${layout.issueIds.length} of ${visibleIssues.length} issues drawn` +
    `${view.fold ? "; finished work folded into chips" : ""}.${display === "graph" ? " Drag or use the arrow keys to pan, + and - to zoom." : ""}`;

  return (
    <div className="flex flex-col gap-3">
      {planError && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          The waves show the plan as it was last read: {planError.message}. Reload the page to try again.
        </p>
      )}
      <Toolbar
        plan={plan}
        view={view}
        go={go}
        active={active}
        milestoneIds={milestoneIds}
        visibleIssues={visibleIssues}
        matches={matches}
        onPick={openIssue}
        searchRef={searchRef}
        display={display}
        onDisplay={setDisplay}
      />
      <SelectionBar
        selected={selected ? byId.get(selected) : undefined}
        chain={chain}
        conflicts={selected ? partners.get(selected)?.length ?? 0 : 0}
        onClear={() => select(null)}
        scopeNote={scopeNote}
        editor={editor}
        onFitAll={() => void flow.fitView(FIT_ALL)}
        minimap={minimap.shown}
        onMinimap={minimap.toggle}
        graph={display === "graph"}
      />

      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 2xl:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0">
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
                  onConnect={editor.onConnect}
                  onConnectEnd={editor.onConnectEnd}
                  onEdgesChange={editor.onEdgesChange}
                  onEdgeClick={(_, edge) => dependencyOf(edge.id) && editor.setSelectedEdge(editor.selectedEdge === edge.id ? null : edge.id)}
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
                    editor.setSelectedEdge(null);
                  }}
                  onMoveEnd={(_, v) => {
                    const known = viewRef.current.viewport ?? autoViewport.current;
                    if (!known || !sameViewport(v, known)) {
                      ownViewports.current.add(formatViewport(v));
                      go({ viewport: v }, "replace");
                    }
                  }}
                  defaultViewport={urlViewport ?? undefined}
                  {...GRAPH_VIEW}
                  colorMode={colorMode}
                >
                  <GraphChrome minimapLabel="Minimap: where the view is in the whole graph" nodeColor={minimapColour} minimap={minimap.shown} />
                </ReactFlow>
              </div>
              <EditDialog editor={editor} side={dialogSide} />
            </div>
          )}
          {/* The legend explains the graph's marks, handles and arrows: the list has none of them. */}
          {display === "graph" && (
            <Legend
              critical={critical}
              showCritical={showCritical}
              criticalStart={critical.find((id) => itemById.has(id))}
              onCriticalStart={focusNode}
            />
          )}
          <WavesList layout={layout} itemById={itemById} byId={byId} isShown={display === "list"} unsealed={unsealed} />
        </div>
        <ConflictList pairs={pairs} byId={byId} onPick={openIssue} />
      </div>
    </div>
  );
}
