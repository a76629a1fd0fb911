"use client";

import { useQuery } from "@tanstack/react-query";
import {
  Background,
  Controls,
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
import Link from "next/link";
import { useRouter } from "next/navigation";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { dependencyIndex, downstreamOf, upstreamOf } from "@/lib/graph/closure";
import { groupByPath, partnersByIssue, scopePairs } from "@/lib/graph/conflicts";
import { toDot, toMermaid } from "@/lib/graph/export";
import { NODE_HEIGHT, NODE_WIDTH, layoutByWave, type WaveColumn } from "@/lib/graph/layout";
import type { Plan, PlanIssue } from "@/lib/plan/shapes";
import { ISSUE_STATUS_ORDER, ISSUE_STATUS_STYLE } from "./status";

/** Beyond this many issues the graph starts collapsed by milestone. */
export const COLLAPSE_ABOVE = 1000;

type Highlight = "selected" | "up" | "down" | "partner" | "dim" | undefined;

interface IssueNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  status: string;
  conflicts: number;
  highlight: Highlight;
}

interface MilestoneNodeData extends Record<string, unknown> {
  id: string;
  title: string;
  total: number;
}

const HIGHLIGHT_CLASS: Record<NonNullable<Highlight>, string> = {
  selected: "ring-4 ring-fuchsia-500",
  up: "ring-2 ring-sky-500",
  down: "ring-2 ring-orange-500",
  partner: "ring-2 ring-red-500 ring-dashed",
  // De-emphasised by colour, not by opacity: the text keeps its contrast and stays readable.
  dim: "!border-slate-200 !bg-slate-100 grayscale dark:!border-slate-800 dark:!bg-slate-900",
};

