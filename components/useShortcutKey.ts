"use client";

import { useEffect, useRef } from "react";
import { CHORD_MS, isTyping } from "./pages";

/**
 * Run `act` when `key` is pressed alone on the page: not while typing in a field, not with a
 * modifier, not while a dialog is open, and not as the second key of a `g` chord (`g s` goes to
 * the standup, `s` alone starts the issue).
 */
export function useShortcutKey(keys: readonly string[], act: (key: string) => void, enabled = true) {
  const latest = useRef(act);
  latest.current = act;
  useEffect(() => {
    if (!enabled) return;
    let chordUntil = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === "g") {
        chordUntil = Date.now() + CHORD_MS;
        return;
      }
      const inChord = chordUntil > Date.now();
      chordUntil = 0;
      if (inChord || !keys.includes(e.key) || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      latest.current(e.key);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [keys, enabled]);
}
