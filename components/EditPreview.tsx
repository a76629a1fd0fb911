"use client";

import { previewLines } from "@/lib/plan/preview-text";
import type { PlanDiff } from "@/lib/plan/plan-diff";

/**
 * What a create or an edit does (or would do): first each field, old → new, then what it does to
 * the derived plan, one line per change.
 */
export function EditPreview({ preview, fields = [], refused, testId }: { preview: PlanDiff; fields?: { field: string; from: string; to: string }[]; refused?: string; testId: string }) {
  return (
    <div data-testid={testId} className="rounded border border-slate-200 bg-slate-50 p-2 text-xs dark:border-slate-700 dark:bg-slate-900">
      {refused && <p className="mb-1 font-medium text-red-700 dark:text-red-400">Would be refused: {refused}</p>}
      {fields.length > 0 && (
        <ul className="mb-1 font-mono" data-testid={`${testId}-fields`}>
          {fields.map((f) => (
            <li key={f.field}>
              <span className="font-semibold">{f.field}</span>: {f.from === "" ? "(none)" : f.from} → {f.to === "" ? "(none)" : f.to}
            </li>
          ))}
        </ul>
      )}
      {fields.length > 0 && <p className="font-sans text-slate-600 dark:text-slate-400">Then, in the derived plan:</p>}
      <ul className="font-mono">
        {previewLines(preview).map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </div>
  );
}
