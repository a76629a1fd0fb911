/** A plain value (JSON-like) with every string in it, keys included, passed through `f`. */
export function mapStrings<T>(value: T, f: (text: string) => string): T {
  if (typeof value === "string") return f(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => mapStrings(v, f)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[f(k)] = mapStrings(v, f);
    return out as T;
  }
  return value;
}
