/** A scope path as overlap compares it: one leading `./` and every trailing `/` removed (§5). */
export function normaliseScopePath(path: string): string {
  const p = path.startsWith("./") ? path.slice(2) : path;
  let end = p.length;
  while (end > 0 && p.charCodeAt(end - 1) === 47) end--;
  return end === p.length ? p : p.slice(0, end);
}

/** Two scope paths overlap when equal, or when one lies inside the other on a `/` boundary. */
export function scopesOverlap(x: string, y: string): boolean {
  const a = normaliseScopePath(x);
  const b = normaliseScopePath(y);
  return a === b || isInside(a, b) || isInside(b, a);
}

function isInside(path: string, dir: string): boolean {
  return path.length > dir.length && path.charCodeAt(dir.length) === 47 && path.startsWith(dir);
}

/** Every proper ancestor of a normalised path: each prefix that ends right before a `/`. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) out.push(path.slice(0, i));
  return out;
}

export interface ScopeConflict {
  /** Index of the first issue of the pair (the finding's subject). */
  a: number;
  /** Index of the second. */
  b: number;
  /** The path as written in a's scope. */
  path: string;
}

/**
 * Scope conflicts among `members` (issue indices in id order, all of one wave and all READY or
 * ACTIVE): for each pair a < b, the first (x of a, y of b) in scope order that overlaps. Paths are
 * indexed so only pairs that really share a path are examined.
 */
export function findScopeConflicts(members: readonly number[], scopeOf: (i: number) => readonly string[]): ScopeConflict[] {
  if (members.length < 2) return [];
  const exact = new Map<string, number[]>();
  const under = new Map<string, number[]>();
  const normalised = new Map<number, string[]>();
  const add = (map: Map<string, number[]>, key: string, member: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [member]);
    else if (list[list.length - 1] !== member) list.push(member);
  };
  for (const m of members) {
    const paths = scopeOf(m).map(normaliseScopePath);
    normalised.set(m, paths);
    for (const p of paths) {
      add(exact, p, m);
      for (const anc of ancestors(p)) add(under, anc, m);
    }
  }
  const out: ScopeConflict[] = [];
  for (const a of members) {
    const partners = new Set<number>();
    const collect = (list: number[] | undefined) => {
      if (list) for (const b of list) if (b > a) partners.add(b);
    };
    for (const p of normalised.get(a)!) {
      collect(exact.get(p));
      collect(under.get(p));
      for (const anc of ancestors(p)) collect(exact.get(anc));
    }
    if (partners.size === 0) continue;
    const ordered = [...partners].sort((x, y) => x - y);
    const xs = normalised.get(a)!;
    for (const b of ordered) {
      const ys = normalised.get(b)!;
      let found = -1;
      for (let i = 0; i < xs.length && found < 0; i++) {
        for (let j = 0; j < ys.length; j++) {
          const x = xs[i];
          const y = ys[j];
          if (x === y || isInside(x, y) || isInside(y, x)) {
            found = i;
            break;
          }
        }
      }
      if (found >= 0) out.push({ a, b, path: scopeOf(a)[found] });
    }
  }
  return out;
}
