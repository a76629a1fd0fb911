import type { PlanFinding } from "../plan/shapes";

export interface ScopePair {
  a: string;
  b: string;
  path: string;
}

const CONFLICT = /^shares (.*) with (\S+); they may not run concurrently$/;

/** The pairs behind `scope_conflict` findings. */
export function scopePairs(findings: readonly PlanFinding[]): ScopePair[] {
  const out: ScopePair[] = [];
  for (const f of findings) {
    if (f.code !== "scope_conflict") continue;
    const m = CONFLICT.exec(f.message);
    if (m) out.push({ a: f.subject, b: m[2], path: m[1] });
  }
  return out;
}

/** Conflicts grouped by the shared path (as written in the first issue's scope), largest first. */
export function groupByPath(pairs: readonly ScopePair[]): { path: string; pairs: ScopePair[] }[] {
  const groups = new Map<string, ScopePair[]>();
  for (const p of pairs) {
    const g = groups.get(p.path);
    if (g) g.push(p);
    else groups.set(p.path, [p]);
  }
  return [...groups.entries()]
    .map(([path, list]) => ({ path, pairs: list }))
    .sort((x, y) => y.pairs.length - x.pairs.length || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** How many conflicts each issue has, and with whom. */
export function partnersByIssue(pairs: readonly ScopePair[]): Map<string, ScopePair[]> {
  const out = new Map<string, ScopePair[]>();
  for (const p of pairs) {
    for (const id of [p.a, p.b]) {
      const list = out.get(id);
      if (list) list.push(p);
      else out.set(id, [p]);
    }
  }
  return out;
}
