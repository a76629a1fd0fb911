import type { PlanIssue } from "@/lib/plan/shapes";

/** Who holds an issue across clones (the coordination database's lease); nothing when no one does. */
export function LeaseNote({ lease }: { lease?: PlanIssue["lease"] }) {
  if (!lease) return null;
  return (
    <span data-testid="lease" className="text-xs text-slate-600 dark:text-slate-400" title={`lease expires ${lease.expires}`}>
      held by <span className="font-mono">{lease.holder}</span> since {lease.since}
    </span>
  );
}
