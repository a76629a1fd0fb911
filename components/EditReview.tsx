"use client";

import { EditPreview } from "./EditPreview";
import { SignInPrompt } from "./SignInPrompt";
import type { EditFlow } from "./useEditFlow";

/**
 * The preview of a pending edit with its Confirm and Cancel, then the outcome (announced) and,
 * after a conflict, the offer to re-apply the edit to the current record.
 */
export function EditReview({ flow }: { flow: EditFlow }) {
  const { busy, pending, outcome } = flow;
  return (
    <>
      {pending?.preview && (
        <div className="flex flex-col gap-2">
          <EditPreview preview={pending.preview.preview} fields={pending.preview.fields} refused={pending.preview.written ? undefined : pending.preview.refused} testId="edit-preview" />
          {!pending.preview.written && (
            <div className="flex gap-2">
              <button
                type="button"
                disabled={busy || pending.preview.refused !== undefined}
                data-testid="edit-confirm"
                onClick={flow.confirm}
                className="rounded-md bg-blue-700 px-3 py-1.5 font-medium text-white disabled:bg-slate-300 disabled:text-slate-700"
              >
                {busy ? "…" : `Confirm: ${pending.label}`}
              </button>
              <button type="button" onClick={flow.cancel} data-testid="edit-cancel" className="rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600">
                Cancel
              </button>
            </div>
          )}
        </div>
      )}
      <p role="status" aria-live="polite" data-testid="edit-outcome" className={`min-h-5 font-medium ${outcome?.ok === false ? "text-red-700 dark:text-red-400" : "text-green-800 dark:text-green-400"}`}>
        {outcome?.signIn ? <SignInPrompt /> : (outcome?.text ?? "")}
      </p>
      {outcome?.conflictVersion && pending && (
        <button type="button" data-testid="edit-reapply" onClick={flow.reapply} className="self-start rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-600">
          Re-apply to the current record
        </button>
      )}
    </>
  );
}
