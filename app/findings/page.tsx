import { planValidateCapability } from "@/lib/capabilities/plan-validate";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planCodeOf } from "@/lib/code/shapes";
import Link from "@/components/Link";
import { Card } from "@/components/Card";
import { IssueLink, MilestoneLink } from "@/components/IssueLink";
import { FindingMessage, knownIds } from "@/components/FindingMessage";
import {
  FINDINGS_PAGE_SIZE,
  filterFindings,
  formatFindingQuery,
  isFiltered,
  pageOf,
  parseFindingQuery,
  type FindingPage,
  type FindingQuery,
} from "@/lib/plan/finding-query";
import type { PlanFinding } from "@/lib/plan/shapes";
import { call, servedState } from "@/lib/surfaces/pages";

export const dynamic = "force-dynamic";
export const metadata = { title: "Findings" };

/** Each id of a finding's subject, linked to its record. */
function Subject({ f, milestones }: { f: PlanFinding; milestones: Set<string> }) {
  if (f.subject === "graph") return <Link href="/waves#cycle" className="font-mono text-blue-700 underline dark:text-blue-300">graph</Link>;
  if (f.subject === "PROJECT") return <Link href="/#project" className="font-mono text-blue-700 underline dark:text-blue-300">PROJECT</Link>;
  const ids = f.code === "milestone_cycle" ? f.subject.split(" ") : [f.subject];
  return (
    <>
      {ids.map((id, i) => (
        <span key={`${id}-${i}`}>
          {i > 0 && " "}
          {f.code === "unreadable_record" ? (
            <span className="font-mono">{id}</span>
          ) : milestones.has(id) ? (
            <MilestoneLink id={id}><span className="font-mono">{id}</span></MilestoneLink>
          ) : (
            <IssueLink id={id} />
          )}
        </span>
      ))}
    </>
  );
}

const FIELD = "rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900";

function Pager({ query, code, page }: { query: FindingQuery; code: string; page: FindingPage }) {
  if (page.pages <= 1) return null;
  const href = (n: number) => `/findings?${formatFindingQuery(query, { code, page: n })}`;
  return (
    <nav aria-label={`Pages of ${code}`} className="ml-4 mt-1 flex flex-wrap items-center gap-3 text-sm" data-testid={`findings-pager-${code}`}>
      <span>
        {page.from}–{page.to} of {page.total}, page {page.page} of {page.pages}
      </span>
      {page.page > 1 && (
        <Link href={href(page.page - 1)} className="text-blue-700 underline dark:text-blue-300">
          ← Previous
        </Link>
      )}
      {page.page < page.pages && (
        <Link href={href(page.page + 1)} className="text-blue-700 underline dark:text-blue-300" data-testid="findings-next">
          Next {Math.min(FINDINGS_PAGE_SIZE, page.total - page.to)} →
        </Link>
      )}
    </nav>
  );
}