const IssueNode = memo(function IssueNode({ data }: NodeProps<Node<IssueNodeData>>) {
  const style = ISSUE_STATUS_STYLE[data.status];
  return (
    <div
      className={`relative box-border flex h-[48px] w-[220px] flex-col justify-center rounded-md border-l-[6px] border border-slate-300 bg-white px-2 text-left text-xs shadow-sm dark:border-slate-600 dark:bg-slate-900 ${style?.ring ?? ""} ${data.highlight ? HIGHLIGHT_CLASS[data.highlight] : ""}`}
      data-status={data.status}
      data-highlight={data.highlight ?? ""}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="flex items-center gap-1">
        <span className="font-mono font-semibold">{data.id}</span>
        <span className={`rounded px-1 text-[10px] font-semibold ${style?.badge ?? ""}`}>{data.status}</span>
        {data.conflicts > 0 && (
          <span className="ml-auto rounded-full bg-red-700 px-1.5 text-[10px] font-semibold text-white" title={`${data.conflicts} scope conflict(s)`} data-testid="conflict-badge">
            {data.conflicts}
          </span>
        )}
      </div>
      <div className="truncate text-slate-700 dark:text-slate-300" title={data.title}>
        {data.title}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const MilestoneGroupNode = memo(function MilestoneGroupNode({ data }: NodeProps<Node<MilestoneNodeData>>) {
  return (
    <div className="flex h-[48px] w-[220px] flex-col justify-center rounded-md border-2 border-dashed border-indigo-500 bg-indigo-50 px-2 text-left text-xs dark:bg-indigo-950">
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="truncate font-semibold" title={data.title}>
        {data.title || data.id}
      </div>
      <div className="text-slate-700 dark:text-slate-300">{data.total} issues · open</div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

// At module scope: React Flow re-creates every node when this object changes.
const nodeTypes = { issue: IssueNode, milestone: MilestoneGroupNode };

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

export function WavesGraph({ initialPlan }: { initialPlan: Plan }) {
  return (
    <ReactFlowProvider>
      <WavesView initialPlan={initialPlan} />
    </ReactFlowProvider>
  );
}

function WavesView({ initialPlan }: { initialPlan: Plan }) {
  const { data: plan = initialPlan } = useQuery({ queryKey: ["plan"], queryFn: fetchPlan, initialData: initialPlan });
  const router = useRouter();
  const flow = useReactFlow();
  const searchRef = useRef<HTMLInputElement>(null);
  const [milestone, setMilestone] = useState("");
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const [view, setView] = useState<"graph" | "list">("graph");

  const collapsed = milestone === "" && plan.issues.length > COLLAPSE_ABOVE;
  const byId = useMemo(() => new Map(plan.issues.map((i) => [i.id, i])), [plan]);
  const index = useMemo(() => dependencyIndex(plan.issues), [plan]);
  const pairs = useMemo(() => scopePairs(plan.findings), [plan]);
  const partners = useMemo(() => partnersByIssue(pairs), [pairs]);
  const include = useCallback(
    (i: PlanIssue) => (milestone === "" || i.milestone === milestone) && !hidden.has(i.status),
    [milestone, hidden],
  );
  const visibleIssues = useMemo(() => plan.issues.filter(include), [plan, include]);
  const layout = useMemo(() => layoutByWave(plan, include), [plan, include]);

  const chain = useMemo(() => {
    if (!selected) return undefined;
    return { up: upstreamOf(selected, index), down: downstreamOf(selected, index) };
  }, [selected, index]);
  const selectedPartners = useMemo(
    () => new Set((selected ? partners.get(selected) ?? [] : []).map((p) => (p.a === selected ? p.b : p.a))),
    [selected, partners],
  );

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

  const nodes = useMemo<Node[]>(() => {
    if (collapsed) {
      const counts = new Map<string, number>();
      for (const i of plan.issues) counts.set(i.milestone, (counts.get(i.milestone) ?? 0) + 1);
      const rows = new Map<number, number>();
      const ms = plan.milestones.filter((m) => counts.has(m.id));
      const orphanIds = [...counts.keys()].filter((k) => !plan.milestones.some((m) => m.id === k));
      const groups = [
        ...ms.map((m) => ({ id: m.id, title: m.title, rank: m.rank })),
        ...orphanIds.map((id) => ({ id, title: id === "" ? "(no milestone)" : `${id} (unknown milestone)`, rank: 0 })),
      ];
      return groups.map((m) => {
        const row = rows.get(m.rank) ?? 0;
        rows.set(m.rank, row + 1);
        return {
          id: `milestone:${m.id}`,
          type: "milestone",
          position: { x: m.rank * 260, y: row * 64 },
          data: { id: m.id, title: m.title, total: counts.get(m.id) ?? 0 },
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          ariaLabel: `Milestone ${m.title || m.id}, ${counts.get(m.id) ?? 0} issues; press Enter to open`,
        } satisfies Node<MilestoneNodeData>;
      });
    }
    return layout.nodes.map((n) => {
      const issue = byId.get(n.id)!;
      return {
        id: n.id,
        type: "issue",
        position: { x: n.x, y: n.y + 28 },
        data: {
          id: n.id,
          title: issue.title,
          status: issue.status,
          conflicts: partners.get(n.id)?.length ?? 0,
          highlight: highlightOf(n.id),
        },
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        ariaLabel: `${n.id} ${issue.title}, ${issue.status}, wave ${issue.wave}`,
      } satisfies Node<IssueNodeData>;
    });
  }, [collapsed, plan, layout, byId, partners, highlightOf]);

  const edges = useMemo<Edge[]>(() => {
    if (collapsed) return plan.milestone_edges.map((e) => ({ id: `m:${e.from}->${e.to}`, source: `milestone:${e.from}`, target: `milestone:${e.to}` }));
    const shown = new Set(layout.nodes.map((n) => n.id));
    const dep: Edge[] = plan.edges
      .filter((e) => shown.has(e.from) && shown.has(e.to))
      .map((e) => {
        const lit = selected && [e.from, e.to].every((x) => x === selected || chain?.up.has(x) || chain?.down.has(x));
        return {
          id: `${e.from}->${e.to}`,
          source: e.from,
          target: e.to,
          animated: !!lit,
          style: selected ? { opacity: lit ? 1 : 0.15, strokeWidth: lit ? 2 : 1 } : undefined,
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
            style: { stroke: "#dc2626", strokeDasharray: "6 4" },
          }))
      : [];
    return [...dep, ...conflictEdges];
  }, [collapsed, plan, layout, selected, chain, partners]);

  const focusNode = useCallback(
    (id: string) => {
      const n = layout.nodes.find((x) => x.id === id);
      if (!n) return;
      setSelected(id);
      void flow.setCenter(n.x + NODE_WIDTH / 2, n.y + 28 + NODE_HEIGHT / 2, { zoom: Math.max(flow.getZoom(), 0.9), duration: 300 });
      requestAnimationFrame(() => {
        const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
        el?.focus();
      });
    },
    [layout, flow],
  );

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
      const n = layout.nodes.find((x) => x.id === id);
      if (!n) return undefined;
      const colIndex = layout.columns.findIndex((c) => c.key === n.column);
      const col: WaveColumn = layout.columns[colIndex];
      if (key === "ArrowUp") return col.ids[n.row - 1];
      if (key === "ArrowDown") return col.ids[n.row + 1];
      const other = layout.columns[colIndex + (key === "ArrowRight" ? 1 : -1)];
      return other ? other.ids[Math.min(n.row, other.ids.length - 1)] : undefined;
    },
    [layout],
  );

  const onKeyDown = (e: React.KeyboardEvent) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node");
    const id = el?.dataset.id;
    if (!id) return;
    if (id.startsWith("milestone:")) {
      if (e.key === "Enter") setMilestone(id.slice("milestone:".length));
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      router.push(`/issues/${encodeURIComponent(id)}`);
    } else if (e.key === " ") {
      e.preventDefault();
      setSelected((s) => (s === id ? null : id));
    } else if (e.key === "Escape") {
      setSelected(null);
    } else if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      const next = neighbour(id, e.key);
      if (next) focusNode(next);
    }
  };

  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return plan.issues.filter((i) => i.id.toLowerCase().includes(q) || i.title.toLowerCase().includes(q)).slice(0, 8);
  }, [query, plan]);

  const openMatch = (issue: PlanIssue) => {
    if (!include(issue)) {
      setMilestone(issue.milestone);
      setHidden(new Set());
    }
    setQuery("");
    // The node exists once the filter has been applied.
    setTimeout(() => focusNode(issue.id), 50);
  };

  const groups = useMemo(() => groupByPath(pairs), [pairs]);
  const milestoneIds = useMemo(() => [...new Set(plan.issues.map((i) => i.milestone))].sort(), [plan]);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-4 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600 dark:text-slate-400">Milestone</span>
          <select
            value={milestone}
            onChange={(e) => setMilestone(e.target.value)}
            className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
            data-testid="milestone-filter"
          >
            <option value="">{plan.issues.length > COLLAPSE_ABOVE ? "All (collapsed by milestone)" : "All milestones"}</option>
            {milestoneIds.map((m) => (
              <option key={m} value={m}>
                {plan.milestones.find((x) => x.id === m)?.title || m || "(no milestone)"}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="text-xs text-slate-600 dark:text-slate-400">Status</legend>
          {ISSUE_STATUS_ORDER.map((s) => (
            <label key={s} className="flex items-center gap-1 text-xs">
              <input
                type="checkbox"
                checked={!hidden.has(s)}
                onChange={() =>
                  setHidden((h) => {
                    const next = new Set(h);
                    if (next.has(s)) next.delete(s);
                    else next.add(s);
                    return next;
                  })
                }
              />
              <span className={`inline-block h-3 w-3 rounded-sm ${ISSUE_STATUS_STYLE[s].bar}`} aria-hidden />
              {s}
            </label>
          ))}
        </fieldset>
        <div className="relative">
          <label className="flex flex-col gap-1">
            <span className="text-xs text-slate-600 dark:text-slate-400">Search (press /)</span>
            <input
              ref={searchRef}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && matches[0]) openMatch(matches[0]);
                if (e.key === "Escape") setQuery("");
              }}
              placeholder="id or title"
              className="w-56 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
              data-testid="waves-search"
              aria-controls={matches.length > 0 ? "search-results" : undefined}
            />
          </label>
          {matches.length > 0 && (
            <ul id="search-results" className="absolute z-10 mt-1 w-80 rounded border border-slate-300 bg-white text-xs shadow dark:border-slate-700 dark:bg-slate-900">
              {matches.map((m) => (
                <li key={m.id}>
                  <button type="button" className="w-full px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => openMatch(m)}>
                    <span className="font-mono">{m.id}</span> {m.title}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="ml-auto flex gap-2">
          <button type="button" onClick={() => setView(view === "graph" ? "list" : "graph")} className="rounded border border-slate-300 px-2 py-1 text-xs dark:border-slate-700">
            {view === "graph" ? "Show as list" : "Show as graph"}
          </button>
          <button type="button" onClick={() => download("waves.mmd", toMermaid(plan, visibleIssues))} className="rounded border border-slate-300 px-2 py-1 text-xs dark:border-slate-700" data-testid="export-mermaid">
            Export Mermaid
          </button>
          <button type="button" onClick={() => download("waves.dot", toDot(plan, visibleIssues))} className="rounded border border-slate-300 px-2 py-1 text-xs dark:border-slate-700" data-testid="export-dot">
            Export DOT
          </button>
        </div>
      </div>

      <ul className="flex flex-wrap gap-3 text-xs text-slate-700 dark:text-slate-300" aria-label="Legend">
        {ISSUE_STATUS_ORDER.map((s) => (
          <li key={s} className="flex items-center gap-1">
            <span className={`inline-block h-3 w-3 rounded-sm ${ISSUE_STATUS_STYLE[s].bar}`} aria-hidden />
            {s}: {ISSUE_STATUS_STYLE[s].label}
          </li>
        ))}
        <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-sky-500" aria-hidden />waits on (selected)</li>
        <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-orange-500" aria-hidden />unblocked by finishing it</li>
        <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-full bg-red-700" aria-hidden />scope conflicts</li>
      </ul>

      <div className="grid gap-4 lg:grid-cols-[1fr_18rem]">
        <div>
          {collapsed && (
            <p className="mb-2 text-sm text-slate-700 dark:text-slate-300" data-testid="collapsed-note">
              {plan.issues.length} issues: the graph starts collapsed by milestone. Open a milestone (click, or Enter) to see its issues.
            </p>
          )}
          {view === "graph" && (
            <div className="h-[560px] w-full rounded border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950" onKeyDown={onKeyDown} data-testid="waves-graph" data-node-count={nodes.length}>
              <ReactFlow
                nodes={nodes}
                edges={edges}
                nodeTypes={nodeTypes}
                nodesDraggable={false}
                nodesConnectable={false}
                elementsSelectable
                onNodeClick={(_, n) => {
                  if (n.id.startsWith("milestone:")) setMilestone(n.id.slice("milestone:".length));
                  else setSelected((s) => (s === n.id ? null : n.id));
                }}
                onNodeDoubleClick={(_, n) => {
                  if (!n.id.startsWith("milestone:")) router.push(`/issues/${encodeURIComponent(n.id)}`);
                }}
                onPaneClick={() => setSelected(null)}
                fitView
                minZoom={0.05}
                proOptions={{ hideAttribution: true }}
              >
                <Background />
                <Controls showInteractive={false} />
              </ReactFlow>
            </div>
          )}
          <section aria-label="Issues by wave, as a list" className={view === "list" ? "" : "sr-only"} data-testid="waves-list">
            {layout.columns.map((c) => (
              <div key={String(c.key)} id={c.key === "cycle" ? "cycle" : `wave-${c.key}`} className="mb-3">
                <h3 className="text-sm font-semibold">{c.label}</h3>
                <ul className="ml-4 list-disc text-sm">
                  {c.ids.map((id) => {
                    const i = byId.get(id)!;
                    return (
                      <li key={id}>
                        <Link href={`/issues/${encodeURIComponent(id)}`} className="font-mono text-blue-700 underline dark:text-blue-300">{id}</Link> {i.status} — {i.title}
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
          {selected && byId.get(selected) && (
            <div className="rounded border border-slate-200 p-3 dark:border-slate-800" data-testid="selection">
              <div className="flex items-center gap-2">
                <Link href={`/issues/${encodeURIComponent(selected)}`} className="font-mono font-semibold text-blue-700 underline dark:text-blue-300">{selected}</Link>
                <button type="button" className="ml-auto text-xs underline" onClick={() => setSelected(null)}>clear</button>
              </div>
              <p className="text-xs">{byId.get(selected)!.title}</p>
              <p className="mt-1 text-xs">Waits on {chain?.up.size ?? 0} · unblocks {chain?.down.size ?? 0} · conflicts {partners.get(selected)?.length ?? 0}</p>
            </div>
          )}
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
                        <button type="button" className="font-mono text-blue-700 underline dark:text-blue-300" onClick={() => openMatch(byId.get(p.a)!)}>{p.a}</button>
                        {" ↔ "}
                        <button type="button" className="font-mono text-blue-700 underline dark:text-blue-300" onClick={() => openMatch(byId.get(p.b)!)}>{p.b}</button>
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
