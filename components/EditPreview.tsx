"use client";

import { previewLines } from "@/lib/plan/preview-text";
import type { PlanDiff } from "@/lib/plan/plan-diff";

/** What a create or an edit does (or would do) to the derived plan, one line per change. */
export function EditPreview({ preview, refused, testId }: { preview: PlanDiff; refused?: string; testId: string }) {
  return (
    <div data-testid={testId} className="rounded border border-slate-200 bg-slate-50 p-2 text-xs dark:border-slate-700 dark:bg-slate-900">
      {refused && <p className="mb-1 font-medium text-red-700 dark:text-red-400">Would be refused: {refused}</p>}
      <ul className="font-mono">
        {previewLines(preview).map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </div>
  );
}
