import Link from "@/components/Link";
import { AnswerAsk } from "@/components/AnswerAsk";
import { AutoRefresh } from "@/components/AutoRefresh";
import { Card } from "@/components/Card";
import { IssueLink } from "@/components/IssueLink";
import { SESSION_STATE_STYLE } from "@/components/status";
import { planInboxCapability } from "@/lib/capabilities/plan-inbox";
import { ageWords } from "@/lib/coordination/asks";
import { durationWords } from "@/lib/coordination/sessions";
import { call } from "@/lib/surfaces/pages";
import { personHref } from "@/app/standup/PeopleView";

export const dynamic = "force-dynamic";
export const metadata = { title: "Inbox" };

const KIND_WORDS = { approve: "approve or decline", choose: "choose one", answer: "answer in words" } as const;

/** What needs a person (docs/inbox.md): open asks oldest first, sessions gone quiet, work waiting in VERIFY, the code's findings. */
export default async function InboxPage() {
  const inbox = await call(planInboxCapability);
  return (
    <main className="flex flex-col gap-6">
      <AutoRefresh everyMs={5000} />
      <h1 className="text-2xl font-semibold">Inbox</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300" data-testid="inbox-summary">
        {inbox.count === 0
          ? "Nothing needs a person now: no open ask, no session gone quiet, nothing waiting in VERIFY for over a day."
          : `${inbox.count} thing${inbox.count === 1 ? "" : "s"} need${inbox.count === 1 ? "s" : ""} a person. An answer reaches the agent that asked at once.`}
      </p>
      <Card title={`Asks (${inbox.asks.length})`} id="asks">
        {inbox.asks.length === 0 ? (
          <p className="text-sm">No open ask. An agent asks with cockpit plan ask ID --question TEXT (plan_ask over MCP).</p>
        ) : (
          <ol className="flex flex-col gap-4" data-testid="inbox-asks">
            {inbox.asks.map((a) => (
              <li key={a.id} className="flex flex-col gap-2 border-l-4 border-amber-500 pl-3" data-testid={`ask-${a.id}`}>
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                  <IssueLink id={a.issue} />
                  <span className="rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-950 dark:bg-amber-900 dark:text-amber-50">{KIND_WORDS[a.kind]}</span>
                  <span>
                    asked by{" "}
                    <Link href={personHref(a.asker)} className="text-blue-700 underline dark:text-blue-300">
                      {a.asker}
                    </Link>
                    {a.asker_kind === "agent" && " (agent)"}
                  </span>
                  <span className="text-slate-600 dark:text-slate-400" data-testid={`ask-age-${a.id}`} title={`opened ${a.opened}`}>
                    {ageWords(a)} ago
                  </span>
                  <code className="text-xs text-slate-600 dark:text-slate-400">{a.id}</code>
                </div>
                <p className="whitespace-pre-wrap break-words text-base" data-testid={`ask-question-${a.id}`}>
                  {a.question}
                </p>
                <AnswerAsk ask={a} />
              </li>
            ))}
          </ol>
        )}
      </Card>
      {inbox.sessions.length > 0 && (
        <Card title={`Sessions gone quiet (${inbox.sessions.length})`} id="sessions">
          <ul className="flex flex-col gap-1 text-sm" data-testid="inbox-sessions">
            {inbox.sessions.map((s) => (
              <li key={s.session} className="flex flex-wrap items-baseline gap-x-2">
                <IssueLink id={s.issue} />
                <span className={`rounded px-1.5 text-xs font-semibold ${SESSION_STATE_STYLE[s.state]}`}>{s.state}</span>
                <span>{s.actor}</span>
                <span className="text-slate-600 dark:text-slate-400">{s.reason}</span>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm">
            <Link href="/agents" className="text-blue-700 underline dark:text-blue-300">
              Release or let a claim take them over on Agents
            </Link>
          </p>
        </Card>
      )}
      {inbox.verify.length > 0 && (
        <Card title={`Waiting in VERIFY for over a day (${inbox.verify.length})`} id="verify">
          <ul className="flex flex-col gap-1 text-sm" data-testid="inbox-verify">
            {inbox.verify.map((v) => (
              <li key={v.id} className="flex flex-wrap items-baseline gap-x-2">
                <IssueLink id={v.id} />
                <span>{v.title}</span>
                <span className="text-slate-600 dark:text-slate-400">for {durationWords(v.waiting_s * 1000)}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {inbox.code_findings.length > 0 && (
        <Card title={`What the code says (${inbox.code_findings.length})`} id="code">
          <ul className="flex flex-col gap-1 text-sm" data-testid="inbox-code">
            {inbox.code_findings.map((f, i) => (
              <li key={`${f.code}-${f.subject}-${i}`} className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-mono text-xs">{f.level}</span>
                <span className="font-mono text-xs">{f.code}</span>
                <span>{f.message}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </main>
  );
}
