import { planRecordCapability } from "@/lib/capabilities/plan-record";
import { notFound } from "next/navigation";
import { callOrNotFound } from "@/app/lookup";
import { Card } from "@/components/Card";
import { EvidenceForm } from "@/components/EvidenceForm";
import { EvidenceCoverage, evidenceTitle } from "@/components/EvidenceCoverage";
import { missingEvidence } from "@/lib/plan/evidence-coverage";
import { NewIssueForm } from "@/components/NewIssueForm";
import { RecordEditor } from "@/components/RecordEditor";
import { editorProps } from "@/app/editor-props";
import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import { RecordTimeline } from "@/components/RecordTimeline";
import { SegmentBar, StatusLegend } from "@/components/SegmentBar";
import { LeaseNote } from "@/components/LeaseNote";
import { StatusBadge } from "@/components/StatusBadge";
import { UnsealedMark } from "@/components/UnsealedMark";
import { unsealedIssueIds } from "@/lib/plan/unsealed";
import { servedRepo, servedState } from "@/lib/surfaces/pages";
import { ownersOf } from "@/lib/people/facts";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return { title: decodeURIComponent(id) };
}

export default async function MilestonePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ person?: string | string[] }> }) {
  const id = decodeURIComponent((await params).id);
  const asked = (await searchParams).person;
  const person = typeof asked === "string" && asked.trim() !== "" ? asked.trim() : undefined;
  const record = await callOrNotFound(planRecordCapability, { id });
  if (!("milestone" in record)) notFound();
  const m = record.milestone;
  const served = await servedState();
  const raw = served.records.milestones.find((r) => r.id === id);
  const unsealed = unsealedIssueIds(served.plan);
  // Who each issue is on (its owner as written), and the people of this milestone for the filter.
  const owners = ownersOf(servedRepo(), served.plan);
  const ownerOf = (issue: string) => owners.get(issue)?.trim() ?? "";
  const people = [...new Set(record.issues.map((i) => ownerOf(i.id)).filter((o) => o !== ""))].sort((a, b) => a.localeCompare(b));
  const shown = person === undefined ? record.issues : record.issues.filter((i) => ownerOf(i.id) === person);
  return (
    <main className="flex flex-col gap-6">
      <div>
        <p className="text-sm text-slate-600 dark:text-slate-400">Milestone{m.version ? ` · version ${m.version}` : ""} · rank {m.rank} · order {m.order}</p>
        <h1 className="flex items-center gap-3 text-2xl font-semibold">
          <span>{m.title || m.id}</span>
          <span data-testid="milestone-status">
            <StatusBadge status={m.status} kind="milestone" />
          </span>
        </h1>
        <p className="font-mono text-sm">{m.id}</p>
        {m.outcome && <p className="mt-2 max-w-3xl text-sm">{m.outcome}</p>}
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Card title={`Issues: ${m.counts.by_status.DONE ?? 0} of ${m.counts.required} done`}>
          <SegmentBar counts={m.counts} className="mb-2" />
          <StatusLegend />
          <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
            {Object.entries(m.counts.by_status).map(([s, n]) => (
              <div key={s}>
                <dt className="text-xs text-slate-600 dark:text-slate-400">{s}</dt>
                <dd className="tabular-nums">{n}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Its graph">
          <dl className="grid grid-cols-[minmax(0,8rem)_minmax(0,1fr)] gap-y-1 text-sm">
            <dt>Depends on</dt>
            <dd>{m.depends_on.length ? m.depends_on.map((d, i) => <span key={`${d}-${i}`}>{i > 0 && ", "}<MilestoneLink id={d} /></span>) : "nothing"}</dd>
            <dt>Blocked by</dt>
            <dd data-testid="milestone-blocked-by">{m.blocked_by.length ? m.blocked_by.map((d, i) => <span key={`${d}-${i}`}>{i > 0 && ", "}<MilestoneLink id={d} /></span>) : "nothing"}</dd>
            <dt>Unblocks</dt>
            <dd>{m.dependents.length ? m.dependents.map((d, i) => <span key={d}>{i > 0 && ", "}<MilestoneLink id={d} /></span>) : "nothing"}</dd>
            <dt>Claims</dt>
            <dd>{m.claims.length ? m.claims.join("; ") : "none"}</dd>
          </dl>
        </Card>
      </div>
      <Card title="Issues">
        <form method="get" className="mb-2 flex flex-wrap items-center gap-2 text-sm" data-testid="milestone-person-filter">
          <label htmlFor="milestone-person" className="whitespace-nowrap">
            Person
          </label>
          <select id="milestone-person" name="person" defaultValue={person ?? ""} className="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900">
            <option value="">everyone</option>
            {people.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
            {person !== undefined && !people.includes(person) && <option value={person}>{person}</option>}
          </select>
          <button type="submit" className="whitespace-nowrap rounded border border-slate-300 px-2 py-1 dark:border-slate-600">
            Show
          </button>
          {person !== undefined && (
            <span data-testid="milestone-person-shown">
              {shown.length} of {record.issues.length} issues are {person}&apos;s
            </span>
          )}
        </form>
        {/* On a phone the table scrolls inside its card, the page does not. */}
        <div className="overflow-x-auto">
          <table className="w-full min-w-[44rem] text-sm">
            <thead className="text-left text-xs text-slate-600 dark:text-slate-400">
              <tr className="whitespace-nowrap">
                <th className="pr-3 font-medium">Issue</th>
                <th className="pr-3 font-medium">Status</th>
                <th className="pr-3 font-medium">Wave</th>
                <th className="pr-3 font-medium">Title</th>
                <th className="pr-3 font-medium">Owner</th>
                <th className="pr-3 font-medium">Priority</th>
                <th className="font-medium">Waits on</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((i) => (
                <tr key={i.id} className="border-t border-slate-100 dark:border-slate-800" data-testid={`milestone-issue-${i.id}`}>
                  <td className="whitespace-nowrap py-1 pr-3"><IssueLink id={i.id} /></td>
                  <td className="whitespace-nowrap pr-3"><StatusBadge status={i.status} /> {unsealed.has(i.id) && <UnsealedMark id={i.id} />} <LeaseNote lease={i.lease} /></td>
                  <td className="pr-3 tabular-nums">{i.wave}</td>
                  <td className="pr-3">{i.title}</td>
                  <td className="whitespace-nowrap pr-3" data-testid={`milestone-owner-${i.id}`}>{ownerOf(i.id) || "—"}</td>
                  <td className="pr-3">{i.priority || "—"}</td>
                  <td className="text-xs">{i.blocked_by.join(", ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {record.issues.length === 0 && <p className="text-sm">No issue names this milestone.</p>}
      </Card>
      <Card title={`Acceptance evidence of the milestone: ${evidenceTitle(raw).slice("Evidence: ".length)}`}>
        <EvidenceCoverage record={raw} />
        <EvidenceForm record={m.id} tokens={raw?.evidence_required ?? []} missing={raw ? missingEvidence(raw) : []} />
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Edit it">
          <RecordEditor {...editorProps("milestone", id, record)} />
        </Card>
        <Card title="New issue">
          <NewIssueForm milestone={id} />
        </Card>
      </div>
      <RecordTimeline id={m.id} kind="milestone" />
    </main>
  );
}
