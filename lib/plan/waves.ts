/**
 * Kahn layering (§3.2, §3.3): round k places every unplaced node none of whose dependencies is
 * still unplaced, in index order. `deps[i]` lists the indices node i depends on (duplicates are
 * harmless). Returns each node's layer (-1 when it is in or downstream of a cycle) and the layers.
 */
export function layerByDependencies(deps: readonly (readonly number[])[]): { layer: Int32Array; layers: number[][] } {
  const n = deps.length;
  const layer = new Int32Array(n).fill(-1);
  const pending = new Int32Array(n);
  const dependents: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const seen = deps[i].length > 1 ? new Set<number>() : undefined;
    for (const d of deps[i]) {
      if (seen) {
        if (seen.has(d)) continue;
        seen.add(d);
      }
      pending[i]++;
      dependents[d].push(i);
    }
  }
  const layers: number[][] = [];
  let frontier: number[] = [];
  for (let i = 0; i < n; i++) if (pending[i] === 0) frontier.push(i);
  while (frontier.length > 0) {
    const k = layers.length;
    for (const i of frontier) layer[i] = k;
    layers.push(frontier);
    const next: number[] = [];
    for (const i of frontier) {
      for (const j of dependents[i]) if (--pending[j] === 0) next.push(j);
    }
    next.sort((a, b) => a - b);
    frontier = next;
  }
  return { layer, layers };
}
