import { AutoRefresh } from "@/components/AutoRefresh";
import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import { UndoButton } from "@/components/UndoButton";
import { TableHead } from "@/components/TableHead";
import { planActivityCapability } from "@/lib/capabilities/plan-activity";
import { call, servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Activity" };

/** An ISO time as "2026-11-30 09:50 UTC". */
const when = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : new Date(iso).toISOString().replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC"));

/** The undo history (docs/undo-and-retries.md#activity): this clone's recent moves and edits, newest first, each with Undo while it still applies. */
export default async function ActivityPage() {
  const activity = await call(planActivityCapability, { limit: 100 });
  const milestones = new Set((await servedState()).plan.milestones.map((m) => m.id));
  return (
    <main className="flex flex-col gap-6">
      <AutoRefresh everyMs={10000} />
      <h1 className="text-2xl font-semibold">Activity</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        The recent moves and edits made through this Cockpit, newest first. Undo puts a record back exactly as it was before one of them, while nothing has changed it since; only
        whoever made it may.
      </p>
      {activity.entries.length === 0 ? (
        <p className="text-sm" data-testid="activity-empty">
          No move or edit yet.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[44rem] text-left text-sm" data-testid="activity-table">
            <TableHead columns={["When", "Who", "Record", "What", "Undo"]} />
            <tbody>
              {activity.entries.map((e) => (
                <tr key={e.ledger_id} className="border-b border-slate-200 align-top dark:border-slate-800" data-testid={`activity-${e.ledger_id}`}>
                  <td className="whitespace-nowrap py-1.5 pr-3 tabular-nums text-slate-700 dark:text-slate-300">{when(e.at)}</td>
                  <td className="py-1.5 pr-3">{e.by}</td>
                  <td className="whitespace-nowrap py-1.5 pr-3">
                    {milestones.has(e.record) ? <MilestoneLink id={e.record} /> : <IssueLink id={e.record} />}
                  </td>
                  <td className="py-1.5 pr-3">{e.summary}</td>
                  <td className="py-1.5">
                    {e.undo.possible ? (
                      <UndoButton ledgerId={e.ledger_id} record={e.record} />
                    ) : (
                      <span className="text-xs text-slate-600 dark:text-slate-400" data-testid={`undo-why-${e.ledger_id}`}>
                        {e.undo.why}
                      </span>
                    )}
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
