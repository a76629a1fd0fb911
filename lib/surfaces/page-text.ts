// Record text in a page's HTML. The browser's parser drops a NUL from a page's text (and reads it
// as U+FFFD in attributes), so a value made only of NULs leaves no text node for React to hydrate
// and the page fails with a hydration error. Pages show U+FFFD, the character the parser would.

const NUL = /\u0000/g;

/** A value for a page: every NUL in every string (keys too) shown as U+FFFD; nothing else changes. */
export function pageText<T>(value: T): T {
  if (typeof value === "string") return (value.includes("\u0000") ? value.replace(NUL, "\uFFFD") : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => pageText(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[pageText(k)] = pageText(v);
    return out as T;
  }
  return value;
}
