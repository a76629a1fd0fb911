"use client";

import { useEffect } from "react";

/**
 * A link from another site arrives without the SameSite=Strict session cookie, so the server sent
 * the browser here. A request from this page carries the cookie: when it proves a session, go on.
 */
export function SessionBounce({ next }: { next: string }) {
  useEffect(() => {
    let cancelled = false;
    fetch("/api/auth/session", { credentials: "same-origin" })
      .then((r) => (r.ok ? (r.json() as Promise<{ signed_in: boolean }>) : { signed_in: false }))
      .then((s) => {
        if (s.signed_in && !cancelled) window.location.replace(next);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [next]);
  return null;
}
