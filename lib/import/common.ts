import type { Dropped, Skip } from "./shapes";

// Helpers every parser shares: losses counted by name, stamps in the plan's form, text to lists.

/** Dropped fields and links, counted by what; kept in the order first met. */
export class DropCounter {
  private readonly byWhat = new Map<string, Dropped>();

  add(what: string, why: string, count = 1): void {
    const d = this.byWhat.get(what);
    if (d) d.count += count;
    else this.byWhat.set(what, { what, count, why });
  }

  /** Every key of `source` not in `kept`, named `<where>.<key>`. */
  unkept(source: Record<string, unknown>, kept: ReadonlySet<string>, where: string): void {
    for (const [key, value] of Object.entries(source)) {
      if (kept.has(key) || value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) continue;
      this.add(`${where}.${key}`, "no field of the plan's records holds it");
    }
  }

  list(): Dropped[] {
    return [...this.byWhat.values()];
  }
}

/** A time as the plan stamps it (UTC, `YYYY-MM-DDTHH:MM:SSZ`), or undefined when it is not one. */
export function stampOf(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  let text = value.trim();
  // Backlog.md writes `2026-05-02 07:42` and `2026-05-02`.
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += "T00:00:00Z";
  else if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text)) text = text.replace(" ", "T") + "Z";
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const year = new Date(ms).getUTCFullYear();
  // Go's zero time (`0001-01-01T00:00:00Z`) means "none".
  if (year < 1970 || year > 9999) return undefined;
  return new Date(ms).toISOString().slice(0, 19) + "Z";
}

/** A date as records write `created_at` (`YYYY-MM-DD`). */
export function dateOf(value: unknown): string | undefined {
  return stampOf(value)?.slice(0, 10);
}

/** Prose as one text: trimmed, undefined when empty or not text. */
export function proseOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const t = value.trim();
  return t === "" ? undefined : t;
}

/** A text of criteria as list entries: one per line, bullets, checkboxes and numbering taken off. */
export function entriesOf(value: unknown): string[] {
  if (typeof value !== "string") return [];
  return value
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^(?:[-*+]|\d+[.)])\s+/, "")
        .replace(/^\[[ xX]\]\s*/, "")
        .trim(),
    )
    .filter((line) => line !== "");
}

/** Skips for a record whose id cannot name a record file. */
export function skipBadId(skipped: Skip[], id: string, problem: string): void {
  skipped.push({ id, why: `its id cannot name a record file (${problem})` });
}

/** A whole source's ids are unique (by `key`, the id itself unless the tool equates others): the first wins, the others are named. */
export function firstOfEach<T extends { id: string }>(items: T[], where: (item: T) => string, skipped: Skip[], key: (item: T) => string = (i) => i.id): T[] {
  const seen = new Map<string, T>();
  const out: T[] = [];
  for (const item of items) {
    const first = seen.get(key(item));
    if (first) {
      const same = first.id === item.id ? "" : `, which the source takes for ${first.id}`;
      skipped.push({ id: item.id, why: `a second record with the id ${item.id}${same} (${where(item)}); the first (${where(first)}) is imported` });
      continue;
    }
    seen.set(key(item), item);
    out.push(item);
  }
  return out;
}
