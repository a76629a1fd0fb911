import { showBidi } from "../plan/control-chars";
import { mapStrings } from "./map-strings";

// Record text in a page's HTML. The browser's parser drops a NUL from a page's text (and reads it
// as U+FFFD in attributes), so a value made only of NULs leaves no text node for React to hydrate
// and the page fails with a hydration error. Pages show U+FFFD, the character the parser would.

const NUL = /\u0000/g;

/**
 * A value for a page: every NUL in every string (keys too) shown as U+FFFD, and every bidirectional
 * control or line separator a hand-written record holds shown as a mark (`⟨U+202E⟩`), so the text
 * reads in the order it was written; nothing else changes.
 */
export function pageText<T>(value: T): T {
  return mapStrings(value, (text) => showBidi(text.includes("\u0000") ? text.replace(NUL, "\uFFFD") : text));
}
