/**
 * A value with every string in it, keys included, passed through `f`: in plain objects, arrays and
 * Maps (a record file's YAML mappings); any other object (a Date) is kept as it is.
 */
export function mapStrings<T>(value: T, f: (text: string) => string): T {
  if (typeof value === "string") return f(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => mapStrings(v, f)) as T;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [mapStrings(k, f), mapStrings(v, f)])) as T;
  if (value !== null && typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    // fromEntries defines every key as its own, `__proto__` too (an assignment would set the prototype).
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapStrings(v, f)])) as T;
  }
  return value;
}
