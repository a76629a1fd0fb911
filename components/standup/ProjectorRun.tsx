"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import Link from "../Link";
import { isTyping } from "../pages";
import { clock, timerText } from "@/lib/standup/projector";

// The standup on a projector: one screen at a time (drawn by the server), moved with Space, the
// arrows and PageUp/PageDown; the screen is kept in the URL (?screen=N) so a reload stays put;
// Escape leaves for the standup. Each person's screen has a timer against the timebox.

export interface RunScreen {
  key: string;
  /** Who or what the screen is about, for the position line and the document title. */
  label: string;
  /** A person's screen is timed; the closing screens show the meeting's time. */
  isTimed: boolean;
  node: ReactNode;
}

const NEXT_KEYS = new Set(["ArrowRight", "ArrowDown", "PageDown"]);
const PREVIOUS_KEYS = new Set(["ArrowLeft", "ArrowUp", "PageUp"]);

export function ProjectorRun({ screens, start, timebox, exitHref, heading }: { screens: RunScreen[]; start: number; timebox: number; exitHref: string; heading: ReactNode }) {
  const router = useRouter();
  const [index, setIndex] = useState(start);
  const [now, setNow] = useState(() => Date.now());
  const shownAt = useRef(Date.now());
  const meetingAt = useRef(Date.now());
  const count = screens.length;

  const go = useCallback(
    (to: number) => {
      const next = Math.min(Math.max(to, 0), count - 1);
      if (next === index) return;
      shownAt.current = Date.now();
      setNow(Date.now());
      setIndex(next);
      const url = new URL(window.location.href);
      url.searchParams.set("screen", String(next + 1));
      window.history.replaceState(window.history.state, "", url);
    },
    [count, index],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if ((e.key === " " && !e.shiftKey) || NEXT_KEYS.has(e.key)) go(index + 1);
      else if ((e.key === " " && e.shiftKey) || PREVIOUS_KEYS.has(e.key)) go(index - 1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(count - 1);
      else if (e.key === "Escape") router.push(exitHref);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [go, index, count, exitHref, router]);

  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(t);
  }, []);

  const screen = screens[index];
  const elapsed = (now - shownAt.current) / 1000;
  const timer = timerText(elapsed, timebox);
  const button = "rounded-lg border-2 border-slate-400 px-4 py-1 hover:bg-slate-200 disabled:opacity-40 dark:border-slate-500 dark:hover:bg-slate-800";
  return (
    <main
      data-projector=""
      data-testid="projector-run"
      className="fixed inset-0 z-30 flex flex-col gap-6 overflow-hidden bg-slate-50 px-10 py-8 text-3xl text-slate-900 dark:bg-slate-950 dark:text-slate-100"
    >
      <div className="flex shrink-0 items-center justify-between gap-6 text-2xl">
        <div className="flex min-w-0 items-baseline gap-4">
          <h1 className="shrink-0 font-semibold">Standup</h1>
          <span className="truncate text-slate-700 dark:text-slate-300">{heading}</span>
        </div>
        <div className="flex shrink-0 items-center gap-4">
          {screen.isTimed ? (
            <span
              data-testid="projector-timer"
              data-over={timer.isOver ? "" : undefined}
              className={`rounded-lg px-3 py-1 font-mono tabular-nums ${timer.isOver ? "bg-red-700 font-bold text-white" : "bg-slate-200 dark:bg-slate-800"}`}
            >
              {timer.elapsed} · {timer.rest}
            </span>
          ) : (
            <span data-testid="projector-meeting" className="font-mono tabular-nums text-slate-700 dark:text-slate-300">
              meeting {clock((now - meetingAt.current) / 1000)}
            </span>
          )}
          <span data-testid="projector-position" className="tabular-nums">
            {index + 1} / {count}
          </span>
          <button type="button" className={button} onClick={() => go(index - 1)} disabled={index === 0} aria-label="Previous screen">
            ◀
          </button>
          <button type="button" className={button} onClick={() => go(index + 1)} disabled={index === count - 1} aria-label="Next screen">
            ▶
          </button>
          <Link href={exitHref} className="text-blue-700 underline dark:text-blue-300" data-testid="projector-exit">
            Leave (Esc)
          </Link>
        </div>
      </div>
      {screens.map((s, i) => (
        <section key={s.key} hidden={i !== index} aria-label={s.label} data-testid="projector-screen" data-screen={i + 1} className="flex min-h-0 flex-1 flex-col gap-6 overflow-hidden">
          {s.node}
        </section>
      ))}
    </main>
  );
}
