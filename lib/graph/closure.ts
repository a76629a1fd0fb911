import type { PlanIssue } from "../plan/shapes";

/** Effective dependencies of each issue (existing issues other than itself), from the derived plan. */
export function dependencyIndex(issues: readonly PlanIssue[]): { deps: Map<string, string[]>; dependents: Map<string, string[]> } {
  const ids = new Set(issues.map((i) => i.id));
  const deps = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const i of issues) {
    const own = [...new Set(i.depends_on.filter((d) => d !== i.id && ids.has(d)))];
    deps.set(i.id, own);
    for (const d of own) {
      const list = dependents.get(d);
      if (list) list.push(i.id);
      else dependents.set(d, [i.id]);
    }
  }
  return { deps, dependents };
}

function walk(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...(next.get(start) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id) || id === start) continue;
    seen.add(id);
    for (const n of next.get(id) ?? []) if (!seen.has(n)) stack.push(n);
  }
  return seen;
}

/** What an issue waits on, transitively. */
export function upstreamOf(id: string, index: ReturnType<typeof dependencyIndex>): Set<string> {
  return walk(id, index.deps);
}

/** What finishing an issue unblocks, transitively. */
export function downstreamOf(id: string, index: ReturnType<typeof dependencyIndex>): Set<string> {
  return walk(id, index.dependents);
}
