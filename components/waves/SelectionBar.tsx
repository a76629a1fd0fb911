"use client";

import Link from "@/components/Link";
import { dependencyOf } from "@/lib/graph/flow-elements";
import type { Chain } from "@/lib/graph/flow-elements";
import type { PlanIssue } from "@/lib/plan/shapes";
import { BUTTON } from "./Toolbar";
import type { DependencyEditor } from "./useDependencyEditor";

// The line between the toolbar and the graph: the selected issue (or what the view draws), the
// selected dependency, what the last edit wrote, the tab's undo, "Fit all" and the minimap's switch.

export interface SelectionBarProps {
  selected: PlanIssue | undefined;
  chain: Chain | undefined;
  conflicts: number;
  onClear: () => void;
  /** What the view draws, said when nothing is selected. */
  scopeNote: string;
  editor: DependencyEditor;
  onFitAll: () => void;
  /** Whether the minimap is shown, and the button that shows or hides it. */
  minimap: boolean;
  onMinimap: () => void;
  /** Whether the graph is shown: the list view has no dependency to select, view to fit or minimap. */
  graph: boolean;
}

export function SelectionBar({ selected, chain, conflicts, onClear, scopeNote, editor, onFitAll, minimap, onMinimap, graph }: SelectionBarProps) {
  const { selectedEdge, undo, edit } = editor;
  const chosen = selectedEdge ? dependencyOf(selectedEdge) : undefined;
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-3 text-sm">
      {selected ? (
        <div className="flex flex-wrap items-center gap-2" data-testid="selection">
          <Link href={`/issues/${encodeURIComponent(selected.id)}`} className="font-mono font-semibold text-blue-700 underline dark:text-blue-300">
            {selected.id}
          </Link>
          <span className="max-w-md truncate">{selected.title}</span>
          <span className="text-xs">
            Waits on {chain?.up.size ?? 0} · unblocks {chain?.down.size ?? 0} · conflicts {conflicts}
          </span>
          <button type="button" className="text-xs underline" onClick={onClear}>
            clear
          </button>
        </div>
      ) : (
        <span className="text-xs text-slate-600 dark:text-slate-400" data-testid="scope-note">
          {scopeNote}
        </span>
      )}
      {graph && selectedEdge && chosen && (
        <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="edge-selection">
          <span>
            Dependency <span className="font-mono font-semibold">{chosen.dependency} → {chosen.dependent}</span> selected
            ({chosen.dependent} waits on {chosen.dependency}): Delete removes it
          </span>
          <button type="button" className={BUTTON} onClick={() => editor.proposeRemoval(selectedEdge)} data-testid="edge-remove">
            Remove…
          </button>
        </div>
      )}
      {editor.written && (
        <p role="status" className="text-xs" data-testid="graph-edit-written">
          Written: {editor.written}
        </p>
      )}
      {graph && undo && (
        <button type="button" className={`ml-auto ${BUTTON}`} disabled={edit.busy} onClick={editor.proposeUndo} data-testid="edit-undo" title={`${undo.label} on ${undo.id}`}>
          Undo last edit ({undo.id})
        </button>
      )}
      {graph && (
        <>
          <button type="button" className={`${undo ? "" : "ml-auto "}${BUTTON}`} onClick={onFitAll} data-testid="fit-all">
            Fit all
          </button>
          <button type="button" className={BUTTON} aria-pressed={minimap} onClick={onMinimap} data-testid="minimap-toggle" title={minimap ? "Hide the minimap" : "Show the minimap (it starts hidden when it would cover a node of the first view)"}>
            Minimap
          </button>
        </>
      )}
    </div>
  );
}
