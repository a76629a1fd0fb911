import type { PlanCounts } from "@/lib/plan/shapes";
import { ISSUE_STATUS_ORDER, ISSUE_STATUS_STYLE } from "./status";

/** Counts by status as one segmented bar, with the numbers in words for screen readers. */
export function SegmentBar({ counts, className = "" }: { counts: PlanCounts; className?: string }) {
  const parts = ISSUE_STATUS_ORDER.map((s) => ({ status: s, n: counts.by_status[s] ?? 0 })).filter((p) => p.n > 0);
  const words = parts.length ? parts.map((p) => `${p.n} ${p.status}`).join(", ") : "no issues";
  return (
    <div className={`flex h-3 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800 ${className}`} role="img" aria-label={words} title={words}>
      {counts.total > 0 &&
        parts.map((p) => (
          <div key={p.status} className={ISSUE_STATUS_STYLE[p.status].bar} style={{ width: `${(100 * p.n) / counts.total}%` }} />
        ))}
    </div>
  );
}

export function StatusLegend() {
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-slate-700 dark:text-slate-300" aria-label="Status colours">
      {ISSUE_STATUS_ORDER.map((s) => (
        <li key={s} className="flex items-center gap-1">
          <span className={`inline-block h-3 w-3 rounded-sm ${ISSUE_STATUS_STYLE[s].bar}`} aria-hidden />
          {s}
        </li>
      ))}
    </ul>
  );
}
