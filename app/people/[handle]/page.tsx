import { notFound } from "next/navigation";
import { Card } from "@/components/Card";
import { BlockedBy, IssueLink } from "@/components/IssueLink";
import { StatusBadge } from "@/components/StatusBadge";
import { UnsealedMark } from "@/components/UnsealedMark";
import { unsealedIssueIds } from "@/lib/plan/unsealed";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { planStandupCapability } from "@/lib/capabilities/plan-standup";
import { authorHandles, issuesByPerson } from "@/lib/people/people";
import { readPeopleFacts } from "@/lib/people/facts";
import { call, servedRepo } from "@/lib/surfaces/pages";
import { PersonLists } from "@/app/standup/PeopleView";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ handle: string }> }) {
  return { title: decodeURIComponent((await params).handle) };
}

const ORDER = ["ACTIVE", "VERIFY", "BLOCKED", "READY", "DONE", "CANCELLED"];

/** One person: their issues by status, what blocks them, their leases, and their standup since the previous working day. */
export default async function PersonPage({ params }: { params: Promise<{ handle: string }> }) {
  const handle = decodeURIComponent((await params).handle);
  const plan = await call(planModelCapability);
  const facts = await readPeopleFacts(servedRepo(), plan);
  const people = issuesByPerson(plan.issues, facts.ownership, facts.handles, authorHandles(facts.authors, facts.handles).values());
  const issues = people.get(handle);
  if (issues === undefined) notFound();
  const standup = await call(planStandupCapability, {});
  const mine = standup.people.find((p) => p.person === handle);
  const statuses = [...new Set([...ORDER, ...issues.map((i) => i.status)])].filter((s) => issues.some((i) => i.status === s));
  const unsealed = unsealedIssueIds(plan);
  const leased = plan.issues.filter((i) => i.lease && i.lease.holder === handle);
  return (
    <main className="flex flex-col gap-6" data-testid={`person-page-${handle}`}>
      <h1 className="text-2xl font-semibold">{handle}</h1>
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
