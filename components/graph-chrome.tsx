"use client";

import { Background, Controls, MiniMap, type MiniMapProps } from "@xyflow/react";
import { useState } from "react";
import { meetsOnScreen, type Box, type Viewport } from "@/lib/graph/viewport";

// What both graphs share around their nodes: how far they zoom, their "fit all", and the
// background, zoom buttons and minimap they draw.

/** The props of both graphs' ReactFlow: out far enough for a whole 10k-issue plan, no attribution. */
export const GRAPH_VIEW = { minZoom: 0.02, maxZoom: 2.5, proOptions: { hideAttribution: true } } as const;

/** Every node in view, however small that makes them. */
export const FIT_ALL = { padding: 0.04, minZoom: GRAPH_VIEW.minZoom, duration: 200 } as const;

/** The minimap's box in the pane's bottom right corner (React Flow's 200 × 150, 15 px in), with a margin. */
export const minimapBox = (pane: HTMLElement) => ({ x: pane.clientWidth - 225, y: pane.clientHeight - 175, width: 225, height: 175 });

/** A pane narrower than this (a phone) starts with the minimap hidden. */
export const MINIMAP_MIN_PANE_PX = 640;

/** Whether a graph's first view starts with its minimap: on a pane wider than a phone's, when no node of that view lies under it. */
export const minimapStartsShown = (pane: HTMLElement | null, boxes: readonly Box[], view: Viewport) =>
  !!pane && pane.clientWidth >= MINIMAP_MIN_PANE_PX && !meetsOnScreen(boxes, view, minimapBox(pane));

/**
 * Whether a graph's minimap is shown: as its first view allows (`startsShown`, given with
 * minimapStartsShown once that view is placed) until the reader's button chooses (`toggle`).
 */
export function useMinimapSwitch(): { shown: boolean; startsShown: (fits: boolean) => void; toggle: () => void } {
  const [choice, setChoice] = useState<boolean | null>(null);
  const [fits, setFits] = useState(false);
  const shown = choice ?? fits;
  return { shown, startsShown: setFits, toggle: () => setChoice(!shown) };
}

/**
 * The background, the zoom buttons (no fit-view: each graph has its own) and a minimap that pans
 * and zooms, unless `minimap` is false (each graph hides it where it would cover a node of its first view).
 */
export function GraphChrome({ minimapLabel, nodeColor, minimap = true }: { minimapLabel: string; nodeColor?: MiniMapProps["nodeColor"]; minimap?: boolean }) {
  return (
    <>
      <Background />
      <Controls showInteractive={false} showFitView={false} />
      {minimap && <MiniMap pannable zoomable ariaLabel={minimapLabel} nodeColor={nodeColor} />}
    </>
  );
}
