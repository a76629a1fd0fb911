"use client";

import { useEffect, useState } from "react";

/**
 * The colour scheme the browser asks for, for React Flow's `colorMode`. Starts "light" (as the
 * server renders) and follows the media query after hydration: React Flow's own "system" mode
 * reads it during hydration, and the class the server sent then stays.
 */
export function useSystemColorMode(): "light" | "dark" {
  const [mode, setMode] = useState<"light" | "dark">("light");
  useEffect(() => {
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    const update = () => setMode(query.matches ? "dark" : "light");
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return mode;
}
