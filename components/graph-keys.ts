import type { ReactFlowInstance } from "@xyflow/react";
import type { KeyboardEvent } from "react";

// The keys both graphs answer the same way when they have focus: + and - zoom, the arrow keys pan.

const PAN_STEP_PX = 120;
const PAN: Record<string, [number, number]> = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

/** + (or =) and - zoom the graph; whether the key was one of them. */
export function zoomByKey(flow: Pick<ReactFlowInstance, "zoomIn" | "zoomOut">, e: KeyboardEvent): boolean {
  if (e.key !== "+" && e.key !== "=" && e.key !== "-") return false;
  e.preventDefault();
  void (e.key === "-" ? flow.zoomOut({ duration: 0 }) : flow.zoomIn({ duration: 0 }));
  return true;
}

/** An arrow key pans the graph by a step; whether the key was one. */
export function panByKey(flow: Pick<ReactFlowInstance, "getViewport" | "setViewport">, e: KeyboardEvent): boolean {
  const step = PAN[e.key];
  if (!step) return false;
  e.preventDefault();
  const v = flow.getViewport();
  void flow.setViewport({ x: v.x + step[0] * PAN_STEP_PX, y: v.y + step[1] * PAN_STEP_PX, zoom: v.zoom });
  return true;
}
