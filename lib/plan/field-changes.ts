import { readRecordMap } from "./records-with";
import type { YamlValue } from "./yaml";

// What an edit does to the record itself, field by field, old → new, before what it does to the
// derived plan: a preview that says "nothing derived changes" still shows p2 → p0.

export interface FieldChange {
  field: string;
  /** The value as the file has it, in words ("" when absent; a list as "a, b"). */
  from: string;
  to: string;
}

/** The moments the write sets itself: not the person's edit. */
const WRITTEN_BY_THE_WRITE = new Set(["updated_at", "created_at"]);

function words(value: YamlValue | undefined): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
  return JSON.stringify(Object.fromEntries(value));
}

/** Every field whose value differs between two texts of a record, in the order of the text after. */
export function fieldChanges(before: string | undefined, after: string): FieldChange[] {
  const a = before === undefined ? new Map<string, YamlValue>() : (readRecordMap(before).map ?? new Map<string, YamlValue>());
  const b = readRecordMap(after).map ?? new Map<string, YamlValue>();
  const names = [...b.keys(), ...[...a.keys()].filter((k) => !b.has(k))];
  const out: FieldChange[] = [];
  for (const field of names) {
    if (WRITTEN_BY_THE_WRITE.has(field)) continue;
    const from = words(a.get(field));
    const to = words(b.get(field));
    if (from !== to || a.has(field) !== b.has(field)) out.push({ field, from, to });
  }
  return out;
}
