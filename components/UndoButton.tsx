"use client";

import { useCapability } from "./useCapability";

/** Undo one move or edit from /activity (plan.undo): refused, with the reason, when someone else made it or the record changed since. */
export function UndoButton({ ledgerId, record }: { ledgerId: number; record: string }) {
  const { pending, status, run } = useCapability();
  if (status?.ok) {
    return (
      <span role="status" className="text-xs text-green-800 dark:text-green-300" data-testid={`undo-outcome-${ledgerId}`}>
        {status.text}
      </span>
    );
  }
  return (
    <span className="flex flex-col items-start gap-1">
      <button
        type="button"
        disabled={pending}
        className="rounded border border-slate-400 px-2 py-0.5 text-xs disabled:opacity-50 dark:border-slate-500"
        onClick={() => run("plan.undo", { ledger_id: ledgerId }, (v) => `Undone: ${record} is ${v.to ?? "gone"} again (ledger line ${v.ledger_id}).`)}
        data-testid={`undo-${ledgerId}`}
      >
        Undo
      </button>
      {status && (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300" data-testid={`undo-outcome-${ledgerId}`}>
          {status.text}
        </span>
      )}
    </span>
  );
}
