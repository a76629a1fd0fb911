/**
 * Kahn layering (§3.2, §3.3): round k places every unplaced node none of whose dependencies is
 * still unplaced, in index order. `deps[i]` lists the indices node i depends on (duplicates are
 * harmless). Returns each node's layer (-1 when it is in or downstream of a cycle) and the layers.
 */
export function layerByDependencies(deps: readonly (readonly number[])[]): { layer: Int32Array; layers: number[][] } {
  const n = deps.length;
  // The distinct dependencies as one flat list: node i's from start[i] to start[i + 1].
  // seenBy[d] === i: node i already counted its dependency d (a duplicate).
  const seenBy = new Int32Array(n).fill(-1);
  const start = new Int32Array(n + 1);
  const unique: number[] = [];
  for (let i = 0; i < n; i++) {
    start[i] = unique.length;
    for (const d of deps[i]) {
      if (seenBy[d] === i) continue;
      seenBy[d] = i;
      unique.push(d);
    }
  }
  start[n] = unique.length;
  const pending = new Int32Array(n);
  for (let i = 0; i < n; i++) pending[i] = start[i + 1] - start[i];
  const { afterStart, after } = dependentsOf(start, unique);
  return layerFlat(pending, afterStart, after);
}

/**
 * The dependency lists turned around: given node i's distinct dependencies `list[start[i]]` to
 * `list[start[i + 1] - 1]`, the nodes depending on d are `after[afterStart[d]]` to
 * `after[afterStart[d + 1] - 1]`, each once, in index order.
 */
export function dependentsOf(
  start: Int32Array,
  list: ArrayLike<number>,
): { afterStart: Int32Array; after: Int32Array } {
  const n = start.length - 1;
  const afterStart = new Int32Array(n + 1);
  for (let k = 0; k < start[n]; k++) afterStart[list[k] + 1]++;
  for (let d = 0; d < n; d++) afterStart[d + 1] += afterStart[d];
  const after = new Int32Array(start[n]);
  const fill = afterStart.slice(0, n);
  for (let i = 0; i < n; i++) for (let k = start[i]; k < start[i + 1]; k++) after[fill[list[k]]++] = i;
  return { afterStart, after };
}

/**
 * The same layering over flat lists: `pending[i]` counts node i's distinct dependencies (it is
 * used up), and the nodes depending on d are `after[afterStart[d]]` to `after[afterStart[d + 1] - 1]`.
 */
export function layerFlat(
  pending: Int32Array,
  afterStart: Int32Array,
  after: Int32Array,
): { layer: Int32Array; layers: number[][] } {
  const n = pending.length;
  const layer = new Int32Array(n).fill(-1);
  const layers: number[][] = [];
  let frontier: number[] = [];
  for (let i = 0; i < n; i++) if (pending[i] === 0) frontier.push(i);
  while (frontier.length > 0) {
    const k = layers.length;
    for (const i of frontier) layer[i] = k;
    layers.push(frontier);
    const next: number[] = [];
    for (const i of frontier) {
      for (let e = afterStart[i]; e < afterStart[i + 1]; e++) if (--pending[after[e]] === 0) next.push(after[e]);
    }
    next.sort((a, b) => a - b);
    frontier = next;
  }
  return { layer, layers };
}
