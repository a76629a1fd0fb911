// The first view of a graph: everything, when it fits at a zoom where its text stays readable;
// otherwise readable text, starting at the anchor (the first wave, or the issue in focus).

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** The smallest text a first view may draw, in screen pixels. */
export const MIN_SCREEN_TEXT_PX = 12;

/** The zoom at which text of `fontPx` is drawn `MIN_SCREEN_TEXT_PX` high (rounded up a little). */
export const readableZoom = (fontPx: number) => Math.ceil((MIN_SCREEN_TEXT_PX / fontPx) * 100) / 100;

export interface FirstViewOptions {
  /** The zoom below which the text is unreadable. */
  minZoom: number;
  /** Never magnify more than this, even for a tiny graph. */
  maxZoom: number;
  /** Screen pixels kept free around the graph. */
  padding: number;
  /**
   * Where to start when everything does not fit: a box to centre (the issue in focus), or
   * undefined to start at the graph's top-left corner (the first wave).
   */
  anchor?: Box;
  /**
   * Where to start when everything does not fit and there is no anchor: the point of the graph put
   * at the pane's top-left corner, inside the padding (default: the graph's own top-left corner).
   */
  start?: { x: number; y: number };
}

/** Whether a box of the graph, drawn at `viewport`, meets `screen` (a rectangle of the pane, in its pixels). */
export function meetsOnScreen(boxes: readonly Box[], viewport: Viewport, screen: Box): boolean {
  const { x, y, zoom } = viewport;
  return boxes.some((b) => {
    const left = b.x * zoom + x;
    const top = b.y * zoom + y;
    return left < screen.x + screen.width && left + b.width * zoom > screen.x && top < screen.y + screen.height && top + b.height * zoom > screen.y;
  });
}

/**
 * The viewport (React Flow's: screen = flow × zoom + x/y) of the first view of `bounds` in a pane
 * of `pane` pixels. Fits everything when the fitting zoom is readable; else zooms to `minZoom`
 * and shows the anchor.
 */
export function firstViewport(bounds: Box, pane: { width: number; height: number }, options: FirstViewOptions): Viewport {
  const { minZoom, maxZoom, padding, anchor, start = bounds } = options;
  const room = { width: Math.max(1, pane.width - 2 * padding), height: Math.max(1, pane.height - 2 * padding) };
  const fit = Math.min(room.width / Math.max(1, bounds.width), room.height / Math.max(1, bounds.height));
  if (fit >= minZoom) {
    const zoom = Math.min(fit, maxZoom);
    return {
      x: pane.width / 2 - (bounds.x + bounds.width / 2) * zoom,
      y: pane.height / 2 - (bounds.y + bounds.height / 2) * zoom,
      zoom,
    };
  }
  const zoom = minZoom;
  if (anchor) {
    return {
      x: pane.width / 2 - (anchor.x + anchor.width / 2) * zoom,
      y: pane.height / 2 - (anchor.y + anchor.height / 2) * zoom,
      zoom,
    };
  }
  return { x: padding - start.x * zoom, y: padding - start.y * zoom, zoom };
}

/**
 * Where a first view that does not fit starts so that it shows open work, not only finished work:
 * the graph's top, from the column of the first open box (leftmost, then topmost), a margin to its
 * left; lowered to that box when the top would leave it below the pane at `zoom`. Undefined when
 * there is no open box (the graph's own corner then).
 */
export function openWorkStart(bounds: Box, open: readonly Box[], paneHeight: number, zoom: number, margin = 24): { x: number; y: number } | undefined {
  const first = [...open].sort((a, b) => a.x - b.x || a.y - b.y)[0];
  if (!first) return undefined;
  const x = Math.max(bounds.x, first.x - margin);
  const below = (first.y + first.height - bounds.y) * zoom > paneHeight - 2 * margin;
  return { x, y: below ? Math.max(bounds.y, first.y - margin) : bounds.y };
}

