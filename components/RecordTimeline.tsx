import { Card } from "@/components/Card";
import { StatusBadge } from "@/components/StatusBadge";
import { findCapability } from "@/lib/capabilities/index";
import { CapabilityError } from "@/lib/errors";
import { call } from "@/lib/surfaces/pages";

// The timeline of one record (plan.history): the moves not yet committed first, then each commit
// that changed its file, newest first, with the record's derived status after it.

export interface TimelineEntry {
  commit: string | null;
  author: string;
  time: string;
  message: string;
  status: string;
  uncommitted: boolean;
}

/** One entry of a plan.history answer, whatever its field names for the time and the flag. */
function entryOf(raw: Record<string, unknown>): TimelineEntry {
  const text = (...keys: string[]) => {
    for (const k of keys) {
      const v = raw[k];
      if (typeof v === "string") return v;
      if (v && typeof v === "object" && typeof (v as { name?: unknown }).name === "string") return (v as { name: string }).name;
    }
    return "";
  };
  const commit = typeof raw.commit === "string" ? raw.commit : null;
  const uncommitted = raw.uncommitted === true || raw.committed === false || raw.pending === true || (commit === null && "commit" in raw);
  return {
    commit,
    author: text("author", "actor", "author_name"),
    time: text("time", "committed_at", "at", "recorded_at", "ts"),
    message: text("message", "subject", "summary", "event"),
    status: text("status", "status_after", "to"),
    uncommitted,
  };
}

function entriesOf(answer: unknown): TimelineEntry[] {
  if (Array.isArray(answer)) return answer.map((e) => entryOf(e as Record<string, unknown>));
  if (answer && typeof answer === "object") {
    for (const v of Object.values(answer)) if (Array.isArray(v) && v.every((e) => e && typeof e === "object")) return v.map((e) => entryOf(e as Record<string, unknown>));
  }
  return [];
}

export async function RecordTimeline({ id, kind }: { id: string; kind: "issue" | "milestone" }) {
  if (!findCapability("plan.history")) return null;
  let entries: TimelineEntry[];
  try {
    entries = entriesOf(await call("plan.history", { id, limit: 50 }));
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
    </Card>
  );
}
