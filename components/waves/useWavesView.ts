"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { formatWavesView, parseWavesView, type WavesView } from "@/lib/graph/view-url";

// The view of /waves kept in the URL: read once, then kept in state (so a control answers at
// once) and written back on every change; back and forward read it again.

/** The view the address names; a link to a column of the list (`#cycle`) without a milestone means all. */
function viewFromLocation(active: string | null): WavesView {
  const params = new URLSearchParams(window.location.search);
  const view = parseWavesView(params, active);
  return window.location.hash.length > 1 && !params.has("milestone") ? { ...view, milestone: null } : view;
}

export function useWavesView(active: string | null) {
  const params = useSearchParams();
  const [view, setView] = useState<WavesView>(() => parseWavesView(new URLSearchParams(params.toString()), active));
  const viewRef = useRef(view);
  /** Set when the page navigates away: a late write of the view would fight the navigation. */
  const isLeaving = useRef(false);
  useEffect(() => {
    const onPop = () => {
      viewRef.current = viewFromLocation(active);
      setView(viewRef.current);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [active]);

  // A link to a column of the list (`/waves#cycle`, `#wave-3`) names no milestone: it means the
  // whole plan. Known only in the browser, so applied after hydration.
  useEffect(() => {
    const next = viewFromLocation(active);
    if (next.milestone === viewRef.current.milestone) return;
    viewRef.current = next;
    setView(next);
    requestAnimationFrame(() => document.getElementById(window.location.hash.slice(1))?.scrollIntoView());
    // Once, on arrival.
    // The dependencies are chosen: the effect or memo reruns on these keys alone, not on all it reads.
  }, []);

  /** Move to another view: a new history entry, or (for the viewport and typing) the same one. */
  const go = useCallback(
    (patch: Partial<WavesView>, how: "push" | "replace" = "push") => {
      if (isLeaving.current) return;
      const next = { ...viewRef.current, ...patch };
      viewRef.current = next;
      setView(next);
      const query = formatWavesView(next, active);
      const url = `${window.location.pathname}${query ? `?${query}` : ""}${window.location.hash}`;
      if (url === `${window.location.pathname}${window.location.search}${window.location.hash}`) return;
      if (how === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [active],
  );

  return { view, viewRef, go, isLeaving };
}

export type Go = ReturnType<typeof useWavesView>["go"];
