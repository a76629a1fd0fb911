"use client";

import { ISSUE_STATUS_ORDER, ISSUE_STATUS_STYLE } from "../status";
import { CodeMarkLegend } from "./CodeMark";

// What every mark of the graph means.

export interface LegendProps {
  critical: string[];
  showCritical: boolean;
  /** The first issue of the critical path that is drawn, to go to; undefined when none is. */
  criticalStart: string | undefined;
  onCriticalStart: (id: string) => void;
}

export function Legend({ critical, showCritical, criticalStart, onCriticalStart }: LegendProps) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700 dark:text-slate-300" aria-label="Legend">
      {ISSUE_STATUS_ORDER.map((s) => (
        <li key={s} className="flex items-center gap-1">
          <span className={`inline-block h-3 w-3 rounded-sm ${ISSUE_STATUS_STYLE[s].bar}`} aria-hidden />
          {s}: {ISSUE_STATUS_STYLE[s].label}
        </li>
      ))}
      <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-sky-500" aria-hidden />waits on (selected)</li>
      <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-orange-500" aria-hidden />unblocked by finishing it</li>
      <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-4 ring-fuchsia-500" aria-hidden />the selected issue</li>
      <li className="flex items-center gap-1"><span className="inline-block h-3 w-3 rounded-sm ring-2 ring-red-500" aria-hidden />shares a path with the selected issue (dashed red line)</li>
      <li className="flex items-center gap-1" data-testid="conflict-legend">
        <span className="rounded-full bg-red-700 px-1.5 text-[13px] font-semibold text-white" aria-hidden>
          2
        </span>
        red count on a card: how many scope conflicts it has (issues of its wave sharing a path)
      </li>
      <li className="flex items-center gap-1" data-testid="edit-hint">
        <span className="inline-block h-3 w-3 rounded-full border-2 border-white bg-slate-600 ring-1 ring-slate-400" aria-hidden />
        to add a dependency, drag from an issue&apos;s right handle onto the issue that waits on it (arrows run from a dependency to what waits on it); select an arrow and press Delete to remove one
      </li>
      <CodeMarkLegend />
      <li className="flex items-center gap-1" data-testid="unsealed-legend">
        <span className="rounded border border-amber-500 bg-amber-50 px-1 text-xs font-semibold text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50" aria-hidden>
          unsealed
        </span>
        its stamps do not count (no seal): cockpit plan adopt admits stamps written before seals existed
      </li>
      <li className="flex items-center gap-1" data-testid="critical-legend">
        <span className="inline-block h-3 w-4 rounded-sm outline outline-[3px] outline-violet-600 dark:outline-violet-400" aria-hidden />
        <span className="inline-block h-1 w-4 bg-violet-600" aria-hidden />
        purple outline and thick purple arrows: the critical path, the longest chain of unfinished work{critical.length ? ` (${critical.length} issues${showCritical ? "" : ", hidden"})` : " (nothing unfinished)"}
        {showCritical && criticalStart && (
          <button type="button" className="underline" onClick={() => onCriticalStart(criticalStart)} data-testid="critical-start">
            go to its start
          </button>
        )}
      </li>
    </ul>
  );
}
