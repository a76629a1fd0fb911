"use client";

import { agoText, useSyncStatus } from "../SyncBadge";

/** On a following server, when the standup's data was last fetched from the remote. */
export function FetchedAt() {
  const { sync, now } = useSyncStatus(10_000);
  if (!sync?.following) return null;
  return (
    <p data-testid="standup-fetched" className="text-sm text-slate-600 dark:text-slate-400">
      Data fetched from {sync.remote}/{sync.branch} {agoText(sync.last_fetch_at, now)}
      {sync.last_fetch_at ? ` (${new Date(sync.last_fetch_at).toLocaleTimeString()})` : ""}
      {sync.state !== "following" ? `; ${sync.state}: ${sync.message}` : ""}
    </p>
  );
}
