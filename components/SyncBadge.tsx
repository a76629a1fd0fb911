"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ActionAnswer } from "@/app/actions";
import { removedText, undoneText } from "@/lib/results/sync-text";

/** GET /api/v1/sync's answer: plan.sync_status's output, as the registry declares it. */
export type SyncAnswer = ActionAnswer<"plan.sync_status">;

/** How long ago, in a few words: `12 s`, `4 min`, `2 h`. */
export function agoText(iso: string | null, now: number): string {
  if (!iso) return "never";
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  return s < 90 ? `${s} s ago` : s < 5400 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

/** The sync state of a following server, read every few seconds (nothing when it does not follow). */
export function useSyncStatus(everyMs = 5000): { sync?: SyncAnswer; now: number; refresh: () => Promise<void> } {
  const [sync, setSync] = useState<SyncAnswer>();
  const [now, setNow] = useState(() => Date.now());
  // A server follows from its start or never (cockpit serve --follow): once it answers that it does
  // not, there is nothing to poll for.
  const off = useRef(false);
  const refresh = useCallback(async () => {
    try {
      const r = await fetch("/api/v1/sync", { cache: "no-store" });
      if (r.ok) {
        const answer = (await r.json()) as SyncAnswer;
        off.current = !answer.following;
        setSync(answer);
      }
    } catch {
      /* the next tick tries again */
    }
    setNow(Date.now());
  }, []);
  useEffect(() => {
    void refresh();
    const poll = setInterval(() => {
      if (!off.current) void refresh();
    }, everyMs);
    const tick = setInterval(() => {
      if (!off.current) setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(poll);
      clearInterval(tick);
    };
  }, [refresh, everyMs]);
  return { sync, now, refresh };
}

const TONE: Record<SyncAnswer["state"], string> = {
  following: "border-emerald-400 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200",
  held: "border-amber-400 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200",
  offline: "border-amber-400 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200",
  conflict: "border-red-400 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-200",
  off: "",
};

/** The header's line: "synced with origin/main 12 s ago", or the state and its reason; Sync now; what waits. */
export function SyncBadge() {
  const { sync, now, refresh } = useSyncStatus();
  const [asking, setAsking] = useState(false);
  if (!sync?.following) return null;
  const where = `${sync.remote}/${sync.branch}`;
  const text = sync.state === "following" ? `synced with ${where} ${agoText(sync.last_fetch_at, now)}` : `${sync.state}: ${sync.message}`;
  const syncNow = async () => {
    setAsking(true);
    try {
      // The 202 carries the state as the sync started; read it whole (an unread body can stay
      // pending), then read the state again once the fetch has had a moment.
      const asked = await fetch("/api/v1/sync", { method: "POST" });
      await asked.text();
      await new Promise((done) => setTimeout(done, 800));
      await refresh();
    } finally {
      setAsking(false);
    }
  };
  return (
    <div data-testid="sync-status" className="flex items-center gap-2 text-sm">
      <span title={sync.message} className={`max-w-[22rem] truncate rounded border px-2 py-1 ${TONE[sync.state]}`}>
        {text}
      </span>
      {sync.undone?.[0] && (
        <span data-testid="sync-undone" title={sync.undone.map((u) => `${undoneText(u, where)} (${u.at})`).join("\n")} className="max-w-[26rem] truncate text-red-800 dark:text-red-300">
          {undoneText(sync.undone[0], where)}
          {sync.undone.length > 1 ? ` (+${sync.undone.length - 1} more)` : ""}
        </span>
      )}
      {sync.removed_by_remote && (
        <span data-testid="sync-removed" title={`${removedText(sync.removed_by_remote, where)}; seen ${sync.removed_by_remote.at}, not pushed again`} className="max-w-[22rem] truncate text-slate-600 dark:text-slate-300">
          {removedText(sync.removed_by_remote, where)}
        </span>
      )}
      {sync.waiting > 0 && <span data-testid="sync-waiting" className="text-amber-800 dark:text-amber-300">{sync.waiting} waiting to push</span>}
      <button type="button" disabled={asking} onClick={() => void syncNow()} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800">
        {asking ? "Syncing…" : "Sync now"}
      </button>
    </div>
  );
}
