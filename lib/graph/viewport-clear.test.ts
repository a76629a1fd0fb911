import { describe, expect, it } from "vitest";
import { viewportClearOf, type Box, type Rect, type Viewport } from "./viewport";

// The graph's edit dialog never covers the cards the edit names: the view that puts them clear of it.

const onScreen = (b: Box, v: Viewport): Rect => ({ left: b.x * v.zoom + v.x, top: b.y * v.zoom + v.y, right: (b.x + b.width) * v.zoom + v.x, bottom: (b.y + b.height) * v.zoom + v.y });
const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const inside = (a: Rect, pane: { width: number; height: number }) => a.left >= 0 && a.top >= 0 && a.right <= pane.width && a.bottom <= pane.height;

describe("viewportClearOf", () => {
  const pane = { width: 1200, height: 560 };
  const dialog: Rect = { left: 708, top: 12, right: 1188, bottom: 400 };
  const card = (x: number, y: number): Box => ({ x, y, width: 220, height: 60 });

  it("leaves the view alone when no card is under the dialog", () => {
    expect(viewportClearOf([card(0, 0), card(300, 100)], pane, dialog, { x: 20, y: 20, zoom: 1 })).toBeUndefined();
  });

  it("cards on both sides of the pane go into the room beside the dialog, zoomed out only as they must", () => {
    const now = { x: 0, y: 0, zoom: 1 };
    const cards = [card(40, 40), card(900, 300)];
    const next = viewportClearOf(cards, pane, dialog, now)!;
    expect(next.zoom).toBeLessThanOrEqual(1);
    for (const c of cards) {
      expect(overlaps(onScreen(c, next), dialog)).toBe(false);
      expect(inside(onScreen(c, next), pane)).toBe(true);
    }
  });

  it("a phone's bottom sheet: the cards go above it", () => {
    const phone = { width: 370, height: 460 };
    const sheet: Rect = { left: 8, top: 222, right: 362, bottom: 452 };
    const cards = [card(0, 0), card(400, 200)];
    const next = viewportClearOf(cards, phone, sheet, { x: 0, y: 0, zoom: 1 })!;
    for (const c of cards) {
      const r = onScreen(c, next);
      expect(r.bottom).toBeLessThanOrEqual(sheet.top);
      expect(inside(r, phone)).toBe(true);
    }
  });

  it("a pane taller than the window, the page scrolled: the cards go into the part on screen, above a sheet fixed to the window", () => {
    // The pane runs 348 px below the window's top to 948 (the window is 844 high); the sheet covers
    // the window's bottom from 591, so the room is 0..243 of the pane.
    const tall = { width: 374, height: 600 };
    const visible: Rect = { left: 0, top: 0, right: 374, bottom: 496 };
    const sheet: Rect = { left: 8, top: 243, right: 350, bottom: 497 };
    const cards = [card(0, 0), card(0, 240)];
    const next = viewportClearOf(cards, tall, sheet, { x: 0, y: 0, zoom: 1 }, 12, visible)!;
    for (const c of cards) {
      const r = onScreen(c, next);
      expect(r.bottom).toBeLessThanOrEqual(sheet.top);
      expect(r.top).toBeGreaterThanOrEqual(0);
    }
  });
});
