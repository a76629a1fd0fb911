"use client";

import type { RefObject } from "react";
import { toDot, toMermaid } from "@/lib/graph/export";
import { laneTitle } from "@/lib/graph/lanes";
import type { WavesView } from "@/lib/graph/view-url";
import type { Plan, PlanIssue } from "@/lib/plan/shapes";
import { ISSUE_STATUS_ORDER, ISSUE_STATUS_STYLE } from "../status";
import type { Go } from "./useWavesView";

// The controls above the graph: milestone, statuses, what is shown, search, list and export.

export const BUTTON = "rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800";

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

export interface ToolbarProps {
  plan: Plan;
  view: WavesView;
  go: Go;
  active: string | null;
  milestoneIds: string[];
  visibleIssues: PlanIssue[];
  matches: PlanIssue[];
  onPick: (issue: PlanIssue) => void;
  searchRef: RefObject<HTMLInputElement | null>;
  display: "graph" | "list";
  onDisplay: (display: "graph" | "list") => void;
}

export function Toolbar({ plan, view, go, active, milestoneIds, visibleIssues, matches, onPick, searchRef, display, onDisplay }: ToolbarProps) {
  const shownStatuses = view.statuses ?? [...ISSUE_STATUS_ORDER];
  return (
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
        className={BUTTON}
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
      <fieldset className="flex flex-wrap items-center gap-3 text-xs">
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
              if (e.key === "Enter" && matches[0]) onPick(matches[0]);
              if (e.key === "Escape") go({ q: "" }, "replace");
            }}
            placeholder="id or title"
            className="w-48 rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
            data-testid="waves-search"
            aria-controls={matches.length > 0 ? "search-results" : undefined}
          />
        </label>
        {matches.length > 0 && (
          <ul id="search-results" className="absolute z-10 mt-1 w-80 max-w-[calc(100vw-2rem)] rounded border border-slate-300 bg-white text-xs shadow dark:border-slate-700 dark:bg-slate-900">
            {matches.map((m) => (
              <li key={m.id}>
                <button type="button" className="w-full px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => onPick(m)}>
                  <span className="font-mono">{m.id}</span> {m.title}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="ml-auto flex flex-wrap gap-2">
        <button type="button" onClick={() => onDisplay(display === "graph" ? "list" : "graph")} className={BUTTON}>
          {display === "graph" ? "Show as list" : "Show as graph"}
        </button>
        <button type="button" onClick={() => download("waves.mmd", toMermaid(plan, visibleIssues))} className={BUTTON} data-testid="export-mermaid">
          Export Mermaid
        </button>
        <button type="button" onClick={() => download("waves.dot", toDot(plan, visibleIssues))} className={BUTTON} data-testid="export-dot">
          Export DOT
        </button>
      </div>
    </div>
  );
}
