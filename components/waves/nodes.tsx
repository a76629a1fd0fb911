"use client";

import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { ChipNodeData, ColumnNodeData, Highlight, IssueNodeData, LaneNodeData } from "@/lib/graph/flow-elements";
import { STATUS_COLOURS } from "@/lib/graph/export";
import { ISSUE_STATUS_STYLE } from "../status";
import { UnsealedMark } from "../UnsealedMark";
import { CodeMarkBadge } from "./CodeMark";
import { ownValue } from "@/lib/plan/own";

// The waves graph's four kinds of node: an issue card, a chip of finished work, a milestone
// lane's header and a wave column's header.

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
        {data.isUnsealed && <UnsealedMark id={data.id} compact />}
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
export const nodeTypes = { issue: IssueNode, chip: ChipNode, lane: LaneNode, column: ColumnNode };

export const minimapColour = (n: Node) =>
  n.type === "issue" ? ownValue(STATUS_COLOURS, (n.data as IssueNodeData).status) ?? "#94a3b8" : n.type === "lane" ? "#818cf8" : n.type === "chip" ? "#cbd5e1" : "transparent";
