import type { EditableField } from "@/components/RecordEditor";
import { EDITABLE_FIELDS, type EditableKind } from "@/lib/plan/edit-fields";

/** The priorities the next issue's choice ranks (§3.5): a menu wherever priority is edited. */
export const PRIORITIES = ["p0", "p1", "p2", "p3"] as const;

/**
 * What the inline editor of a record needs: its version, its editable fields (with their menus:
 * priority, and an issue's milestone among `milestones`), their values as written (plan.record's
 * `version` and `record`).
 */
export function editorProps(kind: EditableKind, id: string, answer: { version?: string; record?: Record<string, unknown> }, milestones: readonly string[] = []) {
  const written = new Map(Object.entries(answer.record ?? {}));
  const values: Record<string, string | string[]> = {};
  for (const f of EDITABLE_FIELDS[kind]) {
    const v = written.get(f.name);
    if (typeof v === "string") values[f.name] = v;
    else if (Array.isArray(v)) values[f.name] = v.filter((x): x is string => typeof x === "string");
  }
  const menu = (name: string, now: string | string[] | undefined): string[] | undefined => {
    const choices = name === "priority" ? [...PRIORITIES] : name === "milestone" && milestones.length ? [...milestones] : undefined;
    // A value the file has outside the menu stays choosable, so the menu never hides what is written.
    return choices && typeof now === "string" && now !== "" && !choices.includes(now) ? [...choices, now] : choices;
  };
  const editable: EditableField[] = EDITABLE_FIELDS[kind].map((f) => ({ name: f.name, isList: f.isList, type: f.type, ...(menu(f.name, values[f.name]) ? { choices: menu(f.name, values[f.name]) } : {}) }));
  return { id, version: answer.version ?? "", fields: editable, values };
}
