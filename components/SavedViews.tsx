"use client";

import Link from "@/components/Link";
import { useEffect, useState } from "react";
import { forgetView, readSavedViews, saveView, type SavedView } from "./saved-views";

/** Save the table's current address under a name, and the views saved in this browser (the palette lists them too). */
export function SavedViews({ href }: { href: string }) {
  const [views, setViews] = useState<SavedView[]>([]);
  const [name, setName] = useState("");
  useEffect(() => setViews(readSavedViews()), []);
  return (
    <div className="flex flex-wrap items-end gap-3 text-sm" data-testid="saved-views">
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) setViews(saveView({ name: name.trim(), href }));
          setName("");
        }}
      >
        <label className="flex flex-col gap-1 text-xs">
          Save this view as
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} className="w-44 rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900" data-testid="save-view-name" />
        </label>
        <button type="submit" disabled={name.trim() === ""} className="rounded border border-slate-400 px-2 py-1 disabled:opacity-50 dark:border-slate-500" data-testid="save-view">
          Save
        </button>
      </form>
      {views.length > 0 && (
        <ul className="flex flex-wrap items-center gap-2" aria-label="Saved views">
          {views.map((v) => (
            <li key={v.name} className="flex items-center gap-1 rounded border border-slate-300 px-2 py-0.5 dark:border-slate-700">
              <Link href={v.href} className="text-blue-700 underline dark:text-blue-300" data-testid={`saved-view-${v.name}`}>
                {v.name}
              </Link>
              <button type="button" aria-label={`Forget the view ${v.name}`} className="text-slate-600 dark:text-slate-400" onClick={() => setViews(forgetView(v.name))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
