import { processWide } from "../process-wide";
import type { Plan } from "./shapes";

// Find milestones and issues by id or title, for the command palette: a short, ranked list, so
// that a 10k-issue plan never travels to the browser whole.

export interface RecordMatch {
  kind: "milestone" | "issue";
  id: string;
  title: string;
  status: string;
}

export interface RecordSearch {
  matches: RecordMatch[];
  /** How many records match in all (`matches` holds at most the limit). */
  total: number;
}

interface Entry extends RecordMatch {
  lowerId: string;
  /** The id without its punctuation and the leading zeros of its numbers: BK-021 is bk21. */
  compactId: string;
  /** The title's words. */
  words: string[];
  lowerStatus: string;
  text: string;
}

const entriesOf = processWide("search-entries", () => new WeakMap<Plan, Entry[]>());

/** What an id is typed as in a hurry: lowercase, no punctuation, no leading zeros (bk21 for BK-021). */
const compact = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "").replace(/(^|[a-z])0+(?=\d)/g, "$1");

function entries(plan: Plan): Entry[] {
  let list = entriesOf.get(plan);
  if (!list) {
    const make = (kind: RecordMatch["kind"], r: { id: string; title: string; status: string }): Entry => ({
      kind,
      id: r.id,
      title: r.title,
      status: r.status,
      lowerId: r.id.toLowerCase(),
      compactId: compact(r.id),
      words: r.title.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean),
      lowerStatus: r.status.toLowerCase(),
      text: `${r.id} ${r.title}`.toLowerCase(),
    });
    list = [...plan.milestones.map((m) => make("milestone", m)), ...plan.issues.map((i) => make("issue", i))];
    entriesOf.set(plan, list);
  }
  return list;
}

/** Whether `text` holds `part` at the start of one of its words (bk-10 holds 10; customers does not hold tom). */
function atWordStart(text: string, part: string): boolean {
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1])) return true;
  }
  return false;
}

/** Whether one word of the query is in the record: its id or title, its id typed compactly, or its status. */
function holds(entry: Entry, word: string): boolean {
  if (entry.text.includes(word) || entry.lowerStatus === word) return true;
  const c = compact(word);
  return c !== "" && c.length >= 2 && entry.compactId.includes(c);
}

/**
 * Records whose id, title or status hold every word of the query (case-insensitive), best first:
 * the exact id (or the id typed without its dash and zeros: bk21), ids that start with the query,
 * ids that hold it at a word's start, records in the status named (blocked), titles whose words start with each
 * word, then titles that hold it inside a word; milestones before issues, then in the plan's order.
 * An empty query lists the milestones, then the issues.
 */
export function searchRecords(plan: Plan, query: string, limit = 20): RecordSearch {
  const q = query.trim().toLowerCase();
  const words = q.split(/\s+/).filter(Boolean);
  const cq = compact(q);
  const ranked: { rank: number; at: number; entry: Entry }[] = [];
  entries(plan).forEach((entry, at) => {
    if (!words.every((w) => holds(entry, w))) return;
    const rank =
      q === ""
        ? 6
        : entry.lowerId === q || (cq.length >= 2 && entry.compactId === cq)
          ? 0
          : entry.lowerId.startsWith(q) || (cq.length >= 2 && entry.compactId.startsWith(cq))
            ? 1
            : atWordStart(entry.lowerId, q)
              ? 2
              : entry.lowerStatus === q
                ? 3
                : words.every((w) => atWordStart(entry.lowerId, w) || entry.lowerStatus === w || entry.words.some((t) => t.startsWith(w)))
                  ? 4
                  : 5;
    ranked.push({ rank, at, entry });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return {
    matches: ranked.slice(0, limit).map(({ entry: { kind, id, title, status } }) => ({ kind, id, title, status })),
    total: ranked.length,
  };
}

/** The issue a word names: its id in any case, or typed compactly (bk21 for BK-021); the palette's commands act on it. */
export function issueTyped(plan: Plan, word: string): Plan["issues"][number] | undefined {
  const lower = word.toLowerCase();
  const c = compact(word);
  return plan.issues.find((i) => i.id.toLowerCase() === lower) ?? (c.length >= 2 ? plan.issues.find((i) => compact(i.id) === c) : undefined);
}
