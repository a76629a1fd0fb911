"use client";

import { EditReview } from "../EditReview";
import type { DependencyEditor } from "./useDependencyEditor";

/**
 * The preview-then-confirm dialog of a dependency edit, over the graph: on the side away from the
 * edited cards, or on a phone a sheet along the pane's bottom (the view pans the cards clear of it).
 */
export function EditDialog({ editor, side }: { editor: DependencyEditor; side: "left" | "right" }) {
  const { intent, edit, dialogRef, closeDialog } = editor;
  if (!intent || !editor.isDialogOpen) return null;
  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-labelledby="graph-edit-title"
      aria-describedby="graph-edit-sentence"
      tabIndex={-1}
      data-testid="graph-edit-dialog"
      data-side={side}
      onKeyDown={(e) => {
        if (e.key === "Escape") closeDialog();
      }}
      className={`absolute inset-x-2 bottom-2 z-10 flex max-h-[50%] sm:inset-x-auto sm:bottom-auto ${side === "right" ? "sm:right-3" : "sm:left-3"} sm:top-3 sm:max-h-[calc(100%-1.5rem)] sm:w-[30rem] sm:max-w-[calc(100%-1.5rem)] flex-col gap-2 overflow-auto rounded-md border border-slate-300 bg-white p-3 text-sm shadow-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100`}
    >
      <div className="flex items-start gap-2">
        <h2 id="graph-edit-title" className="font-semibold">
          {intent.title}
        </h2>
        <button type="button" onClick={closeDialog} className="ml-auto rounded px-1 text-xs underline" data-testid="graph-edit-close">
          Close
        </button>
      </div>
      <p id="graph-edit-sentence">{intent.sentence}</p>
      {edit.busy && !edit.pending?.preview && <p>Deriving what it would change…</p>}
      <EditReview flow={edit} />
    </div>
  );
}
