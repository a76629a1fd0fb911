"use client";

import { useMemo } from "react";
import { groupByPath, type ScopePair } from "@/lib/graph/conflicts";
import type { PlanIssue } from "@/lib/plan/shapes";

/** The scope conflicts beside the graph, grouped by the shared path; a link shows the issue on the graph. */
export function ConflictList({ pairs, byId, onPick }: { pairs: ScopePair[]; byId: ReadonlyMap<string, PlanIssue>; onPick: (issue: PlanIssue) => void }) {
  const groups = useMemo(() => groupByPath(pairs), [pairs]);
  const link = "font-mono text-blue-700 underline dark:text-blue-300";
  return (
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
                    <button type="button" className={link} onClick={() => onPick(byId.get(p.a)!)}>
                      {p.a}
                    </button>
                    {" ↔ "}
                    <button type="button" className={link} onClick={() => onPick(byId.get(p.b)!)}>
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
  );
}
