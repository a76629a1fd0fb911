"use client";

import { useCallback, useRef, useState } from "react";
import { Dialog } from "./Dialog";
import { useShortcutKey } from "./useShortcutKey";

const KEYS = ["e"];

/**
 * `e` on a record's page: a dialog asks which field to edit; Enter opens the editor on it (its
 * value focused, nothing written until its own preview and confirm), Escape cancels.
 */
export function EditShortcut({ id, fields, onPick }: { id: string; fields: string[]; onPick: (field: string) => void }) {
  const [open, setOpen] = useState(false);
  const [field, setField] = useState("");
  const select = useRef<HTMLSelectElement>(null);
  useShortcutKey(KEYS, () => {
    setField((f) => f || fields[0] || "");
    setOpen(true);
  }, fields.length > 0);
  const close = useCallback(() => setOpen(false), []);
  const focus = useCallback(() => select.current?.focus(), []);
  const go = () => {
    setOpen(false);
    if (field) onPick(field);
  };
  return (
    <Dialog open={open} onClose={close} onShown={focus} labelledBy="edit-shortcut-title" testId="edit-shortcut-dialog" width="w-[min(30rem,calc(100vw-2rem))]">
      <form
        className="flex flex-col gap-3 p-5"
        onSubmit={(e) => {
          e.preventDefault();
          go();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            go();
          }
        }}
      >
        <h2 id="edit-shortcut-title" className="text-lg font-semibold">
          Edit {id}
        </h2>
        <label className="flex flex-col gap-1 text-sm">
          <span>Field</span>
          <select ref={select} data-testid="edit-shortcut-field" value={field} onChange={(e) => setField(e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
            {fields.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
        </label>
        <div className="flex gap-2">
          <button type="submit" data-testid="edit-shortcut-confirm" className="rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white shadow hover:bg-blue-800">
            Edit {field}
          </button>
          <button type="button" data-testid="edit-shortcut-cancel" onClick={close} className="rounded-md border border-slate-300 px-4 py-1.5 text-sm dark:border-slate-600">
            Cancel
          </button>
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-400">Enter opens the editor on this field (nothing is written before its preview), Esc cancels.</p>
      </form>
    </Dialog>
  );
}
