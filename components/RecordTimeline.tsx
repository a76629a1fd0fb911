import { planHistoryCapability } from "@/lib/capabilities/plan-history";
import { planInboxCapability } from "@/lib/capabilities/plan-inbox";
import { answerWords } from "@/lib/coordination/asks";
import { Card } from "@/components/Card";
import { StatusBadge } from "@/components/StatusBadge";
import { CapabilityError } from "@/lib/plan/errors";
import type { PlanHistory } from "@/lib/plan/history-shapes";
import { call } from "@/lib/surfaces/pages";

// The timeline of one record (plan.history): the moves not yet committed first, then each commit
// that changed its file, newest first, with the record's derived status after it. An issue's asks
// and their answers (docs/inbox.md) are laid in by time: they live beside the plan, not in its files.

interface AskEntry {
  time: string;
  text: string;
  who: string;
  ask: string;
}

/** An issue's asks as timeline entries: each question, and its answer or end. A store that cannot be read gives none. */
async function askEntries(id: string): Promise<AskEntry[]> {
  let asks;
  try {
    asks = (await call(planInboxCapability, { issue: id })).asks;
  } catch {
    return [];
  }
  const out: AskEntry[] = [];
  for (const a of asks) {
    out.push({ time: a.opened, text: `asked (${a.kind}): ${a.question}`, who: a.asker, ask: a.id });
    if (a.state === "answered" && a.ended_at) out.push({ time: a.ended_at, text: `answered: ${answerWords(a.answer)}`, who: a.ended_by ?? "", ask: a.id });
    else if (a.state !== "open" && a.ended_at) out.push({ time: a.ended_at, text: `ask ${a.state}: ${a.reason ?? ""}`, who: a.ended_by ?? "", ask: a.id });
  }
  return out;
}

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
  const asks = kind === "issue" ? await askEntries(id) : [];
  // Newest first, as the history is: an ask goes before the first entry older than it.
  const merged: ({ e: (typeof entries)[number] } | { a: AskEntry })[] = [];
  const pending = [...asks].sort((x, y) => (x.time < y.time ? 1 : x.time > y.time ? -1 : 0));
  for (const e of entries) {
    while (pending.length && pending[0].time >= e.time) merged.push({ a: pending.shift()! });
    merged.push({ e });
  }
  for (const a of pending) merged.push({ a });
  return (
    <Card title="Timeline" id="timeline">
      {merged.length === 0 ? (
        <p className="text-sm">No commit has changed this record yet.</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm" data-testid="timeline">
          {merged.map((m, i) =>
            "a" in m ? (
              <li key={`ask-${m.a.ask}-${i}`} className="flex flex-wrap items-baseline gap-x-2 border-l-2 border-sky-500 pl-3" data-testid="timeline-ask">
                <time dateTime={m.a.time} className="tabular-nums text-slate-600 dark:text-slate-400">
                  {m.a.time.replace("T", " ").replace(/(:\d\d)?(\.\d+)?Z$/, " UTC")}
                </time>
                <span className="whitespace-pre-wrap break-words">{m.a.text}</span>
                <span className="text-slate-600 dark:text-slate-400">{m.a.who}</span>
                <code className="text-xs text-slate-600 dark:text-slate-400">{m.a.ask}</code>
              </li>
            ) : (
              <li key={`${m.e.commit ?? "ledger"}-${i}`} className="flex flex-wrap items-baseline gap-x-2 border-l-2 border-slate-200 pl-3 dark:border-slate-700" data-testid="timeline-entry">
                <time dateTime={m.e.time} className="tabular-nums text-slate-600 dark:text-slate-400">
                  {m.e.time.replace("T", " ").replace(/(:\d\d)?(\.\d+)?Z$/, " UTC")}
                </time>
                {m.e.status && <StatusBadge status={m.e.status} kind={kind} />}
                <span>{m.e.message}</span>
                <span className="text-slate-600 dark:text-slate-400">{m.e.author}</span>
                {m.e.uncommitted ? (
                  <span className="rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900 dark:text-amber-100">not yet committed</span>
                ) : (
                  m.e.commit && <code className="text-xs text-slate-600 dark:text-slate-400">{m.e.commit.slice(0, 10)}</code>
                )}
              </li>
            ),
          )}
        </ol>
      )}
      {history.truncated && <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">The 50 most recent entries; older ones are left out.</p>}
    </Card>
  );
}
