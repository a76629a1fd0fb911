import Link from "@/components/Link";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { planAgentsCapability } from "@/lib/capabilities/plan-agents";
import { peopleOf, readPeopleFacts } from "@/lib/people/facts";
import { kindsOf } from "@/lib/server/security/kinds";
import { call, servedRepo } from "@/lib/surfaces/pages";
import { personHref } from "@/app/standup/PeopleView";

export const dynamic = "force-dynamic";
export const metadata = { title: "People" };

const STATUSES = ["ACTIVE", "VERIFY", "BLOCKED", "READY", "DONE"] as const;

/** Everyone the repository names (docs/people.md), with how many issues they have in each status. */
export default async function PeoplePage() {
  const plan = await call(planModelCapability);
  const facts = await readPeopleFacts(servedRepo(), plan);
  const people = peopleOf(plan.issues, facts);
  // A users file's agents, and whoever opened a session as an agent (a claim of the next issue, an MCP client).
  const kinds = kindsOf(people.keys());
  try {
    for (const s of (await call(planAgentsCapability)).sessions) if (s.kind === "agent" && people.has(s.actor)) kinds.set(s.actor, "agent");
  } catch {
    // A store that cannot be read marks no one more.
  }
  return (
    <main className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">People</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Issue owners, whoever acted in the ledger (people and agents) and the commit authors, mapped to one handle each (by .mailmap, the email, or the first name).
      </p>
      <div className="max-w-3xl overflow-x-auto">
        <table className="w-full max-w-3xl text-left text-sm" data-testid="people-table">
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              <th className="py-1 pr-4">Person</th>
              {STATUSES.map((s) => (
                <th key={s} className="py-1 pr-4 text-right">{s}</th>
              ))}
              <th className="py-1 text-right">All</th>
            </tr>
          </thead>
          <tbody>
            {[...people].map(([person, issues]) => (
              <tr key={person} className="border-b border-slate-200 dark:border-slate-800" data-testid={`people-row-${person}`}>
                <td className="py-1 pr-4">
                  <Link href={personHref(person)} className="text-blue-700 underline dark:text-blue-300">{person}</Link>
                  {kinds.get(person) === "agent" ? (
                    <span className="ml-2 rounded border border-violet-400 px-1 text-xs text-violet-800 dark:border-violet-500 dark:text-violet-200" data-testid={`people-kind-${person}`} title="a coding agent">
                      agent
                    </span>
                  ) : null}
                </td>
                {STATUSES.map((s) => (
                  <td key={s} className="py-1 pr-4 text-right tabular-nums">{issues.filter((i) => i.status === s).length}</td>
                ))}
                <td className="py-1 text-right tabular-nums">{issues.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  );
}
