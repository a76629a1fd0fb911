import Link from "@/components/Link";
import { BlockerLink, IssueLink, MilestoneLink } from "@/components/IssueLink";
import { StatusBadge } from "@/components/StatusBadge";
import { UnsealedMark } from "@/components/UnsealedMark";
import type { KnownIds } from "@/components/FindingMessage";
import { WindowFindingItems } from "@/components/standup/WindowFindings";
import type { PlanStandup, StandupBlocked, StandupCode, StandupIssue, StandupLanded, StandupLists, StandupOpen } from "@/lib/people/shapes";

// The standup by person (the default view): plan.standup's answer, one card per person, then the
// issues nobody has, the window's findings (the plan's and the code's), the next issue and the
// roadmap. The answer is rendered as it is: nothing is derived here.

const LISTS: { key: keyof StandupLists; title: string }[] = [
  { key: "done", title: "Done" },
  { key: "landed", title: "Landed" },
  { key: "verify", title: "In VERIFY" },
  { key: "active", title: "In progress" },
  { key: "blocked", title: "Blocked" },
  { key: "started", title: "Started" },
];

export function personHref(handle: string): string {
  return `/people/${encodeURIComponent(handle)}`;
}

/** An ISO time as "2026-11-30 09:50 UTC". */
function when(iso: string): string {
  return iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");
}

/** The issue's linked commits in the window, in a few words. */
function CodeActivity({ code, projector }: { code: StandupCode; projector: boolean }) {
  return (
    <span className={`rounded bg-slate-100 px-1 text-slate-800 dark:bg-slate-800 dark:text-slate-200 ${projector ? "" : "text-xs"}`} data-testid="code-activity">
      {code.commits} commit{code.commits === 1 ? "" : "s"} by {code.authors.join(", ")}
    </span>
  );
}

function Entry({ item, projector, isUnsealed }: { item: StandupIssue | StandupOpen | StandupBlocked | StandupLanded; projector: boolean; isUnsealed: boolean }) {
  const stuck = "stuck_days" in item && item.stuck_days !== null ? item.stuck_days : null;
  return (
    <li className="flex flex-wrap items-baseline gap-x-2" data-testid={`person-issue-${item.id}`}>
      <IssueLink id={item.id} /> <span>{item.title}</span>
      <StatusBadge status={item.status} />
      {isUnsealed && <UnsealedMark id={item.id} />}
      {stuck !== null && <span className="text-amber-800 dark:text-amber-300">stuck {stuck} days</span>}
      {"merged" in item && (
        <span className={`text-slate-700 dark:text-slate-300 ${projector ? "" : "text-sm"}`} data-testid="landed-merge">
          merged by <code title={item.merged.commit}>{item.merged.commit.slice(0, 7)}</code> at {when(item.merged.at)}
        </span>
      )}
      {item.code && <CodeActivity code={item.code} projector={projector} />}
      {"blocked_by" in item && item.blocked_by.length > 0 && (
        <span className={`text-slate-700 dark:text-slate-300 ${projector ? "" : "text-sm"}`}>
          blocked by{" "}
          {item.blocked_by.map((b, i) => (
            <span key={b.entry}>
              {i > 0 && ", "}
              <BlockerLink entry={b.entry} />
              {b.owner && (
                <>
                  {" "}(<Link href={personHref(b.owner)} className="text-blue-700 underline dark:text-blue-300">{b.owner}</Link>)
                </>
              )}
            </span>
          ))}
        </span>
      )}
    </li>
  );
}

/**
 * How many entries of one list a standup card shows before "+N more": a person blocked by a long
 * chain has a hundred blocked issues, which nobody reads out at a standup and which made the page
 * seconds slower to become interactive (measured on the bench's 1k-issue plan).
 */
export const CARD_LIST_LIMIT = 8;

/**
 * One person's lists (or the unowned ones), each titled with its count; empty lists are left out.
 * `unsealed`: the issues whose stamps do not count, marked as such (a person's page gives them).
 * With `more`, a list longer than CARD_LIST_LIMIT shows its first entries and a link to the whole.
 */
