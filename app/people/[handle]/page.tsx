import { notFound } from "next/navigation";
import { Suspense } from "react";
import { Card } from "@/components/Card";
import { BlockedBy, IssueLink } from "@/components/IssueLink";
import { StatusBadge } from "@/components/StatusBadge";
import { UnsealedMark } from "@/components/UnsealedMark";
import { unsealedIssueIds } from "@/lib/plan/unsealed";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planHistoryCapability } from "@/lib/capabilities/plan-history";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { planStandupCapability } from "@/lib/capabilities/plan-standup";
import { issueCodeOf, planCodeOf } from "@/lib/code/shapes";
import { authorHandles, handleOfAuthor } from "@/lib/people/people";
import { type PeopleFacts, peopleOf, readPeopleFacts } from "@/lib/people/facts";
import { type RecentCommit, type RecentMove, recentCommits, recentMoves } from "@/lib/people/recent";
import type { Plan } from "@/lib/plan/shapes";
import { planActivityCapability } from "@/lib/capabilities/plan-activity";
import { call, servedRepo } from "@/lib/surfaces/pages";
import { PersonLists } from "@/app/standup/PeopleView";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ handle: string }> }) {
  return { title: decodeURIComponent((await params).handle) };
}

const ORDER = ["ACTIVE", "VERIFY", "BLOCKED", "READY", "DONE", "CANCELLED"];
/** How many moves and commits the page lists, and how many timelines it reads for them. */
const RECENT = 15;
const TIMELINES = 10;

/** An ISO time as "2026-11-30 09:50 UTC". */
const when = (iso: string) => new Date(iso).toISOString().replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC");

/**
 * The person's recent moves, from the timelines (plan.history) of their most recently stamped
 * issues, and of the issues the ledger says they moved (there only their own moves count); and
 * their recent linked commits, from plan.code's answer for the issues their commits link.
 */
async function recentOf(handle: string, plan: Plan, facts: PeopleFacts, mine: readonly Plan["issues"][number][]): Promise<{ moves: RecentMove[]; commits: RecentCommit[] }> {
  const names = authorHandles(facts.authors, facts.handles);
  const handleOf = (name: string) => names.get(name) ?? handleOfAuthor({ name, email: "" }, facts.handles).handle;
  const own = new Set(mine.map((i) => i.id));
  const latest = (i: Plan["issues"][number]) => [i.started_at, i.verified_at, i.completed_at].filter(Boolean).sort().at(-1) ?? "";
  const stamped = [...mine].sort((a, b) => (latest(a) < latest(b) ? 1 : latest(a) > latest(b) ? -1 : 0)).slice(0, TIMELINES).map((i) => i.id);
  const known = new Set(plan.issues.map((i) => i.id));
  // The clone's recent moves and edits (plan.activity, newest first): the issues this person moved.
  const { entries } = await call(planActivityCapability, { limit: 200 });
  const moved = entries.filter((e) => known.has(e.record) && !own.has(e.record) && handleOf(e.by) === handle).map((e) => e.record);
  const others = [...new Set(moved)].slice(0, TIMELINES);
  const timelines = await Promise.all([...stamped, ...others].map((id) => call(planHistoryCapability, { id, limit: 30 })));
  const moves = recentMoves(timelines, RECENT, (id, by) => own.has(id) || handleOf(by) === handle);
  const code = planCodeOf(await call(planCodeCapability));
  const linked = code.issues.filter((i) => i.authors.some((a) => handleOf(a) === handle)).map((i) => i.id);
  const perIssue = await Promise.all(linked.map((id) => call(planCodeCapability, { id }).then(issueCodeOf)));
  return { moves, commits: recentCommits(perIssue, (a) => handleOf(a) === handle, RECENT) };
}

