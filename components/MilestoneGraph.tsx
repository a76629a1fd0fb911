"use client";

import { Background, Controls, ReactFlow, type Edge, type Node, type NodeProps, Handle, Position } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useRouter } from "next/navigation";
import { memo, useMemo } from "react";
import { MILESTONE_STATUS_STYLE } from "./status";

export interface MilestoneNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  status: string;
  mark?: "now" | "next";
}

const MilestoneNode = memo(function MilestoneNode({ data }: NodeProps<Node<MilestoneNodeData>>) {
  return (
    <div className="w-[200px] rounded-md border border-slate-300 bg-white px-2 py-1.5 text-left text-xs shadow-sm dark:border-slate-600 dark:bg-slate-900">
      <Handle type="target" position={Position.Left} />
      <div className="flex items-center gap-1">
        <span className={`rounded px-1 text-[10px] font-semibold ${MILESTONE_STATUS_STYLE[data.status] ?? ""}`}>{data.status}</span>
        {data.mark && <span className="rounded bg-emerald-700 px-1 text-[10px] font-semibold text-white">{data.mark.toUpperCase()}</span>}
      </div>
      <div className="mt-0.5 truncate font-medium" title={data.title}>
        {data.title || data.id}
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

const nodeTypes = { milestone: MilestoneNode };

export function MilestoneGraph({ milestones, edges }: { milestones: (MilestoneNodeData & { rank: number })[]; edges: { from: string; to: string }[] }) {
  const router = useRouter();
  const nodes = useMemo<Node<MilestoneNodeData>[]>(() => {
    const rows = new Map<number, number>();
    return milestones.map((m) => {
      const row = rows.get(m.rank) ?? 0;
      rows.set(m.rank, row + 1);
      return {
        id: m.id,
        type: "milestone",
        position: { x: m.rank * 250, y: row * 70 },
        data: m,
        ariaLabel: `Milestone ${m.title || m.id}, ${m.status}${m.mark ? `, ${m.mark}` : ""}`,
        width: 200,
        height: 52,
      };
    });
  }, [milestones]);
  const flowEdges = useMemo<Edge[]>(() => edges.map((e) => ({ id: `${e.from}->${e.to}`, source: e.from, target: e.to })), [edges]);
  return (
    <div className="h-[420px] w-full rounded border border-slate-200 dark:border-slate-800" data-testid="milestone-graph">
      <ReactFlow
        nodes={nodes}
        edges={flowEdges}
        nodeTypes={nodeTypes}
        nodesDraggable={false}
        nodesConnectable={false}
        onNodeClick={(_, n) => router.push(`/milestones/${encodeURIComponent(n.id)}`)}
        fitView
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
