// Next bundles every route (each page, each route handler, the proxy) with its own copy of the
// modules it imports, so a module-level cache in a served process is one per route, not one per
// process: the API and the pages each parsed the same records, kept their own derivation memory,
// watched the same folders and opened their own database pools. What must be one per process is
// kept on globalThis under a registered symbol instead. Every bundle comes from the same build,
// so the objects kept there have the same shape whichever route made them.

/** The process's one `name` object, made by `make` the first time any bundle asks for it. */
export function processWide<T>(name: string, make: () => T): T {
  const shelf = globalThis as unknown as Record<symbol, unknown>;
  const key = Symbol.for(`cockpit.${name}`);
  if (!(key in shelf)) shelf[key] = make();
  return shelf[key] as T;
}
