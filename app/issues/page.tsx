import Link from "@/components/Link";
import { BulkEdit, RowCheck, SelectAll } from "@/components/BulkEdit";
import { Card } from "@/components/Card";
import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import { SavedViews } from "@/components/SavedViews";
import { StatusBadge } from "@/components/StatusBadge";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { planCodeOf } from "@/lib/code/shapes";
import { durationWords } from "@/lib/coordination/sessions";
import { ownersOf } from "@/lib/people/facts";
import { COLUMNS, GROUPS, NOBODY, filterRows, groupRows, issueRows, parseView, sortRows, viewQuery, type Column, type TableView } from "@/lib/plan/issue-table";
import { ISSUE_STATUSES } from "@/lib/plan/constants";
import { call, servedRepo } from "@/lib/surfaces/pages";
import { personHref } from "@/app/standup/PeopleView";

export const dynamic = "force-dynamic";
export const metadata = { title: "Issues" };

const HEADINGS: Record<Column, string> = { id: "Id", title: "Title", status: "Status", owner: "Owner", milestone: "Milestone", priority: "Priority", wave: "Wave", waits: "Waits on", code: "Code", age: "In its status" };
const FIELD = "rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900";

/** One filter of the form: a labelled select of `[value, label]` options. */
function SelectField({ label, name, value, testId, options }: { label: string; name: string; value: string; testId: string; options: readonly (readonly [string, string])[] }) {
  return (
    <label className="flex flex-col gap-1 text-xs">
      {label}
      <select name={name} defaultValue={value} className={`${FIELD} max-w-[min(16rem,calc(100vw-2rem))]`} data-testid={testId}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A column's heading: a link that sorts by it (again: the other way), with aria-sort on the column sorted by. */
function SortHeading({ view, column }: { view: TableView; column: Column }) {
  const sorted = view.sort === column;
  const next = viewQuery(view, { sort: column, dir: sorted && view.dir === "asc" ? "desc" : "asc" });
  return (
    <th className="whitespace-nowrap py-1 pr-3 font-medium" aria-sort={sorted ? (view.dir === "asc" ? "ascending" : "descending") : undefined}>
      <Link href={`/issues${next ? `?${next}` : ""}`} className="hover:underline" data-testid={`sort-${column}`}>
        {HEADINGS[column]}
        {sorted ? (view.dir === "asc" ? " ↑" : " ↓") : ""}
      </Link>
    </th>
  );
}

/** Every issue as a table (docs/browser.md): sort by any column, group, filter; the whole view is the address, so a link shares it. */
export default async function IssuesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = parseView(await searchParams);
  const plan = await call(planModelCapability);
  const code = new Map(planCodeOf(await call(planCodeCapability)).issues.map((i) => [i.id, { branches: i.branches.length, merged: i.merged !== null }]));
  const owners = ownersOf(servedRepo(), plan);
  const all = issueRows(plan, owners, code);
  const kept = sortRows(filterRows(all, view), view);
  const groups = groupRows(kept, view.group);
  const people = [...new Set(all.map((r) => r.owner).filter(Boolean))].sort();
  const priorities = [...new Set(all.map((r) => r.priority))].sort();
  const query = viewQuery(view);
  const shown = groups.flatMap((g) => g.rows.map((r) => r.id));
  return (
    <main className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Issues</h1>
      <form method="get" action="/issues" role="search" aria-label="Filter the issues" className="flex flex-wrap items-end gap-3" data-testid="issues-filters">
        <label className="flex flex-col gap-1 text-xs">
          Text (every word)
          <input type="search" name="q" defaultValue={view.q} placeholder="an id, a title, an owner" className={`${FIELD} w-56 max-w-full`} data-testid="issues-q" />
        </label>
        <SelectField label="Status" name="status" value={view.status ?? ""} testId="issues-status" options={[["", "Any"], ...ISSUE_STATUSES.map((s) => [s, s] as const)]} />
        <SelectField
          label="Owner"
          name="owner"
          value={view.owner === undefined ? "" : view.owner === "" ? NOBODY : view.owner}
          testId="issues-owner"
          options={[["", "Anyone"], [NOBODY, "Nobody"], ...people.map((p) => [p, p] as const)]}
        />
        <SelectField label="Milestone" name="milestone" value={view.milestone ?? ""} testId="issues-milestone" options={[["", "Any"], ...plan.milestones.map((m) => [m.id, m.id] as const)]} />
        <SelectField label="Priority" name="priority" value={view.priority ?? ""} testId="issues-priority" options={[["", "Any"], ...priorities.map((p) => [p, p] as const)]} />
        <SelectField label="Group by" name="group" value={view.group ?? ""} testId="issues-group" options={[["", "Nothing"], ...GROUPS.map((g) => [g, g] as const)]} />
        {view.sort !== "id" && <input type="hidden" name="sort" value={view.sort} />}
        {view.dir !== "asc" && <input type="hidden" name="dir" value={view.dir} />}
        <button type="submit" className="rounded bg-blue-700 px-3 py-1 text-sm font-semibold text-white hover:bg-blue-800" data-testid="issues-apply">
          Show
        </button>
        {query && (
          <Link href="/issues" className="text-sm text-blue-700 underline dark:text-blue-300">
            Clear
          </Link>
        )}
      </form>
      <SavedViews href={`/issues${query ? `?${query}` : ""}`} />
      <p className="text-sm" role="status" data-testid="issues-count">
        {kept.length === all.length ? `${all.length} issues.` : `${kept.length} of ${all.length} issues match.`}
      </p>
      <BulkEdit ids={shown} people={people} priorities={priorities} milestones={plan.milestones.map((m) => m.id)}>
      {groups.map((g) => (
        <Card key={g.key || "all"} title={view.group ? `${view.group === "wave" ? `Wave ${g.key}` : g.key} (${g.rows.length})` : undefined}>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[60rem] text-left text-sm" data-testid={`issues-table${g.key ? `-${g.key}` : ""}`}>
              <thead className="text-xs text-slate-600 dark:text-slate-400">
                <tr className="border-b border-slate-300 dark:border-slate-700">
                  <th className="w-6 py-1 pr-2">
                    <SelectAll ids={g.rows.map((r) => r.id)} />
                  </th>
                  {COLUMNS.map((c) => (
                    <SortHeading key={c} view={view} column={c} />
                  ))}
                </tr>
              </thead>
              <tbody>
                {g.rows.map((r) => (
                  <tr key={r.id} className="border-b border-slate-200 align-top dark:border-slate-800" data-testid={`issue-row-${r.id}`} data-bulk-id={r.id}>
                    <td className="py-1 pr-2">
                      <RowCheck id={r.id} />
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3">
                      <IssueLink id={r.id} />
                    </td>
                    <td className="py-1 pr-3">{r.title}</td>
                    <td className="whitespace-nowrap py-1 pr-3">
                      <StatusBadge status={r.status} kind="issue" />
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3">
                      {r.owner ? (
                        <Link href={personHref(r.owner)} className="text-blue-700 underline dark:text-blue-300">
                          {r.owner}
                        </Link>
                      ) : (
                        <span className="text-slate-500">nobody</span>
                      )}
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3">
                      <MilestoneLink id={r.milestone} />
                    </td>
                    <td className="py-1 pr-3">{r.priority}</td>
                    <td className="py-1 pr-3 tabular-nums">{r.wave}</td>
                    <td className="py-1 pr-3">
                      {r.waits.map((w, i) => (
                        <span key={w}>
                          {i > 0 && ", "}
                          {w.startsWith("milestone:") ? <span className="font-mono text-xs">{w}</span> : <IssueLink id={w} />}
                        </span>
                      ))}
                    </td>
                    <td className="whitespace-nowrap py-1 pr-3">{r.branches > 0 || r.merged ? `${r.branches} branch${r.branches === 1 ? "" : "es"}${r.merged ? ", merged" : ""}` : ""}</td>
                    <td className="whitespace-nowrap py-1 tabular-nums">{r.age_s === null ? "" : durationWords(r.age_s * 1000)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ))}
      </BulkEdit>
    </main>
  );
}
