// Status colours, one table for every view (text on these backgrounds passes WCAG AA).
export const ISSUE_STATUS_STYLE: Record<string, { badge: string; bar: string; ring: string; label: string }> = {
  READY: { badge: "bg-green-700 text-white", bar: "bg-green-600", ring: "border-green-600", label: "ready to start" },
  BLOCKED: { badge: "bg-red-700 text-white", bar: "bg-red-600", ring: "border-red-600", label: "waiting on something" },
  ACTIVE: { badge: "bg-blue-700 text-white", bar: "bg-blue-600", ring: "border-blue-600", label: "in progress" },
  VERIFY: { badge: "bg-amber-700 text-white", bar: "bg-amber-500", ring: "border-amber-500", label: "implemented, evidence outstanding" },
  DONE: { badge: "bg-slate-700 text-white", bar: "bg-slate-500", ring: "border-slate-500", label: "finished" },
  CANCELLED: { badge: "bg-zinc-600 text-white", bar: "bg-zinc-300 dark:bg-zinc-600", ring: "border-zinc-400", label: "dropped" },
};

export const MILESTONE_STATUS_STYLE: Record<string, string> = {
  PLANNED: "bg-indigo-700 text-white",
  BLOCKED: "bg-red-700 text-white",
  ACTIVE: "bg-blue-700 text-white",
  VERIFY: "bg-amber-700 text-white",
  DONE: "bg-slate-700 text-white",
  CANCELLED: "bg-zinc-600 text-white",
  SUPERSEDED: "bg-purple-700 text-white",
};

export const ISSUE_STATUS_ORDER = ["DONE", "VERIFY", "ACTIVE", "READY", "BLOCKED", "CANCELLED"] as const;

/** A session's state (docs/agents.md): working, gone quiet, abandoned, or over. */
export const SESSION_STATE_STYLE: Record<string, string> = {
  active: "bg-green-700 text-white",
  awaiting_input: "bg-sky-700 text-white",
  stale: "bg-amber-700 text-white",
  expired: "bg-red-700 text-white",
  released: "bg-slate-600 text-white",
  finished: "bg-slate-700 text-white",
  reclaimed: "bg-violet-700 text-white",
};