export default async function FindingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = parseFindingQuery(await searchParams);
  const validation = await call(planValidateCapability);
  // What the code says against the plan (docs/code-links.md): its own group, counted as the overview and the standup count it.
  const codeFindings = planCodeOf(await call(planCodeCapability)).findings;
  const plan = (await servedState()).plan;
  const milestones = new Set(plan.milestones.map((m) => m.id));
  const issueMilestone = new Map(plan.issues.map((i) => [i.id, i.milestone]));
  const ids = knownIds(plan);
  const allCodes = [...new Set(validation.findings.map((f) => f.code))].sort();
  const kept = filterFindings(validation.findings, query, (id) => issueMilestone.get(id));
  const levels = ["FAIL", "WARN"] as const;
  return (
    <main className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Findings</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {validation.failures} failure(s) and {validation.warnings} warning(s) over {validation.milestones} milestones and {validation.issues} issues, and {codeFindings.length} from
        the code.{" "}
        {validation.valid ? "The model is valid." : "A failure means the model is invalid; a warning is legal and worth reading."}
      </p>
      <form method="get" action="/findings" role="search" aria-label="Search the findings" className="flex flex-wrap items-end gap-3" data-testid="findings-filters">
        <label className="flex flex-col gap-1 text-xs">
          Search (every word)
          <input type="search" name="q" defaultValue={query.q} placeholder="an id, a path, a word" className={`${FIELD} w-64 max-w-full`} data-testid="findings-q" />
        </label>
        <label className="flex flex-col gap-1 text-xs">
          Level
          <select name="level" defaultValue={query.level ?? ""} className={FIELD} data-testid="findings-level">
            <option value="">Any</option>
            <option value="FAIL">FAIL</option>
            <option value="WARN">WARN</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs">
          Code
          <select name="code" defaultValue={query.code ?? ""} className={`${FIELD} max-w-[min(20rem,calc(100vw-2rem))]`} data-testid="findings-code">
            <option value="">Any</option>
            {allCodes.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs">
          Subject
          <input type="text" name="subject" defaultValue={query.subject} placeholder="an issue or milestone id" className={`${FIELD} w-44`} data-testid="findings-subject" />
        </label>
        <label className="flex flex-col gap-1 text-xs">
          Milestone
          <select name="milestone" defaultValue={query.milestone ?? ""} className={`${FIELD} max-w-[min(20rem,calc(100vw-2rem))]`} data-testid="findings-milestone">
            <option value="">Any</option>
            {plan.milestones.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title || m.id}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded bg-blue-700 px-3 py-1 text-sm font-semibold text-white hover:bg-blue-800" data-testid="findings-search">
          Search
        </button>
        {isFiltered(query) && (
          <Link href="/findings" className="text-sm text-blue-700 underline dark:text-blue-300" data-testid="findings-clear">
            Clear
          </Link>
        )}
      </form>
      {isFiltered(query) && (
        <p className="text-sm" role="status" data-testid="findings-count">
          {kept.length} of {validation.findings.length} findings match.
        </p>
      )}
      {levels.map((level) => {
        const mine = kept.filter((f) => f.level === level);
        const codes = [...new Set(mine.map((f) => f.code))];
        return (
          <Card key={level} id={level} title={`${level === "FAIL" ? "Failures" : "Warnings"} (${mine.length})`}>
            {codes.length === 0 && <p className="text-sm">None.</p>}
            {codes.map((code) => {
              const list = mine.filter((f) => f.code === code);
              const page = pageOf(list, query.code === code ? query.page : 1);
              return (
                <details key={code} open={list.length <= 20 || query.code === code} className="mb-2" data-testid={`findings-${code}`}>
                  <summary className="cursor-pointer text-sm font-semibold">
                    <span className="font-mono">{code}</span> ({list.length})
                  </summary>
                  <ul className="ml-4 mt-1 text-sm [overflow-wrap:anywhere]">
                    {page.items.map((f, i) => (
                      <li key={i} className="py-0.5">
                        <Subject f={f} milestones={milestones} /> — <FindingMessage finding={f} ids={ids} />
                      </li>
                    ))}
                  </ul>
                  <Pager query={query} code={code} page={page} />
                </details>
              );
            })}
          </Card>
        );
      })}
      <Card id="code" title={`What the code says (${codeFindings.length})`}>
        {codeFindings.length === 0 ? (
          <p className="text-sm">Nothing: no branch or commit disagrees with the plan.</p>
        ) : (
          <ul className="text-sm [overflow-wrap:anywhere]" data-testid="findings-code-group">
            {codeFindings.map((f, i) => (
              <li key={`${f.code}-${f.subject}-${i}`} className="py-0.5">
                <span className={f.level === "FAIL" ? "font-semibold text-red-700 dark:text-red-400" : "font-semibold text-amber-800 dark:text-amber-400"}>{f.level}</span>{" "}
                <span className="font-mono text-xs">{f.code}</span> {ids.issues.has(f.subject) ? <IssueLink id={f.subject} /> : <span className="font-mono">{f.subject}</span>} —{" "}
                <FindingMessage finding={f} ids={ids} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  );
}
