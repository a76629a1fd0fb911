import { planHistoryCapability } from "@/lib/capabilities/plan-history";
import { Card } from "@/components/Card";
import { StatusBadge } from "@/components/StatusBadge";
import { CapabilityError } from "@/lib/plan/errors";
import type { PlanHistory } from "@/lib/plan/history-shapes";
import { call } from "@/lib/surfaces/pages";

// The timeline of one record (plan.history): the moves not yet committed first, then each commit
// that changed its file, newest first, with the record's derived status after it.

export async function RecordTimeline({ id, kind }: { id: string; kind: "issue" | "milestone" }) {
  let history: PlanHistory;
  try {
    history = await call(planHistoryCapability, { id, limit: 50 });
  } catch (error) {
    if (error instanceof CapabilityError && error.code !== "internal") {
      return (
        <Card title="Timeline" id="timeline">
          <p className="text-sm">{error.message}</p>
        </Card>
      );
    }
    throw error;
  }
  const entries = history.entries;
  return (
    <Card title="Timeline" id="timeline">
      {entries.length === 0 ? (
        <p className="text-sm">No commit has changed this record yet.</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm" data-testid="timeline">
          {entries.map((e, i) => (
            <li key={`${e.commit ?? "ledger"}-${i}`} className="flex flex-wrap items-baseline gap-x-2 border-l-2 border-slate-200 pl-3 dark:border-slate-700" data-testid="timeline-entry">
              <time dateTime={e.time} className="tabular-nums text-slate-600 dark:text-slate-400">
                {e.time.replace("T", " ").replace(/(:\d\d)?(\.\d+)?Z$/, " UTC")}
              </time>
              {e.status && <StatusBadge status={e.status} kind={kind} />}
              <span>{e.message}</span>
              <span className="text-slate-600 dark:text-slate-400">{e.author}</span>
              {e.uncommitted ? (
                <span className="rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900 dark:text-amber-100">not yet committed</span>
              ) : (
                e.commit && <code className="text-xs text-slate-600 dark:text-slate-400">{e.commit.slice(0, 10)}</code>
              )}
            </li>
          ))}
        </ol>
      )}
      {history.truncated && <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">The 50 most recent entries; older ones are left out.</p>}
    </Card>
  );
}
