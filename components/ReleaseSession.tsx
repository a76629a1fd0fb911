"use client";

import { useState } from "react";
import { useCapability } from "./useCapability";

/**
 * Release a live session from /agents: the reason is asked first (it is kept as the session's last
 * note), and the confirmation says what changes: the issue keeps its derived status, and nobody
 * holds it any more, so the next claim may take it.
 */
export function ReleaseSession({ issue, actor, status, state, live }: { issue: string; actor: string; status: string; state: string; live: boolean }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const { pending, status: outcome, run } = useCapability();
  const id = `release-${issue}`;
  if (!open) {
    // A session that ended keeps the outcome of its release in view (its row stays, without the button).
    if (!live && !outcome) return null;
    return (
      <div className="flex flex-col items-start gap-1">
        {live && (
          <button type="button" className="whitespace-nowrap rounded border border-slate-300 px-2 py-0.5 text-xs dark:border-slate-600" onClick={() => setOpen(true)} data-testid={`release-open-${issue}`}>
            Release…
          </button>
        )}
        {outcome && (
          <p role="status" className={`text-xs ${outcome.ok ? "text-green-800 dark:text-green-300" : "text-red-700 dark:text-red-300"}`} data-testid={`release-outcome-${issue}`}>
            {outcome.text}
          </p>
        )}
      </div>
    );
  }
  return (
    <form
      className="flex w-64 flex-col gap-1 text-xs"
      data-testid={`release-form-${issue}`}
      onSubmit={(e) => {
        e.preventDefault();
        run("plan.release", { issue, force: true, note: reason.trim() }, (v) => (v.released ? `Released ${issue} from ${v.holder}.` : `Nobody held ${issue} any more.`));
        setOpen(false);
      }}
    >
      <p data-testid={`release-preview-${issue}`}>
        Before: {issue} {status}, held by {actor} ({state}). After: {issue} {status}, held by nobody: the next claim takes it{status === "ACTIVE" ? " over" : ""}.
      </p>
      <label htmlFor={id}>Why (kept as the session&apos;s note)</label>
      <input id={id} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={2000} className="rounded border border-slate-300 bg-white px-1 py-0.5 dark:border-slate-600 dark:bg-slate-900" />
      <div className="flex gap-2">
        <button type="submit" disabled={pending || reason.trim() === ""} className="rounded bg-slate-800 px-2 py-0.5 text-white disabled:opacity-50 dark:bg-slate-200 dark:text-slate-900" data-testid={`release-confirm-${issue}`}>
          Release
        </button>
        <button type="button" className="rounded border border-slate-300 px-2 py-0.5 dark:border-slate-600" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
