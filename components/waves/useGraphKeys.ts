"use client";

import type { ReactFlowInstance } from "@xyflow/react";
import { useCallback, useEffect, type KeyboardEvent, type RefObject } from "react";

/** The window's key event (React's KeyboardEvent is imported under the same name). */
type WindowKeyEvent = DocumentEventMap["keydown"];
import type { LaneLayout } from "@/lib/graph/lanes";
import { panByKey, zoomByKey } from "../graph-keys";

// The keys of the waves graph: `/` searches from anywhere on the page; with the graph focused,
// + and - zoom, the arrows pan (or walk between nodes), Space selects, Enter opens or toggles.

export interface GraphKeyActions {
  flow: Pick<ReactFlowInstance, "zoomIn" | "zoomOut" | "getViewport" | "setViewport">;
  layout: Pick<LaneLayout, "columns">;
  place: ReadonlyMap<string, { column: number; row: number }>;
  searchRef: RefObject<HTMLInputElement | null>;
  selected: string | null;
  /** Delete on an edge; whether it was handled. */
  onDeleteKey: (e: KeyboardEvent) => boolean;
  toggleLane: (lane: string) => void;
  toggleChip: (id: string) => void;
  open: (id: string) => void;
  select: (id: string | null, how?: "push" | "replace") => void;
  focusNode: (id: string) => void;
}

export function useGraphKeys(a: GraphKeyActions) {
  const { searchRef, layout, place } = a;
  useEffect(() => {
    const onKey = (e: WindowKeyEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key === "/" && !(t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable))) {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [searchRef]);

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

  return (e: KeyboardEvent) => {
    if (a.onDeleteKey(e)) return;
    // + and - zoom wherever the graph has focus; the arrow keys pan it, or move between nodes.
    if (zoomByKey(a.flow, e)) return;
    const el = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node");
    const id = el?.dataset.id;
    if (!id) {
      panByKey(a.flow, e);
      return;
    }
    if (id.startsWith("lane:") || id.startsWith("fold:")) {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (id.startsWith("lane:")) a.toggleLane(id.slice("lane:".length));
        else a.toggleChip(id);
        return;
      }
    } else if (e.key === "Enter") {
      e.preventDefault();
      a.open(id);
      return;
    } else if (e.key === " ") {
      e.preventDefault();
      a.select(a.selected === id ? null : id);
      return;
    } else if (e.key === "Escape") {
      a.select(null);
      return;
    }
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      const next = neighbour(id, e.key);
      if (next) {
        // Walking the graph selects as it goes; one history entry for the walk, not one per step.
        if (!next.startsWith("fold:")) a.select(next, "replace");
        a.focusNode(next);
      }
    }
  };
}
