"use client";

import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useTransition, type ReactNode } from "react";
import { runCapability } from "@/app/actions";
import { EditPreview } from "./EditPreview";
import { newIdempotencyKey } from "./idempotency-key";

// Many issues at once (docs/browser.md): a checkbox on each row (shift-click takes the range, `x`
// on a focused row toggles it), and a bar that sets the owner, the priority or the milestone, adds
// a dependency or cancels, for every selected issue: one preview of the whole batch's derived
// effect (plan.edit with ids, dry run), one write on Confirm, one Undo that puts every record back.

interface Selection {
  selected: ReadonlySet<string>;
  toggle(id: string, range: boolean): void;
}

const SelectionContext = createContext<Selection | null>(null);

type Action = "owner" | "priority" | "milestone" | "depends_on" | "cancel";
const ACTIONS: readonly (readonly [Action, string])[] = [
  ["owner", "Set owner"],
  ["priority", "Set priority"],
  ["milestone", "Set milestone"],
  ["depends_on", "Add dependency"],
  ["cancel", "Cancel the issues"],
];

/** The edit an action asks for, as plan.edit's input. */
function changeOf(action: Action, value: string): Record<string, unknown> {
  if (action === "cancel") return { set: { cancelled: true } };
  if (action === "depends_on") return { add: { depends_on: [value] } };
  return { set: { [action]: value } };
}

type Preview = Extract<Awaited<ReturnType<typeof runCapability<"plan.edit">>>, { ok: true }>["value"];
type BatchAnswer = Extract<Preview, { ids: string[] }>;

/** The priorities the next issue ranks (p0 first); a plan's own others are offered too. */
const RANKED = ["p0", "p1", "p2", "p3"];

/** "1 issue", "10 issues". */
const issuesCount = (n: number) => `${n} issue${n === 1 ? "" : "s"}`;

const FIELD = "rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900";

