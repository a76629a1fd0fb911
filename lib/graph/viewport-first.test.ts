import { describe, expect, it } from "vitest";
import { firstViewport, openWorkStart, type Box } from "./viewport";

// A first view that does not fit starts where the open work is: a phone no longer opens on the
// finished chips of the first waves.

const card = (x: number, y: number): Box => ({ x, y, width: 220, height: 60 });
const bounds: Box = { x: 0, y: 0, width: 2000, height: 400 };
const phone = { width: 358, height: 560 };
const options = { minZoom: 0.93, maxZoom: 1.25, padding: 24 };
/** Whether a box drawn at the view lies wholly inside the pane. */
const inView = (b: Box, v: { x: number; y: number; zoom: number }) =>
  b.x * v.zoom + v.x >= 0 && (b.x + b.width) * v.zoom + v.x <= phone.width && b.y * v.zoom + v.y >= 0 && (b.y + b.height) * v.zoom + v.y <= phone.height;

describe("openWorkStart", () => {
  it("starts at the column of the first open card, the graph's top kept", () => {
    const open = [card(900, 120), card(600, 200), card(600, 80)];
    expect(openWorkStart(bounds, open, phone.height, options.minZoom)).toEqual({ x: 576, y: 0 });
    const view = firstViewport(bounds, phone, { ...options, start: openWorkStart(bounds, open, phone.height, options.minZoom) });
    expect(inView(card(600, 80), view)).toBe(true);
    // Without it the view opens on the graph's corner, where only finished work was.
    expect(inView(card(600, 80), firstViewport(bounds, phone, options))).toBe(false);
  });

  it("lowers the start to the card when the top would leave it below the pane", () => {
    const tall: Box = { x: 0, y: 0, width: 2000, height: 3000 };
    const start = openWorkStart(tall, [card(300, 1500)], phone.height, options.minZoom)!;
    expect(start).toEqual({ x: 276, y: 1476 });
    expect(inView(card(300, 1500), firstViewport(tall, phone, { ...options, start }))).toBe(true);
  });

  it("is undefined when nothing is open, and a view that fits ignores it", () => {
    expect(openWorkStart(bounds, [], phone.height, options.minZoom)).toBeUndefined();
    const small: Box = { x: 0, y: 0, width: 300, height: 200 };
    const wide = { width: 1200, height: 560 };
    expect(firstViewport(small, wide, { ...options, start: { x: 250, y: 0 } })).toEqual(firstViewport(small, wide, options));
  });
});
