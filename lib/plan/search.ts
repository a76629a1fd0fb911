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
  text: string;
}

const entriesOf = processWide("search-entries", () => new WeakMap<Plan, Entry[]>());

function entries(plan: Plan): Entry[] {
  let list = entriesOf.get(plan);
  if (!list) {
    const make = (kind: RecordMatch["kind"], r: { id: string; title: string; status: string }): Entry => ({
      kind,
      id: r.id,
      title: r.title,
      status: r.status,
      lowerId: r.id.toLowerCase(),
      text: `${r.id} ${r.title}`.toLowerCase(),
    });
    list = [...plan.milestones.map((m) => make("milestone", m)), ...plan.issues.map((i) => make("issue", i))];
    entriesOf.set(plan, list);
  }
  return list;
}

/**
 * Records whose id and title hold every word of the query (case-insensitive), best first: the
 * exact id, then ids that start with the query, ids that hold it, and titles; milestones before
 * issues, then in the plan's order. An empty query lists the milestones, then the issues.
 */
export function searchRecords(plan: Plan, query: string, limit = 20): RecordSearch {
  const q = query.trim().toLowerCase();
  const words = q.split(/\s+/).filter(Boolean);
  const ranked: { rank: number; at: number; entry: Entry }[] = [];
  entries(plan).forEach((entry, at) => {
    if (!words.every((w) => entry.text.includes(w))) return;
    const rank = q === "" ? 3 : entry.lowerId === q ? 0 : entry.lowerId.startsWith(q) ? 1 : entry.lowerId.includes(q) ? 2 : 3;
    ranked.push({ rank, at, entry });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.at - b.at);
  return {
    matches: ranked.slice(0, limit).map(({ entry: { kind, id, title, status } }) => ({ kind, id, title, status })),
    total: ranked.length,
  };
}