export function BulkEdit({ ids, people, priorities, milestones, children }: { ids: readonly string[]; people: readonly string[]; priorities: readonly string[]; milestones: readonly string[]; children: ReactNode }) {
  const router = useRouter();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const last = useRef<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const [action, setAction] = useState<Action>("owner");
  const [value, setValue] = useState("");
  const [preview, setPreview] = useState<BatchAnswer | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; undo?: number } | null>(null);
  const [busy, start] = useTransition();
  const key = useRef(newIdempotencyKey());

  // A row that left the view (a filter, a reload) leaves the selection.
  useEffect(() => setSelected((s) => new Set([...s].filter((id) => ids.includes(id)))), [ids]);

  const toggle = useCallback(
    (id: string, range: boolean) => {
      // The range runs from the row clicked before this one (read now: the updater runs later), in
      // the order the rows are shown (the page's, whatever its sort or grouping).
      const shown = [...new Set([...(box.current?.querySelectorAll<HTMLElement>("[data-bulk-id]") ?? [])].map((e) => e.dataset.bulkId ?? ""))].filter((x) => ids.includes(x));
      const from = range && last.current !== null ? shown.indexOf(last.current) : -1;
      const to = shown.indexOf(id);
      const span = from >= 0 && to >= 0 ? shown.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
      setSelected((s) => {
        const next = new Set(s);
        const on = !s.has(id);
        for (const x of span) {
          if (on) next.add(x);
          else next.delete(x);
        }
        return next;
      });
      last.current = id;
      setPreview(null);
    },
    [ids],
  );
  const context = useMemo(() => ({ selected, toggle }), [selected, toggle]);
  const chosen = ids.filter((id) => selected.has(id));
  const needsValue = action !== "cancel";
  const priorityChoices = useMemo(() => [...new Set([...RANKED, ...priorities.filter(Boolean)])].sort(), [priorities]);

  const ask = () =>
    start(async () => {
      setOutcome(null);
      const r = await runCapability("plan.edit", { ids: chosen, ...changeOf(action, value.trim()), dry_run: true });
      if (!r.ok) {
        setPreview(null);
        setOutcome({ ok: false, text: `Refused: ${r.error.message}` });
        return;
      }
      if ("ids" in r.value) setPreview(r.value);
      key.current = newIdempotencyKey();
    });

  const confirm = () =>
    start(async () => {
      if (!preview) return;
      const versions = Object.fromEntries(preview.records.map((x) => [x.id, x.previous_version]));
      const r = await runCapability("plan.edit", { ids: preview.ids, ...changeOf(action, value.trim()), if_versions: versions, idempotency_key: key.current });
      if (!r.ok || !("ids" in r.value)) {
        key.current = newIdempotencyKey();
        setOutcome({ ok: false, text: `Refused: ${r.ok ? "the answer was not a batch" : r.error.message}` });
        return;
      }
      setPreview(null);
      const moved = r.value.preview.issues.filter((c) => c.from !== c.to).map((c) => `${c.id} ${c.from ?? "(none)"} → ${c.to ?? "(none)"}`);
      setOutcome({ ok: true, text: `Written: ${issuesCount(r.value.ids.length)} in one write (${r.value.changes.join("; ")})${moved.length ? `: ${moved.join(", ")}` : ""}.`, undo: r.value.ledger_ids?.[0] });
      setSelected(new Set());
      router.refresh();
    });

  const undo = (ledgerId: number) =>
    start(async () => {
      const r = await runCapability("plan.undo", { ledger_id: ledgerId, idempotency_key: newIdempotencyKey() });
      setOutcome(r.ok ? { ok: true, text: `Undone: ${issuesCount(r.value.batch?.length ?? 1)} put back as they were.` } : { ok: false, text: `Refused: ${r.error.message}` });
      router.refresh();
    });

  return (
    <SelectionContext.Provider value={context}>
      <div
        ref={box}
        onKeyDown={(e) => {
          if (e.key !== "x" || e.metaKey || e.ctrlKey || e.altKey) return;
          const target = e.target as HTMLElement;
          if (target.closest("input:not([type=checkbox]), textarea, select")) return;
          const row = target.closest<HTMLElement>("[data-bulk-id]");
          if (!row?.dataset.bulkId) return;
          e.preventDefault();
          toggle(row.dataset.bulkId, e.shiftKey);
        }}
      >
        {children}
      </div>
      {(chosen.length > 0 || outcome) && (
        <div role="region" aria-label="Edit the selected issues" data-testid="bulk-bar" className="sticky bottom-2 z-20 flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3 text-sm shadow-lg dark:border-slate-600 dark:bg-slate-900">
          {chosen.length > 0 && (
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                ask();
              }}
            >
              <span className="font-medium" data-testid="bulk-count">
                {chosen.length} selected
              </span>
              <label className="flex flex-col gap-1 text-xs">
                Change
                <select
                  value={action}
                  onChange={(e) => {
                    setAction(e.target.value as Action);
                    setValue("");
                    setPreview(null);
                  }}
                  className={FIELD}
                  data-testid="bulk-action"
                >
                  {ACTIONS.map(([a, label]) => (
                    <option key={a} value={a}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
              {needsValue && (
                <label className="flex flex-col gap-1 text-xs">
                  {action === "depends_on" ? "Issue id" : "To"}
                  {action === "priority" || action === "milestone" ? (
                    <select value={value} onChange={(e) => (setValue(e.target.value), setPreview(null))} className={FIELD} data-testid="bulk-value">
                      <option value="">Choose…</option>
                      {(action === "priority" ? priorityChoices : milestones).map((p) => (
                        <option key={p} value={p}>
                          {p}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input value={value} onChange={(e) => (setValue(e.target.value), setPreview(null))} list={action === "owner" ? "bulk-people" : undefined} className={`${FIELD} w-44`} data-testid="bulk-value" />
                  )}
                </label>
              )}
              <datalist id="bulk-people">
                {people.map((p) => (
                  <option key={p} value={p} />
                ))}
              </datalist>
              <button type="submit" disabled={busy || (needsValue && value.trim() === "")} className="rounded bg-blue-700 px-3 py-1 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-700" data-testid="bulk-preview">
                Preview
              </button>
              <button type="button" onClick={() => (setSelected(new Set()), setPreview(null))} className="rounded border border-slate-300 px-3 py-1 dark:border-slate-600" data-testid="bulk-clear">
                Clear selection
              </button>
            </form>
          )}
          {preview && (
            <div className="flex flex-col gap-2">
              <p className="text-xs text-slate-600 dark:text-slate-400">What the whole batch does ({issuesCount(preview.ids.length)}: {preview.ids.join(", ")}):</p>
              <ul className="max-h-40 overflow-y-auto font-mono text-xs" data-testid="bulk-preview-fields">
                {preview.records.map((x) => (
                  <li key={x.id}>
                    <span className="font-semibold">{x.id}</span>: {x.fields.map((f) => `${f.field} ${f.from === "" ? "(none)" : f.from} → ${f.to === "" ? "(none)" : f.to}`).join("; ") || "no field changes"}
                  </li>
                ))}
              </ul>
              <EditPreview preview={preview.preview} refused={preview.refused} testId="bulk-preview-result" />
              <button type="button" disabled={busy || preview.refused !== undefined} onClick={confirm} className="self-start rounded bg-blue-700 px-3 py-1 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-700" data-testid="bulk-confirm">
                {busy ? "…" : `Confirm: ${preview.changes.join("; ")} on ${issuesCount(preview.ids.length)}`}
              </button>
            </div>
          )}
          {outcome && (
            <p role="status" className={outcome.ok ? "text-emerald-800 dark:text-emerald-300" : "text-red-700 dark:text-red-400"} data-testid="bulk-outcome">
              {outcome.text}{" "}
              {outcome.undo !== undefined && (
                <button type="button" onClick={() => undo(outcome.undo!)} className="underline" data-testid="bulk-undo">
                  Undo
                </button>
              )}
            </p>
          )}
        </div>
      )}
    </SelectionContext.Provider>
  );
}

/** A row's checkbox: shift-click selects the range from the last one clicked. */
export function RowCheck({ id }: { id: string }) {
  const selection = useContext(SelectionContext);
  if (!selection) return null;
  return (
    <input
      type="checkbox"
      aria-label={`Select ${id}`}
      checked={selection.selected.has(id)}
      onChange={() => undefined}
      onClick={(e) => selection.toggle(id, e.shiftKey)}
      className="h-4 w-4"
      data-testid={`select-${id}`}
    />
  );
}

/** Select (or clear) every row shown. */
export function SelectAll({ ids }: { ids: readonly string[] }) {
  const selection = useContext(SelectionContext);
  if (!selection) return null;
  const all = ids.length > 0 && ids.every((id) => selection.selected.has(id));
  return (
    <input
      type="checkbox"
      aria-label="Select every issue shown"
      checked={all}
      onChange={() => {
        for (const id of ids) if (selection.selected.has(id) === all) selection.toggle(id, false);
      }}
      className="h-4 w-4"
      data-testid="select-all"
    />
  );
}
