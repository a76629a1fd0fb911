"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { RecordMatch, RecordSearch } from "@/lib/plan/search";
import { PAGES } from "./pages";
import { readSavedViews, type SavedView } from "./saved-views";
import { Dialog } from "./Dialog";
import { StatusBadge } from "./StatusBadge";

interface Option {
  href: string;
  kind: "page" | "person" | "view" | RecordMatch["kind"];
  label: string;
  id?: string;
  status?: string;
}

const recordHref = (m: RecordMatch) => `/${m.kind === "issue" ? "issues" : "milestones"}/${encodeURIComponent(m.id)}`;

/**
 * Ctrl/Cmd-K: a dialog with a combobox that jumps to any page, milestone or issue. Records are
 * looked up on the server as one types (at most 20 at a time), so a large plan never loads whole.
 */
export function CommandPalette() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<(RecordSearch & { people?: string[] }) | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const asked = useRef(0);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  const [views, setViews] = useState<SavedView[]>([]);
  const show = useCallback(() => {
    setQuery("");
    setActive(0);
    setViews(readSavedViews());
    setOpen(true);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        if (openNow.current) setOpen(false);
        else show();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [show]);

  const openNow = useRef(false);
  useEffect(() => {
    openNow.current = open;
  }, [open]);
  const focusInput = useCallback(() => input.current?.focus(), []);

  // Ask the server as the query settles; an answer to an older query is dropped, never aborted
  // (an aborted fetch is a failed request in the browser's log).
  useEffect(() => {
    if (!open) return;
    const n = ++asked.current;
    const timer = setTimeout(async () => {
      try {
        const r = await fetch(`/api/palette?q=${encodeURIComponent(query)}`);
        const body = (await r.json()) as RecordSearch & { people?: string[]; error?: { message: string } };
        if (n !== asked.current) return;
        if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
        setFound(body);
        setFailed(null);
      } catch (error) {
        if (n === asked.current) setFailed(error instanceof Error ? error.message : String(error));
      }
    }, 60);
    return () => clearTimeout(timer);
  }, [open, query]);

  const q = query.trim().toLowerCase();
  const options: Option[] = [
    ...PAGES.filter((p) => q === "" || p.label.toLowerCase().includes(q)).map((p) => ({ href: p.href, kind: "page" as const, label: p.label })),
    ...(q !== "" && "people".includes(q) ? [{ href: "/people", kind: "page" as const, label: "People" }] : []),
    ...views.filter((v) => q === "" || v.name.toLowerCase().includes(q)).map((v) => ({ href: v.href, kind: "view" as const, label: `${v.name} (a saved view of the issues)` })),
    ...(found?.people ?? []).map((h) => ({ href: `/people/${encodeURIComponent(h)}`, kind: "person" as const, label: `${h}'s issues and standup`, id: h })),
    ...(found?.matches ?? []).map((m) => ({ href: recordHref(m), kind: m.kind, label: m.title, id: m.id, status: m.status })),
  ];
  const current = Math.min(active, Math.max(0, options.length - 1));

  const go = (option: Option | undefined) => {
    if (!option) return;
    setOpen(false);
    router.push(option.href);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: current >= last ? 0 : current + 1,
      ArrowUp: current <= 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    if (e.key in moves && options.length > 0) {
      e.preventDefault();
      setActive(moves[e.key]);
      document.getElementById(optionId(moves[e.key]))?.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(options[current]);
    }
  };

  const more = found && found.total > found.matches.length ? found.total - found.matches.length : 0;
  return (
    <>
      <button
        type="button"
        onClick={show}
        aria-keyshortcuts="Control+K Meta+K"
        className="ml-auto flex items-center gap-3 rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        <span>Jump to…</span>
        <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs dark:border-slate-600">Ctrl K</kbd>
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} onShown={focusInput} label="Command palette" testId="command-palette" width="w-[min(40rem,calc(100vw-2rem))]">
          <div className="flex max-h-[70vh] flex-col">
            <input
              ref={input}
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={options.length > 0 ? optionId(current) : undefined}
              aria-label="Jump to a page, milestone or issue"
              placeholder="Jump to a page, milestone or issue…"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              className="w-full border-b border-slate-200 bg-transparent px-4 py-3 text-base outline-none placeholder:text-slate-500 dark:border-slate-700 dark:placeholder:text-slate-400"
            />
            <ul id={listId} role="listbox" aria-label="Pages, milestones and issues" className="overflow-y-auto py-1">
              {options.map((o, i) => (
                <li
                  key={`${o.kind}:${o.id ?? o.href}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === current}
                  data-testid={`palette-option-${o.kind}-${o.id ?? o.href}`}
                  onMouseMove={() => setActive(i)}
                  onClick={() => go(o)}
                  className={`flex cursor-pointer items-center gap-3 border-l-4 px-4 py-2 text-sm ${i === current ? "border-blue-600 bg-blue-100 dark:border-blue-400 dark:bg-slate-800" : "border-transparent"}`}
                >
                  <span className="w-20 shrink-0 text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">{o.kind}</span>
                  {o.id && <span className="shrink-0 font-mono text-xs text-slate-700 dark:text-slate-300">{o.id}</span>}
                  <span className="min-w-0 flex-1 truncate">{o.label}</span>
                  {o.status && <StatusBadge status={o.status} kind={o.kind === "milestone" ? "milestone" : "issue"} />}
                </li>
              ))}
            </ul>
            <p aria-live="polite" className="border-t border-slate-200 px-4 py-2 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
              {failed
                ? `Could not look records up: ${failed}`
                : options.length === 0
                  ? found
                    ? "Nothing matches."
                    : "Looking up…"
                  : `${options.length} shown${more ? `, ${more} more match: type to narrow` : ""}. ↑↓ to move, Enter to open, Esc to close.`}
            </p>
          </div>
      </Dialog>
    </>
  );
}