/** One person: their issues by status, what blocks them, their recent moves and commits, their leases, and their standup since the previous working day. */
export default async function PersonPage({ params }: { params: Promise<{ handle: string }> }) {
  const handle = decodeURIComponent((await params).handle);
  const plan = await call(planModelCapability);
  const facts = await readPeopleFacts(servedRepo(), plan);
  const issues = peopleOf(plan.issues, facts).get(handle);
  if (issues === undefined) notFound();
  const standup = await call(planStandupCapability, {});
  const mine = standup.people.find((p) => p.person === handle);
  const statuses = [...new Set([...ORDER, ...issues.map((i) => i.status)])].filter((s) => issues.some((i) => i.status === s));
  const unsealed = unsealedIssueIds(plan);
  const leased = plan.issues.filter((i) => i.lease && i.lease.holder === handle);
  return (
    <main className="flex flex-col gap-6" data-testid={`person-page-${handle}`}>
      <div className="flex flex-wrap items-baseline gap-x-4">
        <h1 className="text-2xl font-semibold">{handle}</h1>
        <a href={`/people/${encodeURIComponent(handle)}/feed.atom`} className="text-sm text-blue-700 underline dark:text-blue-300" data-testid="person-feed">
          Atom feed
        </a>
      </div>
      <Card title={`Since the previous working day · ${mine?.commits ?? 0} linked commits`}>
        {mine ? <PersonLists lists={mine} unsealed={unsealed} /> : <p className="text-slate-600 dark:text-slate-400">Nothing to say.</p>}
      </Card>
      <div className="grid items-start gap-4 md:grid-cols-2">
        {statuses.map((s) => (
          <Card key={s} title={`${s} · ${issues.filter((i) => i.status === s).length}`}>
            <ul className="flex flex-col gap-1 text-sm" data-testid={`person-status-${s}`}>
              {issues
                .filter((i) => i.status === s)
                .map((i) => (
                  <li key={i.id} className="flex flex-wrap items-baseline gap-x-2">
                    <IssueLink id={i.id} /> <span>{i.title}</span> <StatusBadge status={i.status} />
                    {unsealed.has(i.id) && <UnsealedMark id={i.id} />}
                    {i.blocked_by.length > 0 && <BlockedBy entries={i.blocked_by} className="text-slate-700 dark:text-slate-300" />}
                  </li>
                ))}
            </ul>
          </Card>
        ))}
        {issues.length === 0 && <Card title="Issues">No issue is theirs: they commit to issues others own.</Card>}
        {/* The timelines are read per issue: the rest of the page is shown while they are. */}
        <Suspense
          fallback={
            <Card title="Recent moves and commits">
              <p className="text-sm text-slate-600 dark:text-slate-400">Reading their issues&apos; timelines…</p>
            </Card>
          }
        >
          <Recent handle={handle} plan={plan} facts={facts} mine={issues} />
        </Suspense>
        <Card title={`Leases · ${leased.length}`}>
          {leased.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No lease.</p>
          ) : (
            <ul className="text-sm">
              {leased.map((i) => (
                <li key={i.id}>
                  <IssueLink id={i.id} /> until {i.lease!.expires}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </main>
  );
}

async function Recent({ handle, plan, facts, mine }: { handle: string; plan: Plan; facts: PeopleFacts; mine: readonly Plan["issues"][number][] }) {
  const recent = await recentOf(handle, plan, facts, mine);
  return (
    <>
      <Card title={`Recent moves · ${recent.moves.length}`}>
        {recent.moves.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No move in the timelines of their issues.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm" data-testid="person-moves">
            {recent.moves.map((m) => (
              <li key={`${m.id} ${m.at} ${m.commit}`} className="flex flex-wrap items-baseline gap-x-2" data-testid={`person-move-${m.id}`}>
                <span className="tabular-nums text-slate-700 dark:text-slate-300">{when(m.at)}</span>
                <IssueLink id={m.id} />
                <span>
                  {m.from ?? "new"} → {m.to ?? "removed"}
                </span>
                <span className="text-slate-700 dark:text-slate-300">
                  by {m.by}
                  {m.commit === null ? " (not committed yet)" : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title={`Recent commits · ${recent.commits.length}`}>
        {recent.commits.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No commit of theirs is linked to an issue.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm" data-testid="person-commits">
            {recent.commits.map((c) => (
              <li key={c.sha} className="flex flex-wrap items-baseline gap-x-2" data-testid={`person-commit-${c.sha.slice(0, 7)}`}>
                <span className="tabular-nums text-slate-700 dark:text-slate-300">{when(c.authored_at)}</span>
                <code title={c.sha}>{c.sha.slice(0, 7)}</code>
                <span>{c.subject}</span>
                <span>
                  {c.issues.map((id, i) => (
                    <span key={id}>
                      {i > 0 && ", "}
                      <IssueLink id={id} />
                    </span>
                  ))}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
