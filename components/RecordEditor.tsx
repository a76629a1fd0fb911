"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { EditReview } from "./EditReview";
import { EditShortcut } from "./EditShortcut";
import { PERSON_FIELDS, PeopleList } from "./PeopleList";
import { useEditFlow, useTabUndo, type Undo } from "./useEditFlow";

export interface EditableField {
  name: string;
  isList: boolean;
  type: "text" | "boolean" | "integer";
  /** An enumerated field's values: a menu, not free text. */
  choices?: string[];
}

type Op = "set" | "unset" | "add" | "remove";

/** The edit that takes one change back, from the field's value before it. */
function inverseOf(op: Op, field: string, value: string, before: string | string[] | undefined): Record<string, unknown> {
  if (op === "add") return { remove: { [field]: [value] } };
  if (op === "remove") return { add: { [field]: [value] } };
  if (before === undefined || Array.isArray(before)) return { unset: [field] };
  return { set: { [field]: before } };
}

/**
 * Inline editing of one field of a record: preview first (what it does to the derived plan, and
 * whether it would be refused), then a confirm that writes it against the version the page shows.
 * One undo for the last edit made in this tab, itself previewed before it is written.
 */
export function RecordEditor({ id, version, fields, values }: { id: string; version: string; fields: EditableField[]; values: Record<string, string | string[]> }) {
  const router = useRouter();
  const refresh = useCallback(() => router.refresh(), [router]);
  const flow = useEditFlow(refresh);
  const { busy } = flow;
  // No field until the person picks one: a first Preview is never a refusal of an empty value.
  const [field, setField] = useState("");
  const spec = fields.find((f) => f.name === field);
  const [op, setOp] = useState<Op>(spec?.isList ? "add" : "set");
  const [value, setValue] = useState("");
  const undo = useTabUndo(id);
  const root = useRef<HTMLDivElement>(null);
  const [focusValue, setFocusValue] = useState(0);
  const pick = (name: string) => {
    const f = fields.find((x) => x.name === name);
    setField(name);
    setOp(f?.isList ? "add" : "set");
    setValue(f && !f.isList && typeof values[f.name] === "string" ? (values[f.name] as string) : "");
  };
  // The `e` shortcut opens the editor on its field: the value is focused once it is shown.
  useEffect(() => {
    if (!focusValue) return;
    const el = root.current?.querySelector<HTMLElement>('[aria-label="Value"]') ?? root.current?.querySelector<HTMLElement>('[aria-label="Field"]');
    el?.scrollIntoView({ block: "center" });
    el?.focus();
  }, [focusValue]);

  const propose = () => {
    if (!spec) return;
    const input =
      op === "set" ? { set: { [field]: value } } : op === "unset" ? { unset: [field] } : { [op]: { [field]: [value] } };
    const undo: Undo = { id, input: inverseOf(op, field, value, values[field]), label: `undo of ${op} ${field}` };
    flow.preview({ id, input, version, label: `${op} ${field}`, undo });
  };

  const control = "rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900";
  const list = values[field];
  return (
    <div ref={root} className="flex flex-col gap-2 text-sm" data-testid="record-editor">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          propose();
        }}
      >
        <label className="flex flex-col">
          <span className="text-xs">Field</span>
          <select
            aria-label="Field"
            value={field}
            className={control}
            onChange={(e) => pick(e.target.value)}
          >
            <option value="" disabled>
              choose a field
            </option>
            {fields.map((f) => (
              <option key={f.name}>{f.name}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col">
          <span className="text-xs">Change</span>
          <select aria-label="Change" value={op} className={control} onChange={(e) => setOp(e.target.value as Op)}>
            {(spec?.isList ? ["add", "remove"] : ["set", "unset"]).map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        {op !== "unset" && (
          <label className="flex grow flex-col">
            <span className="text-xs">Value</span>
            {spec?.choices && op === "set" ? (
              <select aria-label="Value" value={value} className={control} onChange={(e) => setValue(e.target.value)}>
                <option value="">choose</option>
                {spec.choices.map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            ) : spec?.type === "boolean" ? (
              <select aria-label="Value" value={value} className={control} onChange={(e) => setValue(e.target.value)}>
                <option value="">choose</option>
                <option>true</option>
                <option>false</option>
              </select>
            ) : op === "remove" && Array.isArray(list) ? (
              <select aria-label="Value" value={value} className={control} onChange={(e) => setValue(e.target.value)}>
                <option value="">choose</option>
                {list.map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            ) : PERSON_FIELDS.has(field) ? (
              <>
                <input aria-label="Value" value={value} className={control} list="edit-people" autoComplete="off" onChange={(e) => setValue(e.target.value)} />
                <PeopleList id="edit-people" typed={value} />
              </>
            ) : (
              <input aria-label="Value" value={value} className={control} onChange={(e) => setValue(e.target.value)} />
            )}
          </label>
        )}
        <button type="submit" disabled={busy || !spec || (op !== "unset" && value === "")} data-testid="edit-preview-button" className="rounded-md bg-slate-800 px-3 py-1.5 font-medium text-white disabled:opacity-60 dark:bg-slate-200 dark:text-slate-900">
          Preview
        </button>
        {undo && (
          <button
            type="button"
            disabled={busy}
            data-testid="edit-undo"
            onClick={() => flow.preview({ id, input: undo.input, version, label: undo.label, undoes: undo.ledger_id })}
            className="rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600"
          >
            Undo last edit
          </button>
        )}
      </form>
      <EditReview flow={flow} />
      <EditShortcut
        id={id}
        fields={fields.map((f) => f.name)}
        onPick={(name) => {
          pick(name);
          setFocusValue((n) => n + 1);
        }}
      />
    </div>
  );
}