export function PersonLists({ lists, projector = false, unsealed, more }: { lists: StandupLists; projector?: boolean; unsealed?: ReadonlySet<string>; more?: string }) {
  const shown = LISTS.filter((l) => lists[l.key].length > 0);
  if (shown.length === 0) return <p className="text-slate-600 dark:text-slate-400">Nothing to say.</p>;
  return (
    <div className="flex flex-col gap-3">
      {shown.map((l) => (
        <div key={l.key} data-testid={`list-${l.key}`}>
          <h3 className={`font-semibold text-slate-700 dark:text-slate-300 ${projector ? "" : "text-sm"}`}>
            {l.title} · {lists[l.key].length}
          </h3>
          <ul className={`flex flex-col gap-1 ${projector ? "" : "text-sm"}`}>
            {(more === undefined ? lists[l.key] : lists[l.key].slice(0, CARD_LIST_LIMIT)).map((item) => (
              <Entry key={item.id} item={item} projector={projector} isUnsealed={unsealed?.has(item.id) ?? false} />
            ))}
            {more !== undefined && lists[l.key].length > CARD_LIST_LIMIT && (
              <li data-testid="list-more">
                <Link href={more} className="text-blue-700 underline dark:text-blue-300">
                  +{lists[l.key].length - CARD_LIST_LIMIT} more
                </Link>
              </li>
            )}
          </ul>
        </div>
      ))}
    </div>
  );
}

const CARD = "rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900";

/** The window's findings: the plan's new and resolved ones, and the code's as of the window's end. */
function Findings({ findings, ids }: { findings: PlanStandup["findings"]; ids: KnownIds }) {
  const count = findings.new.length + findings.resolved.length + findings.code.length;
  return (
    <section aria-labelledby="standup-findings-title" className={CARD} data-testid="standup-findings">
      <h2 id="standup-findings-title" className="mb-3 text-base font-semibold">
        Findings · {count}
      </h2>
      {count === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">None.</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          <WindowFindingItems added={findings.new} resolved={findings.resolved} code={findings.code} ids={ids} />
        </ul>
      )}
    </section>
  );
}

/** A next/roadmap member of the window: unchanged (what it is), or from → to. */
export function FromTo({ label, change, kind }: { label: string; change: { from: string | null; to: string | null }; kind: "issue" | "milestone" }) {
  const show = (v: string | null) => (v === null ? <em>none</em> : kind === "issue" ? <IssueLink id={v} /> : <MilestoneLink id={v} />);
  return (
    <li>
      {label}: {change.from === change.to ? <>unchanged ({show(change.to)})</> : <>{show(change.from)} → {show(change.to)}</>}
    </li>
  );
}

/** `showAll`: where every entry of every list is shown (the same window); without it, the cards show them all. */
export function PeopleView({ standup, unsealed, ids, showAll }: { standup: PlanStandup; unsealed?: ReadonlySet<string>; ids: KnownIds; showAll?: string }) {
  const nobody = Object.values(standup.unowned).some((l) => l.length > 0);
  return (
    <>
      <div className="grid items-start gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="standup-people">
        {standup.people.map((p) => (
          <section
            key={p.person}
            id={`person-${encodeURIComponent(p.person)}`}
            aria-label={`Standup of ${p.person}`}
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            data-testid={`person-${p.person}`}
          >
            <h2 className="mb-3 flex flex-wrap items-baseline justify-between gap-2 text-base font-semibold">
              <Link href={personHref(p.person)} className="text-blue-700 underline dark:text-blue-300">
                {p.person}
              </Link>
              <span className="text-sm font-normal text-slate-600 dark:text-slate-400">
                {p.commits} linked commit{p.commits === 1 ? "" : "s"}
              </span>
            </h2>
            <PersonLists lists={p} unsealed={unsealed} more={showAll && `${showAll}#person-${encodeURIComponent(p.person)}`} />
          </section>
        ))}
        {nobody && (
          <section id="person-unowned" aria-label="Issues nobody has" className="rounded-lg border border-dashed border-slate-300 bg-white p-4 dark:border-slate-700 dark:bg-slate-900" data-testid="person-unowned">
            <h2 className="mb-3 text-base font-semibold">Nobody&apos;s</h2>
            <PersonLists lists={standup.unowned} unsealed={unsealed} more={showAll && `${showAll}#person-unowned`} />
          </section>
        )}
      </div>
      <div className="grid items-start gap-4 md:grid-cols-2">
        <Findings findings={standup.findings} ids={ids} />
        <section aria-labelledby="standup-next-title" className={CARD} data-testid="standup-next">
          <h2 id="standup-next-title" className="mb-3 text-base font-semibold">
            Next issue and roadmap
          </h2>
          <ul className="flex flex-col gap-2 text-sm">
            <FromTo label="Next issue" change={standup.next} kind="issue" />
            <FromTo label="Roadmap now" change={standup.roadmap.now} kind="milestone" />
            <FromTo label="Roadmap next" change={standup.roadmap.next} kind="milestone" />
          </ul>
        </section>
      </div>
    </>
  );
}
