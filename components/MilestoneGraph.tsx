"use client";

import {
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type Node,
  type NodeProps,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useRouter } from "next/navigation";
import { memo, useEffect, useMemo, useRef } from "react";
import { firstViewport, readableZoom } from "@/lib/graph/viewport";
import { MILESTONE_STATUS_STYLE } from "./status";
import { FIT_ALL, GRAPH_VIEW, GraphChrome, minimapStartsShown, useMinimapSwitch } from "./graph-chrome";
import { panByKey, zoomByKey } from "./graph-keys";
import { useSystemColorMode } from "./useSystemColorMode";

export interface MilestoneNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  status: string;
  mark?: "now" | "next";
}

const NODE_WIDTH = 260;
const NODE_HEIGHT = 72;
const COLUMN_WIDTH = 310;
const ROW_HEIGHT = 86;
/** The smallest text in a node (the badges), in CSS pixels; titles are 14 px. */
const SMALLEST_NODE_FONT_PX = 13;

const MilestoneNode = memo(function MilestoneNode({ data }: NodeProps<Node<MilestoneNodeData>>) {
  return (
    <div
      className="box-border flex h-[72px] w-[260px] flex-col justify-center gap-0.5 rounded-md border border-slate-300 bg-white px-2 text-left shadow-sm dark:border-slate-600 dark:bg-slate-900"
      data-mark={data.mark ?? ""}
    >
      <Handle type="target" position={Position.Left} />
      <div className="flex items-center gap-1 leading-4">
        <span className={`rounded px-1 text-[13px] font-semibold ${MILESTONE_STATUS_STYLE[data.status] ?? ""}`}>{data.status}</span>
        {data.mark && <span className="rounded bg-emerald-700 px-1 text-[13px] font-semibold text-white">{data.mark.toUpperCase()}</span>}
      </div>
      <div className="line-clamp-2 text-[14px] font-medium leading-[18px]" title={data.title} data-text="title">
        {data.title || data.id}
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

const nodeTypes = { milestone: MilestoneNode };

const CHROME_BUTTON =
  "shrink-0 whitespace-nowrap rounded border border-slate-300 px-2 py-1 text-xs text-slate-900 hover:bg-slate-100 aria-pressed:bg-slate-200 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800 dark:aria-pressed:bg-slate-700";

type Props = { milestones: (MilestoneNodeData & { rank: number })[]; edges: { from: string; to: string }[] };

export function MilestoneGraph(props: Props) {
  return (
    <ReactFlowProvider>
      <MilestoneFlow {...props} />
    </ReactFlowProvider>
  );
}

function MilestoneFlow({ milestones, edges }: Props) {
  const router = useRouter();
  const flow = useReactFlow();
  const colorMode = useSystemColorMode();
  const paneRef = useRef<HTMLDivElement>(null);
  // The minimap never hides a milestone of the first view, and a phone starts without it; its button shows or hides it.
  const minimap = useMinimapSwitch();
  const minimapStarts = minimap.startsShown;
  const nodes = useMemo<Node<MilestoneNodeData>[]>(() => {
    const rows = new Map<number, number>();
    return milestones.map((m) => {
      const row = rows.get(m.rank) ?? 0;
      rows.set(m.rank, row + 1);
      return {
        id: m.id,
        type: "milestone",
        position: { x: m.rank * COLUMN_WIDTH, y: row * ROW_HEIGHT },
        data: m,
        ariaLabel: `Milestone ${m.title || m.id}, ${m.status}${m.mark ? `, ${m.mark}` : ""}`,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
      };
    });
  }, [milestones]);
  const flowEdges = useMemo<Edge[]>(() => edges.map((e) => ({ id: `${e.from}->${e.to}`, source: e.from, target: e.to })), [edges]);

  // The first view: every milestone if that keeps the text readable, else readable text around
  // the milestone worked on now (or the first one).
  useEffect(() => {
    const bounds = nodes.reduce(
      (b, n) => ({ width: Math.max(b.width, n.position.x + NODE_WIDTH), height: Math.max(b.height, n.position.y + NODE_HEIGHT) }),
      { width: 1, height: 1 },
    );
    const focus = nodes.find((n) => n.data.mark === "now");
    const pane = paneRef.current;
    const anchor = focus ? { x: focus.position.x, y: focus.position.y, width: NODE_WIDTH, height: NODE_HEIGHT } : undefined;
    const view = firstViewport({ x: 0, y: 0, ...bounds }, { width: pane?.clientWidth ?? 1000, height: pane?.clientHeight ?? 480 }, {
      minZoom: readableZoom(SMALLEST_NODE_FONT_PX),
      maxZoom: 1.25,
      padding: 24,
      anchor: anchor && anchor.y + NODE_HEIGHT > (pane?.clientHeight ?? 480) ? anchor : undefined,
    });
    minimapStarts(minimapStartsShown(pane, nodes.map((n) => ({ ...n.position, width: NODE_WIDTH, height: NODE_HEIGHT })), view));
    void flow.setViewport(view);
  }, [nodes, flow, minimapStarts]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (zoomByKey(flow, e)) return;
    const id = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node")?.dataset.id;
    if (id && e.key === "Enter") {
      router.push(`/milestones/${encodeURIComponent(id)}`);
      return;
    }
    if (!id) panByKey(flow, e);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span>Drag or use the arrow keys to pan, + and - to zoom; Enter on a milestone opens it.</span>
        <button type="button" className={`ml-auto ${CHROME_BUTTON}`} onClick={() => void flow.fitView(FIT_ALL)} data-testid="milestone-fit-all">
          Fit all
        </button>
        <button
          type="button"
          className={CHROME_BUTTON}
          aria-pressed={minimap.shown}
          onClick={minimap.toggle}
          data-testid="milestone-minimap-toggle"
          title={minimap.shown ? "Hide the minimap" : "Show the minimap (it starts hidden on a phone, or when it would cover a milestone)"}
        >
          Minimap
        </button>
      </div>
      <div
        ref={paneRef}
        className="h-[480px] w-full rounded border border-slate-200 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-800"
        data-testid="milestone-graph"
        tabIndex={0}
        role="region"
        aria-label="Milestone graph: the arrow keys pan, + and - zoom; Tab moves to the milestones"
        onKeyDown={onKeyDown}
      >
        <ReactFlow
          nodes={nodes}
          edges={flowEdges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          onNodeClick={(_, n) => router.push(`/milestones/${encodeURIComponent(n.id)}`)}
          {...GRAPH_VIEW}
          colorMode={colorMode}
        >
          <GraphChrome minimapLabel="Minimap: where the view is in the whole milestone graph" minimap={minimap.shown} />
        </ReactFlow>
      </div>
    </div>
  );
}
