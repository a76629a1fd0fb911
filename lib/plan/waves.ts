/**
 * Kahn layering (§3.2, §3.3): round k places every unplaced node none of whose dependencies is
 * still unplaced, in index order. `deps[i]` lists the indices node i depends on (duplicates are
 * harmless). Returns each node's layer (-1 when it is in or downstream of a cycle) and the layers.
 * `dependents`, when the caller has it, lists for each node the nodes depending on it, each once.
 */
export function layerByDependencies(
  deps: readonly (readonly number[])[],
  dependents?: readonly (readonly number[])[],
): { layer: Int32Array; layers: number[][] } {
  const n = deps.length;
  const layer = new Int32Array(n).fill(-1);
  const pending = new Int32Array(n);
  let after = dependents;
  if (after === undefined) {
    const built: number[][] = new Array(n);
    for (let i = 0; i < n; i++) built[i] = [];
    // seenBy[d] === i: node i already counted its dependency d (a duplicate).
    const seenBy = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      for (const d of deps[i]) {
        if (seenBy[d] === i) continue;
        seenBy[d] = i;
        built[d].push(i);
      }
    }
    after = built;
  }
  for (let d = 0; d < n; d++) for (const i of after[d]) pending[i]++;
  const layers: number[][] = [];
  let frontier: number[] = [];
  for (let i = 0; i < n; i++) if (pending[i] === 0) frontier.push(i);
  while (frontier.length > 0) {
    const k = layers.length;
    for (const i of frontier) layer[i] = k;
    layers.push(frontier);
    const next: number[] = [];
    for (const i of frontier) {
      for (const j of after[i]) if (--pending[j] === 0) next.push(j);
    }
    next.sort((a, b) => a - b);
    frontier = next;
  }
  return { layer, layers };
}
