"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { runCapability } from "@/app/actions";
import type { PlanDiff } from "@/lib/plan/plan-diff";
import { EditPreview } from "./EditPreview";

export interface EditableField {
  name: string;
  isList: boolean;
  type: "text" | "boolean" | "integer";
}

type Op = "set" | "unset" | "add" | "remove";

interface EditAnswer {
  id: string;
  written: boolean;
  refused?: string;
  version: string;
  preview: PlanDiff;
  changes: string[];
}

interface Pending {
  input: Record<string, unknown>;
  preview?: EditAnswer;
  /** The version the write carries (the page's, or the current one after a conflict). */
  version: string;
  label: string;
  /** The edit that takes this one back (absent for an undo: there is one undo, not a history). */
  undo?: Undo;
}

const UNDO_KEY = "cockpit-undo";

interface Undo {
  id: string;
  input: Record<string, unknown>;
  label: string;
}

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
  const [busy, start] = useTransition();
  const [field, setField] = useState(fields[0]?.name ?? "");
  const spec = fields.find((f) => f.name === field);
  const [op, setOp] = useState<Op>(spec?.isList ? "add" : "set");
  const [value, setValue] = useState("");
  const [pending, setPending] = useState<Pending | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; conflictVersion?: string } | null>(null);
  const [undo, setUndo] = useState<Undo | null>(null);

  useEffect(() => {
    const saved = sessionStorage.getItem(UNDO_KEY);
    const parsed = saved ? (JSON.parse(saved) as Undo) : null;
    setUndo(parsed && parsed.id === id ? parsed : null);
  }, [id]);

  const preview = (next: Pending) =>
    start(async () => {
      setOutcome(null);
      const r = await runCapability("plan.edit", { id, ...next.input, dry_run: true });
      if (!r.ok) {
        setPending(null);
        setOutcome({ ok: false, text: `Refused: ${r.error.message}` });
        return;
      }
      setPending({ ...next, preview: r.value as EditAnswer });
    });

  const confirm = () =>
    start(async () => {
      if (!pending) return;
      const r = await runCapability("plan.edit", { id, ...pending.input, if_version: pending.version });
      if (!r.ok) {
        const details = (r.error as { details?: { version?: string } }).details;
        setOutcome({ ok: false, text: `Refused: ${r.error.message}`, conflictVersion: r.error.code === "conflict" ? details?.version : undefined });
        return;
      }
      const answer = r.value as EditAnswer;
      setOutcome({ ok: true, text: `${id} ${pending.label}: ${answer.changes.join("; ")}.` });
      setPending({ ...pending, preview: answer });
      if (pending.undo) sessionStorage.setItem(UNDO_KEY, JSON.stringify(pending.undo));
      else sessionStorage.removeItem(UNDO_KEY);
      setUndo(pending.undo ?? null);
      router.refresh();
    });

  const propose = () => {
    if (!spec) return;
    const input =
      op === "set" ? { set: { [field]: value } } : op === "unset" ? { unset: [field] } : { [op]: { [field]: [value] } };
    const undo: Undo = { id, input: inverseOf(op, field, value, values[field]), label: `undo of ${op} ${field}` };
    preview({ input, version, label: `${op} ${field}`, undo });
  };

  const control = "rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900";
  const list = values[field];
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="record-editor">
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
            onChange={(e) => {
              const f = fields.find((x) => x.name === e.target.value);
              setField(e.target.value);
              setOp(f?.isList ? "add" : "set");
              setValue(f && !f.isList && typeof values[f.name] === "string" ? (values[f.name] as string) : "");
            }}
          >
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
            {spec?.type === "boolean" ? (
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
            ) : (
              <input aria-label="Value" value={value} className={control} onChange={(e) => setValue(e.target.value)} />
            )}
          </label>
        )}
        <button type="submit" disabled={busy} data-testid="edit-preview-button" className="rounded-md bg-slate-800 px-3 py-1.5 font-medium text-white disabled:opacity-60 dark:bg-slate-200 dark:text-slate-900">
          Preview
        </button>
        {undo && (
          <button
            type="button"
            disabled={busy}
            data-testid="edit-undo"
            onClick={() => preview({ input: undo.input, version, label: undo.label })}
            className="rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600"
          >
            Undo last edit
          </button>
        )}
      </form>
      {pending?.preview && (
        <div className="flex flex-col gap-2">
          <EditPreview preview={pending.preview.preview} refused={pending.preview.written ? undefined : pending.preview.refused} testId="edit-preview" />
          {!pending.preview.written && (
            <div className="flex gap-2">
              <button
                type="button"
                disabled={busy || pending.preview.refused !== undefined}
                data-testid="edit-confirm"
                onClick={confirm}
                className="rounded-md bg-blue-700 px-3 py-1.5 font-medium text-white disabled:bg-slate-300 disabled:text-slate-700"
              >
                {busy ? "…" : `Confirm: ${pending.label}`}
              </button>
              <button type="button" onClick={() => setPending(null)} className="rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600">
                Cancel
              </button>
            </div>
          )}
        </div>
      )}
      <p role="status" aria-live="polite" data-testid="edit-outcome" className={`min-h-5 font-medium ${outcome?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}>
        {outcome?.text ?? ""}
      </p>
      {outcome?.conflictVersion && pending && (
        <button
          type="button"
          data-testid="edit-reapply"
          onClick={() => preview({ ...pending, version: outcome.conflictVersion! })}
          className="self-start rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600"
        >
          Re-apply to the current record
        </button>
      )}
    </div>
  );
}
