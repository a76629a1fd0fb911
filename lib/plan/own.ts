// Tables looked up by a key that input names (a verb, a status word, a priority): only their own
// keys answer, so `constructor` or `__proto__` is an unknown key, never Object.prototype's.

/** The value `table` holds under `key` itself, or undefined. */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
