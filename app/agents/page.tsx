import Link from "@/components/Link";
import { AutoRefresh } from "@/components/AutoRefresh";
import { IssueLink } from "@/components/IssueLink";
import { TableHead } from "@/components/TableHead";
import { ReleaseSession } from "@/components/ReleaseSession";
import { TakeOverSession } from "@/components/TakeOverSession";
import { SESSION_STATE_STYLE } from "@/components/status";
import { planAgentsCapability } from "@/lib/capabilities/plan-agents";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { call } from "@/lib/surfaces/pages";
import { personHref } from "@/app/standup/PeopleView";

export const dynamic = "force-dynamic";
export const metadata = { title: "Agents" };

const LIVE = new Set(["active", "awaiting_input", "stale", "expired"]);

/** Who holds what (docs/agents.md): every session with its state and the reason, live ones first. */
export default async function AgentsPage() {
  const [answer, plan] = await Promise.all([call(planAgentsCapability), call(planModelCapability)]);
  const statusOf = new Map(plan.issues.map((i) => [i.id, i.status]));
  const counts = new Map<string, number>();
  for (const s of answer.sessions) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
  return (
    <main className="flex flex-col gap-6">
      <AutoRefresh everyMs={5000} />
      <h1 className="text-2xl font-semibold">Agents</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        Every session: an actor&apos;s hold on an issue, opened by a claim or a start. A session is stale after {answer.stale_after_s} s without a word (a heartbeat, evidence) and its lease
        ends {answer.lease_ttl_s} s after the last one; an ACTIVE issue whose lease ended is taken over by the next claim, or by you here. Ended sessions stay here for a day.
      </p>
      <p className="text-sm" data-testid="agents-counts">
        {answer.sessions.length === 0 ? "No session yet: a claim or a start opens one." : [...counts].map(([state, n]) => `${n} ${state}`).join(" · ")}
      </p>
      {answer.sessions.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[56rem] text-left text-sm" data-testid="agents-table">
            <TableHead columns={["Issue", "State", "Who", "Why", "Last seen", "Epoch", ""]} />
            <tbody>
              {answer.sessions.map((s) => (
                <tr key={s.session} className="border-b border-slate-200 align-top dark:border-slate-800" data-testid={`session-${s.session}`}>
                  <td className="whitespace-nowrap py-1.5 pr-3">
                    <IssueLink id={s.issue} />
                  </td>
                  <td className="py-1.5 pr-3">
                    <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold ${SESSION_STATE_STYLE[s.state]}`} data-testid={`session-state-${s.session}`}>
                      {s.state}
                    </span>
                  </td>
                  <td className="whitespace-nowrap py-1.5 pr-3">
                    <Link href={personHref(s.actor)} className="text-blue-700 underline dark:text-blue-300">
                      {s.actor}
                    </Link>
                    {s.kind === "agent" && <span className="ml-2 rounded border border-violet-400 px-1 text-xs text-violet-800 dark:border-violet-500 dark:text-violet-200">agent</span>}
                  </td>
                  <td className="py-1.5 pr-3" data-testid={`session-reason-${s.session}`}>
                    {s.reason}
                    {s.note && !s.reason.includes(s.note) && <div className="text-xs text-slate-600 dark:text-slate-400">note: {s.note}</div>}
                  </td>
                  <td className="whitespace-nowrap py-1.5 pr-3 font-mono text-xs">{s.last_seen}</td>
                  <td className="py-1.5 pr-3 tabular-nums">{s.epoch}</td>
                  <td className="py-1.5">
                    <div className="flex flex-col gap-1">
                      <ReleaseSession issue={s.issue} actor={s.actor} status={statusOf.get(s.issue) ?? "?"} state={s.state} live={LIVE.has(s.state)} />
                      <TakeOverSession issue={s.issue} actor={s.actor} epoch={s.epoch} show={s.state === "expired" && statusOf.get(s.issue) === "ACTIVE"} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
