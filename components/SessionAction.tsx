"use client";

import { useState } from "react";
import { useCapability } from "./useCapability";

/**
 * A person's action on a session from /agents (release it, take its issue over): a button that
 * opens a form which shows the derived before/after and asks why, then runs the capability. The
 * outcome stays in view after the form closes.
 */
export function SessionAction({
  issue,
  testId,
  button,
  confirm,
  preview,
  why,
  maxLength,
  show,
  act,
}: {
  issue: string;
  /** The test ids' prefix: `${testId}-open-${issue}`, `-form-`, `-preview-`, `-confirm-`, `-outcome-`. */
  testId: string;
  button: string;
  confirm: string;
  preview: string;
  why: string;
  maxLength: number;
  /** Whether the button is offered (an outcome is shown either way). */
  show: boolean;
  act: (run: ReturnType<typeof useCapability>["run"], reason: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const { pending, status: outcome, run } = useCapability();
  const id = `${testId}-${issue}`;
  if (!open) {
    if (!show && !outcome) return null;
    return (
      <div className="flex flex-col items-start gap-1">
        {show && !outcome?.ok && (
          <button type="button" className="whitespace-nowrap rounded border border-slate-300 px-2 py-0.5 text-xs dark:border-slate-600" onClick={() => setOpen(true)} data-testid={`${testId}-open-${issue}`}>
            {button}
          </button>
        )}
        {outcome && (
          <p role="status" className={`text-xs ${outcome.ok ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}`} data-testid={`${testId}-outcome-${issue}`}>
            {outcome.text}
          </p>
        )}
      </div>
    );
  }
  return (
    <form
      className="flex w-64 flex-col gap-1 text-xs"
      data-testid={`${testId}-form-${issue}`}
      onSubmit={(e) => {
        e.preventDefault();
        act(run, reason.trim());
        setOpen(false);
      }}
    >
      <p data-testid={`${testId}-preview-${issue}`}>{preview}</p>
      <label htmlFor={id}>{why}</label>
      <input id={id} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={maxLength} className="rounded border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-600 dark:bg-slate-900" />
      <div className="flex gap-2">
        <button type="submit" disabled={pending || reason.trim() === ""} className="rounded bg-slate-800 px-2 py-0.5 text-white disabled:opacity-50 dark:bg-slate-200 dark:text-slate-900" data-testid={`${testId}-confirm-${issue}`}>
          {confirm}
        </button>
        <button type="button" className="rounded border border-slate-300 px-2 py-0.5 dark:border-slate-600" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
