"use client";

import { Background, Controls, MiniMap, type MiniMapProps } from "@xyflow/react";

// What both graphs share around their nodes: how far they zoom, their "fit all", and the
// background, zoom buttons and minimap they draw.

/** The props of both graphs' ReactFlow: out far enough for a whole 10k-issue plan, no attribution. */
export const GRAPH_VIEW = { minZoom: 0.02, maxZoom: 2.5, proOptions: { hideAttribution: true } } as const;

/** Every node in view, however small that makes them. */
export const FIT_ALL = { padding: 0.04, minZoom: GRAPH_VIEW.minZoom, duration: 200 } as const;

/**
 * The background, the zoom buttons (no fit-view: each graph has its own) and a minimap that pans
 * and zooms, unless `minimap` is false (the waves graph hides it where it would cover a node).
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
