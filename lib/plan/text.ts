/**
 * Byte-wise (UTF-8) comparison of two strings, the order `LC_ALL=C sort` and Rust's `str::cmp` use.
 * JavaScript's `<` compares UTF-16 code units, which differs only when a surrogate pair meets a
 * character from U+E000 to U+FFFF; that case is corrected here.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

/** Strings sorted in byte order, without duplicates. */
export function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareBytes);
}
