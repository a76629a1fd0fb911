import type { EditableField } from "@/components/RecordEditor";
import { EDITABLE_FIELDS, type EditableKind } from "@/lib/plan/edit-fields";
import { currentVersion } from "@/lib/repo/plan-edit";
import type { YamlValue } from "@/lib/plan/yaml";

/** What the inline editor of a record needs: its version, its editable fields, their values as written. */
export function editorProps(repo: string, kind: EditableKind, id: string, fields: [string, YamlValue][] | undefined) {
  const written = new Map(fields ?? []);
  const values: Record<string, string | string[]> = {};
  for (const f of EDITABLE_FIELDS[kind]) {
    const v = written.get(f.name);
    if (typeof v === "string") values[f.name] = v;
    else if (Array.isArray(v)) values[f.name] = v.filter((x): x is string => typeof x === "string");
  }
  const editable: EditableField[] = EDITABLE_FIELDS[kind].map((f) => ({ name: f.name, isList: f.isList, type: f.type }));
  return { id, version: currentVersion(repo, id) ?? "", fields: editable, values };
}
