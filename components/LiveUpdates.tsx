"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

/**
 * When a record changes on disk (a colleague, an agent, a git pull), the server says so over
 * server-sent events; the page re-reads what it shows, without a reload.
 */
export function LiveUpdates() {
  const router = useRouter();
  const queries = useQueryClient();
  const [state, setState] = useState<"connecting" | "live" | "offline">("connecting");
  useEffect(() => {
    const source = new EventSource("/api/v1/events");
    source.addEventListener("open", () => setState("live"));
    source.addEventListener("error", () => setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting"));
    const refresh = () => {
      router.refresh();
      void queries.invalidateQueries();
    };
    source.addEventListener("change", refresh);
    // An ask opened or answered changes the inbox and the header's count, not a record.
    source.addEventListener("ask", refresh);
    return () => source.close();
  }, [router, queries]);
  return (
    <span className="sr-only" data-testid="live-state" data-state={state}>
      {state === "live" ? "Live: the page follows changes to the plan" : ""}
    </span>
  );
}
