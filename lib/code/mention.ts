// The mention rule (docs/code-links.md): an issue id occurs in a text, compared without regard to
// case, with no ASCII letter or digit right before it, and right after it neither an ASCII letter
// or digit nor a "." followed by one. So "feature/BK-020" mentions BK-020; "BK-0200" does not.

const isAlnum = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Whether `text` mentions `id` under the rule above. */
export function isMentioned(text: string, id: string): boolean {
  return new MentionMatcher([id]).find(text).length > 0;
}

/**
 * Finds every id of a fixed set mentioned in a text. Built once per set of ids: each text is then
 * scanned once, looking up the substrings that start where a mention may start, one per id length.
 */
export class MentionMatcher {
  private readonly byLower = new Map<string, string[]>();
  private readonly lengths: number[];
  private readonly firsts = new Set<string>();

  constructor(ids: Iterable<string>) {
    for (const id of ids) {
      if (id === "") continue;
      const lower = id.toLowerCase();
      const same = this.byLower.get(lower);
      if (same) {
        if (!same.includes(id)) same.push(id);
      } else this.byLower.set(lower, [id]);
      this.firsts.add(lower[0]);
    }
    this.lengths = [...new Set([...this.byLower.keys()].map((k) => k.length))].sort((a, b) => a - b);
  }

  /** The ids `text` mentions, each once, in the order of their first mention. */
  find(text: string): string[] {
    if (this.byLower.size === 0 || text === "") return [];
    const lower = text.toLowerCase();
    // toLowerCase keeps the length of ASCII text; a text it changes in length is matched char by char.
    const sameLength = lower.length === text.length;
    const source = sameLength ? lower : text;
    let found: string[] | undefined;
    for (let p = 0; p < source.length; p++) {
      if (p > 0 && isAlnum(text.charCodeAt(p - 1))) continue;
      const first = source[p];
      if (!this.firsts.has(first) && (sameLength || !this.firsts.has(first.toLowerCase()))) continue;
      for (const length of this.lengths) {
        if (p + length > source.length) break;
        const piece = source.slice(p, p + length);
        const ids = this.byLower.get(sameLength ? piece : piece.toLowerCase());
        if (!ids || !isEndOfMention(text, p + length)) continue;
        found ??= [];
        for (const id of ids) if (!found.includes(id)) found.push(id);
      }
    }
    return found ?? [];
  }
}

/** Whether a mention may end right before `end`: no letter or digit there, nor a "." and one. */
function isEndOfMention(text: string, end: number): boolean {
  if (end >= text.length) return true;
  const next = text.charCodeAt(end);
  if (isAlnum(next)) return false;
  return !(next === 46 && end + 1 < text.length && isAlnum(text.charCodeAt(end + 1)));
}