/** The viewport as the URL carries it: `x,y,zoom` (whole pixels, zoom to 3 decimals). */
export function formatViewport(v: Viewport): string {
  return `${Math.round(v.x)},${Math.round(v.y)},${Math.round(v.zoom * 1000) / 1000}`;
}

/** `x,y,zoom` back into a viewport; undefined for anything else (a bad link falls back to the first view). */
export function parseViewport(text: string | null | undefined): Viewport | undefined {
  if (!text) return undefined;
  const parts = text.split(",");
  if (parts.length !== 3 || parts.some((p) => p.trim() === "")) return undefined;
  const [x, y, zoom] = parts.map(Number);
  if (![x, y, zoom].every(Number.isFinite) || zoom <= 0 || zoom > 8) return undefined;
  return { x, y, zoom };
}

/** Two viewports the same once written into the URL. */
export const sameViewport = (a: Viewport, b: Viewport) => formatViewport(a) === formatViewport(b);

/** A rectangle in the pane's pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * The view that puts `cards` (boxes in the graph's coordinates) clear of a dialog drawn at
 * `dialog` over a pane of `pane` size, or undefined when none of them lies under it now. The
 * cards go to the middle of the largest room the dialog leaves (beside it, or above a bottom
 * sheet), zoomed out only as far as they need to fit there; never zoomed in. `visible` is the
 * part of the pane on screen (a phone's page scrolled, or a pane taller than the window): the
 * rooms lie inside it, since a sheet fixed to the window's bottom leaves only what is above it.
 */
export function viewportClearOf(
  cards: readonly Box[],
  pane: { width: number; height: number },
  dialog: Rect,
  current: Viewport,
  margin = 12,
  visible: Rect = { left: 0, top: 0, right: pane.width, bottom: pane.height },
): Viewport | undefined {
  if (cards.length === 0) return undefined;
  const onScreen = (b: Box): Rect => ({
    left: b.x * current.zoom + current.x,
    top: b.y * current.zoom + current.y,
    right: (b.x + b.width) * current.zoom + current.x,
    bottom: (b.y + b.height) * current.zoom + current.y,
  });
  const covered = cards.some((b) => overlaps(onScreen(b), dialog));
  const shown = cards.every((b) => {
    const r = onScreen(b);
    return r.left >= visible.left && r.top >= visible.top && r.right <= visible.right && r.bottom <= visible.bottom;
  });
  if (!covered && shown) return undefined;
  const { left: l, top: t, right: r, bottom: b } = visible;
  const rooms: Rect[] = [
    { left: l, top: t, right: Math.min(r, dialog.left), bottom: b },
    { left: Math.max(l, dialog.right), top: t, right: r, bottom: b },
    { left: l, top: t, right: r, bottom: Math.min(b, dialog.top) },
    { left: l, top: Math.max(t, dialog.bottom), right: r, bottom: b },
  ];
  const area = (r: Rect) => Math.max(0, r.right - r.left - 2 * margin) * Math.max(0, r.bottom - r.top - 2 * margin);
  const room = rooms.reduce((a, b) => (area(b) > area(a) ? b : a));
  const left = Math.min(...cards.map((b) => b.x));
  const top = Math.min(...cards.map((b) => b.y));
  const width = Math.max(...cards.map((b) => b.x + b.width)) - left;
  const height = Math.max(...cards.map((b) => b.y + b.height)) - top;
  const roomWidth = Math.max(1, room.right - room.left - 2 * margin);
  const roomHeight = Math.max(1, room.bottom - room.top - 2 * margin);
  const zoom = Math.min(current.zoom, roomWidth / width, roomHeight / height);
  return {
    x: room.left + margin + (roomWidth - width * zoom) / 2 - left * zoom,
    y: room.top + margin + (roomHeight - height * zoom) / 2 - top * zoom,
    zoom,
  };
}
