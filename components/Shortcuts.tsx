"use client";

import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { Dialog } from "./Dialog";
import { CHORD_MS, ISSUE_KEYS, PAGES, isTyping } from "./pages";

const GRAPH_KEYS: readonly [string, string][] = [
  ["/", "search the graph"],
  ["← ↑ → ↓", "pan the graph, or move between nodes"],
  ["+ −", "zoom in and out"],
  ["Enter", "open the focused issue"],
  ["Space", "select it: what it waits on and unblocks"],
  ["Esc", "clear the selection"],
];

function Keys({ keys }: { keys: string }) {
  return (
    <span className="flex gap-1">
      {keys.split(" ").map((k) => (
        <kbd key={k} className="min-w-6 rounded border border-slate-300 bg-slate-50 px-1.5 text-center font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
          {k}
        </kbd>
      ))}
    </span>
  );
}

function KeyList({ keys, className = "", testId }: { keys: readonly [string, string][]; className?: string; testId?: string }) {
  return (
    <dl className={`grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1.5 text-sm ${className}`} data-testid={testId}>
      {keys.map(([k, what]) => (
        <div key={k} className="contents">
          <dt>
            <Keys keys={k} />
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Keyboard shortcuts that move between pages (`g` then a letter, like GitHub) and `?`, which
 * lists them with those of an issue page and of the graph, in the shared Dialog. Keys typed into
 * a text field are left alone.
 */
export function Shortcuts() {
  const router = useRouter();
  const pathname = usePathname();
  const [helpOpen, setHelpOpen] = useState(false);
  const chord = useRef(0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (chord.current > Date.now()) {
        chord.current = 0;
        const page = PAGES.find((p) => p.key === e.key.toLowerCase());
        if (page) {
          e.preventDefault();
          setHelpOpen(false);
          router.push(page.href);
          return;
        }
      }
      if (e.key === "g") {
        chord.current = Date.now() + CHORD_MS;
      } else if (e.key === "?") {
        e.preventDefault();
        setHelpOpen((v) => !v);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);

  useEffect(() => setHelpOpen(false), [pathname]);

  const close = useCallback(() => setHelpOpen(false), []);

  return (
    <Dialog open={helpOpen} onClose={close} labelledBy="shortcuts-title" testId="shortcuts-help" width="w-[min(34rem,calc(100vw-2rem))]">
      <div className="p-5">
        <div className="mb-4 flex items-center justify-between">
          <h2 id="shortcuts-title" className="text-lg font-semibold">
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            onClick={close}
            className="rounded px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            Close
          </button>
        </div>
        <h3 className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">Everywhere</h3>
        <dl className="mb-4 grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1.5 text-sm">
          <dt>
            <Keys keys="Ctrl K" />
          </dt>
          <dd>jump to a page, milestone or issue (⌘ K on a Mac)</dd>
          {PAGES.map((p) => (
            <div key={p.key} className="contents">
              <dt>
                <Keys keys={`g ${p.key}`} />
              </dt>
              <dd>go to {p.label}</dd>
            </div>
          ))}
          <dt>
            <Keys keys="c" />
          </dt>
          <dd>capture a new issue: its title, then Enter (its milestone is the page&apos;s)</dd>
          <dt>
            <Keys keys="?" />
          </dt>
          <dd>show or hide this list</dd>
        </dl>
        <h3 className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">On an issue page</h3>
        <KeyList keys={ISSUE_KEYS} className="mb-4" testId="shortcuts-issue" />
        <p className="-mt-2 mb-4 text-xs text-slate-600 dark:text-slate-400">Enter confirms a move, Esc cancels it; a move the plan refuses says why and sends nothing.</p>
        <h3 className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">On the waves graph</h3>
        <KeyList keys={GRAPH_KEYS} />
        <p className="mt-4 text-xs text-slate-600 dark:text-slate-400">Shortcuts stay out of the way while you type in a field.</p>
      </div>
    </Dialog>
  );
}
