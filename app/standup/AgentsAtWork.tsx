import Link from "@/components/Link";
import { IssueLink } from "@/components/IssueLink";
import { SESSION_STATE_STYLE } from "@/components/status";
import { planAgentsCapability } from "@/lib/capabilities/plan-agents";
import { call } from "@/lib/surfaces/pages";
import { personHref } from "./PeopleView";

/** The states of a session that still holds its issue. */
const HOLDING = new Set(["active", "awaiting_input", "stale", "expired"]);

/** The standup's agents with their sessions (docs/agents.md): who holds what now, by actor, with each session's state and reason. Nothing when none holds anything. */
export async function AgentsAtWork() {
  let sessions;
  try {
    sessions = (await call(planAgentsCapability)).sessions.filter((s) => HOLDING.has(s.state));
  } catch {
    return null;
  }
  if (sessions.length === 0) return null;
  const byActor = new Map<string, typeof sessions>();
  for (const s of sessions) byActor.set(s.actor, [...(byActor.get(s.actor) ?? []), s]);
  return (
    <section className="rounded border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900" data-testid="standup-sessions">
      <h2 className="font-semibold">
        At work now: {sessions.length} session{sessions.length === 1 ? "" : "s"} of {byActor.size} {byActor.size === 1 ? "actor" : "actors"}
      </h2>
      <ul className="mt-1 flex flex-col gap-1">
        {[...byActor].map(([actor, held]) => (
          <li key={actor} className="flex flex-col gap-0.5" data-testid={`standup-sessions-${actor}`}>
            <span>
              <Link href={personHref(actor)} className="text-blue-700 underline dark:text-blue-300">
                {actor}
              </Link>
              {held[0].kind === "agent" && " (agent)"}
            </span>
            {held.map((s) => (
              <span key={s.session} className="ml-4 flex flex-wrap items-baseline gap-x-2">
                <IssueLink id={s.issue} />
                <span className={`rounded px-1.5 text-xs font-semibold ${SESSION_STATE_STYLE[s.state]}`}>{s.state}</span>
                <span className="text-slate-700 dark:text-slate-300">{s.reason}</span>
              </span>
            ))}
          </li>
        ))}
      </ul>
      <Link href="/agents" className="mt-1 inline-block text-blue-700 underline dark:text-blue-300">
        Every session on Agents
      </Link>
    </section>
  );
}
