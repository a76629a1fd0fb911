"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useRef, useState, useTransition } from "react";
import { runCapability } from "@/app/actions";
import { newIdempotencyKey } from "./idempotency-key";
import type { RecordMatch, RecordSearch } from "@/lib/plan/search";
import { PAGES } from "./pages";
import { readSavedViews, type SavedView } from "./saved-views";
import { Dialog } from "./Dialog";
import { StatusBadge } from "./StatusBadge";

interface Option {
  href: string;
  kind: "page" | "person" | "view" | "command" | RecordMatch["kind"];
  label: string;
  id?: string;
  status?: string;
  /** A command runs here instead of opening a page: a move of the issue, or its assignment. */
  action?: { issue: string; move?: "start" | "verify" | "done"; assign?: string };
  /** Why the model refuses the command now. */
  refused?: string;
}

/** What the query's leading issue id lets the palette run (GET /api/palette's `command`). */
interface PaletteCommand {
  issue: { id: string; title: string; status: string };
  moves: { move: "start" | "verify" | "done"; refusal?: string }[];
  people: string[];
}

const MOVE_LABEL = { start: "Start", verify: "Verify", done: "Done" } as const;

/** The commands for the issue the query starts with: its moves (refused ones say why), and assigning it to each person named. */
function commandOptions(c: PaletteCommand | undefined): Option[] {
  if (!c) return [];
  const href = `/issues/${encodeURIComponent(c.issue.id)}`;
  return [
    ...c.moves.map((m) => ({ href, kind: "command" as const, id: `${m.move}-${c.issue.id}`, label: `${MOVE_LABEL[m.move]} ${c.issue.id}`, action: { issue: c.issue.id, move: m.move }, refused: m.refusal })),
    ...c.people.map((p) => ({ href, kind: "command" as const, id: `assign-${c.issue.id}-${p}`, label: `Assign ${c.issue.id} to ${p}`, action: { issue: c.issue.id, assign: p } })),
  ];
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
  const [found, setFound] = useState<(RecordSearch & { people?: string[]; command?: PaletteCommand }) | null>(null);
  const [ran, setRan] = useState<{ ok: boolean; text: string; undo?: number } | null>(null);
  const [running, startRun] = useTransition();
  /** Bumped after a command ran: the look-up is asked again (the moves allowed have changed). */
  const [asks, setAsks] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const asked = useRef(0);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  const [views, setViews] = useState<SavedView[]>([]);
  const show = useCallback(() => {
    setQuery("");
    setActive(0);
    setRan(null);
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
        const body = (await r.json()) as RecordSearch & { people?: string[]; command?: PaletteCommand; error?: { message: string } };
        if (n !== asked.current) return;
        if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
        setFound(body);
        setFailed(null);
      } catch (error) {
        if (n === asked.current) setFailed(error instanceof Error ? error.message : String(error));
      }
    }, 60);
    return () => clearTimeout(timer);
  }, [open, query, asks]);

  const q = query.trim().toLowerCase();
  const options: Option[] = [
    ...PAGES.filter((p) => q === "" || p.label.toLowerCase().includes(q)).map((p) => ({ href: p.href, kind: "page" as const, label: p.label })),
    ...(q !== "" && "people".includes(q) ? [{ href: "/people", kind: "page" as const, label: "People" }] : []),
    ...views.filter((v) => q === "" || v.name.toLowerCase().includes(q)).map((v) => ({ href: v.href, kind: "view" as const, label: `${v.name} (a saved view of the issues)` })),
    ...(found?.people ?? []).map((h) => ({ href: `/people/${encodeURIComponent(h)}`, kind: "person" as const, label: `${h}'s issues and standup`, id: h })),
    ...(found?.matches ?? []).map((m) => ({ href: recordHref(m), kind: m.kind, label: m.title, id: m.id, status: m.status })),
    ...commandOptions(found?.command),
  ];
  const current = Math.min(active, Math.max(0, options.length - 1));

  /** Run a command: the move or the assignment, as the issue page's buttons make it; the outcome (from → to) and Undo stay in the palette. */
  const run = (action: NonNullable<Option["action"]>) =>
    startRun(async () => {
      const key = newIdempotencyKey();
      if (action.move) {
        const r = await runCapability("plan.transition", { issue: action.issue, transition: action.move, idempotency_key: key });
        setRan(r.ok ? { ok: true, text: `${action.issue}: ${r.value.from} → ${r.value.to} (${action.move})${r.value.next_ready ? `; next: ${r.value.next_ready}` : ""}`, undo: r.value.ledger_id } : { ok: false, text: `Refused: ${r.error.message}` });
      } else if (action.assign !== undefined) {
        const r = await runCapability("plan.edit", { id: action.issue, set: { owner: action.assign }, idempotency_key: key });
        if (!r.ok || "ids" in r.value) setRan({ ok: false, text: `Refused: ${r.ok ? "the edit was answered for a batch" : r.error.message}` });
        else {
          const owner = r.value.fields.find((f) => f.field === "owner");
          setRan({ ok: true, text: `${action.issue}: owner ${owner?.from || "(none)"} → ${owner?.to ?? action.assign}`, undo: r.value.ledger_id });
        }
      }
      setAsks((n) => n + 1);
      router.refresh();
    });

  const undo = (ledgerId: number) =>
    startRun(async () => {
      const r = await runCapability("plan.undo", { ledger_id: ledgerId, idempotency_key: newIdempotencyKey() });
      setRan(r.ok ? { ok: true, text: `Undone: ${r.value.record} ${r.value.from} → ${r.value.to}` } : { ok: false, text: `Refused: ${r.error.message}` });
      setAsks((n) => n + 1);
      router.refresh();
    });

  const go = (option: Option | undefined) => {
    if (!option) return;
    if (option.action) {
      if (!option.refused && !running) run(option.action);
      return;
    }
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
        className="ml-auto flex items-center gap-2 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        {/* A magnifier, so the header keeps one row at 1280 px; the button's name stays "Jump to…". */}
        <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
          <circle cx="7" cy="7" r="4.5" />
          <path d="M10.5 10.5 14 14" />
        </svg>
        <span className="sr-only">Jump to…</span>
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
                  aria-disabled={o.refused !== undefined || undefined}
                  data-testid={`palette-option-${o.kind}-${o.id ?? o.href}`}
                  onMouseMove={() => setActive(i)}
                  onClick={() => go(o)}
                  className={`flex cursor-pointer items-center gap-3 border-l-4 px-4 py-2 text-sm ${i === current ? "border-blue-600 bg-blue-100 dark:border-blue-400 dark:bg-slate-800" : "border-transparent"}`}
                >
                  <span className="w-20 shrink-0 text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">{o.kind}</span>
                  {o.id && o.kind !== "command" && <span className="shrink-0 font-mono text-xs text-slate-700 dark:text-slate-300">{o.id}</span>}
                  <span className={`min-w-0 flex-1 truncate ${o.refused ? "text-slate-500 dark:text-slate-400" : ""}`} title={o.refused}>
                    {o.label}
                    {o.refused && <span className="ml-2 text-xs">(not now: {o.refused})</span>}
                  </span>
                  {o.status && <StatusBadge status={o.status} kind={o.kind === "milestone" ? "milestone" : "issue"} />}
                </li>
              ))}
            </ul>
            {ran && (
              <p role="status" data-testid="palette-ran" className={`border-t border-slate-200 px-4 py-2 text-sm dark:border-slate-700 ${ran.ok ? "text-emerald-800 dark:text-emerald-300" : "text-red-700 dark:text-red-400"}`}>
                {ran.text}{" "}
                {ran.undo !== undefined && (
                  <button type="button" onClick={() => undo(ran.undo!)} disabled={running} className="underline" data-testid="palette-undo">
                    Undo
                  </button>
                )}
              </p>
            )}
            <p aria-live="polite" className="border-t border-slate-200 px-4 py-2 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
              {failed
                ? `Could not look records up: ${failed}`
                : options.length === 0
                  ? found
                    ? "Nothing matches."
                    : "Looking up…"
                  : `${options.length} shown${more ? `, ${more} more match: type to narrow` : ""}. ↑↓ to move, Enter to open${found?.command ? " or run" : ""}, Esc to close. An issue's id first, then a name: its moves, and assigning it.`}
            </p>
          </div>
      </Dialog>
    </>
  );
}
