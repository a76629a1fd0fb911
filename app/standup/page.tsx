import { issueCodeOf, planCodeOf } from "@/lib/code/shapes";
import { planBurnupCapability } from "@/lib/capabilities/plan-burnup";
import { planChangesCapability } from "@/lib/capabilities/plan-changes";
import { planCodeCapability } from "@/lib/capabilities/plan-code";
import { planForecastCapability } from "@/lib/capabilities/plan-forecast";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import { planStandupCapability } from "@/lib/capabilities/plan-standup";
import { planValidateCapability } from "@/lib/capabilities/plan-validate";
import { unsealedIssueIds } from "@/lib/plan/unsealed";
import { FromTo, PeopleView } from "./PeopleView";
import { knownIds } from "@/components/FindingMessage";
import { WindowFindingItems } from "@/components/standup/WindowFindings";
import { Projector } from "./Projector";
import { PinnedUrl } from "./PinnedUrl";
import { Rev } from "./Rev";
import type { PlanStandup } from "@/lib/people/shapes";
import Link from "@/components/Link";
import { type ReactNode, Suspense } from "react";
import { Card } from "@/components/Card";
import { LongAsks } from "./LongAsks";
import { AgentsAtWork } from "./AgentsAtWork";
import { BlockedBy, IssueLink, MilestoneLink } from "@/components/IssueLink";
import { StatusBadge } from "@/components/StatusBadge";
import { BurnupChart, type BurnupSize } from "@/components/standup/BurnupChart";
import { FetchedAt } from "@/components/standup/FetchedAt";
import { SincePicker, type SinceRange } from "@/components/standup/SincePicker";
import { resolveRevision } from "@/lib/history/revision";
import { CapabilityError } from "@/lib/plan/errors";
import {
  type IssueCause,
  type IssueChange,
  type PlanChanges,
  SECTION_TITLES,
  type CodeActivity,
  type SectionKey,
  dayBefore,
  defaultSince,
  lastWeekSince,
} from "@/lib/standup/standup";
import { call, servedRepo, servedState } from "@/lib/surfaces/pages";
import { timeboxSeconds } from "@/lib/standup/projector";
import { SECTION_ORDER, changeView } from "@/lib/standup/change-view";

export const dynamic = "force-dynamic";
export const metadata = { title: "Standup" };

const QUIET_WORDS: Record<SectionKey, string> = {
  done: "done",
  verify: "moved to VERIFY",
  started: "started",
  ready: "newly READY",
  blocked: "newly BLOCKED",
  cancelled: "cancelled",
  added: "added",
  removed: "removed",
  other: "else",
};

type Search = Promise<Record<string, string | string[] | undefined>>;

function one(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === "" ? undefined : s.trim();
}

type View = "people" | "change";

/** The standup's own URL with these ends (and the projector flag and the view kept). */
function hrefOf(since: string, until: string | undefined, projector: boolean, stuck?: string, view: View = "people", from?: string): string {
  const q = new URLSearchParams({ since });
  if (from) q.set("from", from);
  if (until) q.set("until", until);
  if (stuck) q.set("stuck", stuck);
  if (projector) q.set("projector", "1");
  if (view === "change") q.set("view", "change");
  return `/standup?${q}`;
}

export default async function StandupPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const projector = one(sp.projector) === "1";
  const view: View = one(sp.view) === "change" ? "change" : "people";
  const stuckParam = one(sp.stuck);
  const stuckDays = stuckParam === undefined ? 3 : Number(stuckParam);
  const today = new Date().toISOString().slice(0, 10);
  // `from` (the date picker) is the start of a day, which `at` writes as the end of the day before.
  const from = one(sp.from);
  const sinceAsked = one(sp.since) ?? (from && /^\d{4}-\d{2}-\d{2}$/.test(from) ? dayBefore(from) : defaultSince(today));
  const untilAsked = one(sp.until);
  // Every entry of every card (`+N more`), else a card's first entries.
  const showsAll = one(sp.all) === "1";
  // The day asked in the picker rides along once the window is pinned, so the picker keeps it.
  const day = from && /^\d{4}-\d{2}-\d{2}$/.test(from) ? from : undefined;

  if (stuckParam !== undefined && !/^\d{1,3}$/.test(stuckParam)) {
    return (
      <Shell projector={projector} since={sinceAsked} until={untilAsked} view={view}>
        <Card title="Not a number of days">
          <p role="alert" className="text-sm" data-testid="standup-error">
            stuck is a whole number of days, 0 to 999 (for example ?stuck=3); &apos;{stuckParam}&apos; is not.
          </p>
        </Card>
      </Shell>
    );
  }

  // Pin both ends to commits, so a link shared after the meeting shows the same page: the page is
  // derived for the commits the revisions name now, and the address bar is given the pinned URL. A
  // revision that does not resolve is left to the capability, whose error the page shows.
  // Projector mode shows no picker.
  const picker = projector || day ? undefined : pickerCommits(today);
  const pins = await Promise.all([pinOf(sinceAsked), untilAsked === undefined ? undefined : pinOf(untilAsked)]).catch(() => undefined);
  let pin: ReactNode = null;
  if (pins && (pins[0] !== one(sp.since) || pins[1] !== untilAsked)) {
    // The projector's screen and timebox ride along.
    const q = new URLSearchParams(hrefOf(pins[0], pins[1], projector, stuckParam, view, day).slice("/standup?".length));
    for (const k of ["screen", "timebox"]) if (projector && one(sp[k])) q.set(k, one(sp[k])!);
    if (showsAll) q.set("all", "1");
    pin = <PinnedUrl href={`/standup?${q}`} />;
  }

  // The view by person asks plan.standup alone (its window is plan.changes'), the view by change plan.changes.
  let changes: PlanChanges | undefined;
  let standup: PlanStandup | undefined;
  try {
    const window = { since: pins?.[0] ?? sinceAsked, ...(untilAsked ? { until: pins?.[1] ?? untilAsked } : {}) };
    if (view === "people") standup = await call(planStandupCapability, { ...window, ...(stuckParam ? { stuck: stuckDays } : {}) });
    else changes = await call(planChangesCapability, window);
  } catch (error) {
    if (!(error instanceof CapabilityError) || error.code === "internal") throw error;
    return (
      <Shell projector={projector} since={sinceAsked} until={untilAsked} stuck={stuckParam} view={view}>
        <Card title="These revisions cannot be compared">
          <p role="alert" className="text-sm" data-testid="standup-error">
            {error.message}
          </p>
        </Card>
      </Shell>
    );
  }
  const ends = (standup ?? changes)!;
  const sinceCommit = ends.since.commit ?? sinceAsked;
  const untilCommit = untilAsked === undefined ? undefined : (ends.until.commit ?? untilAsked);

  const range = projector ? undefined : rangeOf(sinceCommit, day, picker ? await picker : [null, null]);
  if (standup) {
    const head = standup.until.commit ?? standup.until.head;
    const pinnedNow = hrefOf(sinceCommit, head, projector, stuckParam, view, day);
    if (projector) {
      return (
        <>
          {pin}
          <Projector
          standup={standup}
          screen={one(sp.screen)}
          timebox={timeboxSeconds(one(sp.timebox))}
          exitHref={hrefOf(sinceCommit, untilCommit, false, stuckParam, view, day)}
          heading={
            <>
              since <Rev r={standup.since} small={false} />
            </>
          }
        />
        </>
      );
    }
    return (
      <Shell projector={projector} since={sinceCommit} until={untilAsked} stuck={stuckParam} view={view} from={day} range={range}>
        {pin}
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="standup-range">
          Since <Rev r={standup.since} /> until {untilAsked === undefined ? <strong>now</strong> : <Rev r={standup.until} />} · {standup.people.length} people ·{" "}
          <Link href={pinnedNow} className="text-blue-700 underline dark:text-blue-300" data-testid="standup-permalink">
            link with both ends pinned
          </Link>
        </p>
        <LongAsks />
        <AgentsAtWork />
        <PeopleView
          standup={standup}
          unsealed={await unsealedAt(untilCommit)}
          ids={knownIds((await servedState()).plan)}
          showAll={showsAll ? undefined : `${hrefOf(sinceCommit, untilCommit, false, stuckParam, view, day)}&all=1`}
        />
      </Shell>
    );
  }

  if (!changes) throw new Error("the view by change has the changes' answer");
  const isNow = untilAsked === undefined;
  const [model, head] = await Promise.all([
    call(planModelCapability, isNow ? {} : { at: untilCommit ?? untilAsked }),
    isNow ? sinceHead() : Promise.resolve({ issues: [] as IssueChange[], head: null }),
  ]);
  const uncommitted = head.issues;
  const asOf = isNow ? new Date().toISOString() : (changes.until.committed_at ?? new Date().toISOString());
  const code = planCodeOf(await call(planCodeCapability));
  const { byId, sections, quiet, landed, stuck, lastCode, activity, active } = await changeView({
    changes,
    model,
    code,
    asOf,
    stuckDays,
    issueCode: (id) => call(planCodeCapability, { id }).then(issueCodeOf),
  });
  // Now is pinned to the last commit: what is not committed yet cannot be shared by a link.
  const pinned = hrefOf(sinceCommit, changes.until.commit ?? head.head ?? undefined, projector, stuckParam, view, day);

  return (
    <Shell projector={projector} since={sinceCommit} until={untilAsked} stuck={stuckParam} view={view} from={day} range={range}>
      {pin}
      <p className={projector ? "text-xl" : "text-sm text-slate-700 dark:text-slate-300"} data-testid="standup-range">
        Since <Rev r={changes.since} /> until {isNow ? <strong>now</strong> : <Rev r={changes.until} />} ·{" "}
        {changes.issues.length} issue{changes.issues.length === 1 ? "" : "s"} changed ·{" "}
        <Link href={pinned} className="text-blue-700 underline dark:text-blue-300" data-testid="standup-permalink">
          link with both ends pinned
        </Link>
      </p>

      {quiet.length > 0 && (
        <p className={projector ? "text-xl text-slate-700 dark:text-slate-300" : "text-sm text-slate-700 dark:text-slate-300"} data-testid="standup-quiet">
          Nothing {quiet.map((k) => QUIET_WORDS[k]).join(", ")}.
        </p>
      )}

      <div className={`grid items-start gap-4 ${projector ? "lg:grid-cols-2" : "md:grid-cols-2 xl:grid-cols-3"}`}>
        {SECTION_ORDER.filter((k) => sections[k].length > 0).map((key) => (
          <Section key={key} id={`section-${key}`} title={SECTION_TITLES[key]} count={sections[key].length} projector={projector}>
            {sections[key].map((c) => (
              <ChangeEntry key={c.id} change={c} projector={projector} activity={activity.get(c.id)}>
                {key === "blocked" && byId.get(c.id) && byId.get(c.id)!.blocked_by.length > 0 && <BlockedBy entries={byId.get(c.id)!.blocked_by} />}
              </ChangeEntry>
            ))}
          </Section>
        ))}
        <Section id="section-landed" title="Landed (merged into the default branch)" count={landed.length} projector={projector}>
          {landed.map((l) => (
            <li key={l.id} className="flex flex-wrap items-baseline gap-x-2" data-testid={`landed-${l.id}`}>
              <IssueLink id={l.id} /> <span>{byId.get(l.id)?.title ?? ""}</span>
              {byId.get(l.id) && <StatusBadge status={byId.get(l.id)!.status} />}
              <span className="text-slate-600 dark:text-slate-400">
                merged into {code.default_branch} by <code title={l.commit}>{l.commit.slice(0, 7)}</code> at {when(l.at)}
              </span>
              <Activity activity={activity.get(l.id)} />
            </li>
          ))}
        </Section>

        <Section id="section-stuck" title={`Stuck (ACTIVE or VERIFY for more than ${stuckDays} days)`} count={stuck.length} projector={projector}>
          {stuck.map((s) => (
            <li key={s.id} className="flex flex-wrap items-baseline gap-x-2" data-testid={`stuck-${s.id}`}>
              <IssueLink id={s.id} /> <span>{s.title}</span> <StatusBadge status={s.status} />
              <span className="text-slate-600 dark:text-slate-400">
                {s.days} days, since {when(s.since)}
                {lastCode.get(s.id) === s.since ? " (its last commit)" : ""}
              </span>
              <Activity activity={activity.get(s.id)} />
            </li>
          ))}
        </Section>

        <Section id="section-findings" title="Findings" count={changes.findings.new.length + changes.findings.resolved.length + code.findings.length} projector={projector}>
          <WindowFindingItems added={changes.findings.new} resolved={changes.findings.resolved} code={code.findings} ids={knownIds(model)} />
        </Section>

        <Section id="section-next" title="Next issue and roadmap" count={[changes.next, changes.roadmap.now, changes.roadmap.next].filter((x) => x.from !== x.to).length} projector={projector}>
          <FromTo label="Next issue" change={changes.next} kind="issue" />
          <FromTo label="Roadmap now" change={changes.roadmap.now} kind="milestone" />
          <FromTo label="Roadmap next" change={changes.roadmap.next} kind="milestone" />
          {changes.milestones.map((m) => (
            <li key={m.id}>
              Milestone <MilestoneLink id={m.id} />: {m.from ?? "absent"} → {m.to ?? "removed"}
            </li>
          ))}
        </Section>

        {isNow && (
          <Section id="section-uncommitted" title="Not yet committed in this clone" count={uncommitted.length} projector={projector}>
            {uncommitted.map((c) => (
              <ChangeEntry key={c.id} change={c} projector={projector}>
                <span className="rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900 dark:text-amber-100">uncommitted</span>
              </ChangeEntry>
            ))}
          </Section>
        )}
      </div>

      {active.map((m) => (
        <section
          key={m.id}
          aria-labelledby={`burnup-title-${m.id}`}
          className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id={`burnup-title-${m.id}`} className={`mb-3 font-semibold ${projector ? "text-2xl" : "text-base"}`}>
            Burn-up of <MilestoneLink id={m.id}>{m.title || m.id}</MilestoneLink>
          </h2>
          {/* The burn-up reads a commit per day: the sections above are shown while it is measured. */}
          <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-400">Measuring the burn-up at each day&apos;s last commit…</p>}>
            <Burnup milestone={m.id} title={m.title || m.id} size={projector ? "large" : "page"} today={asOf.slice(0, 10)} todayLabel={isNow ? "today" : "until"} />
          </Suspense>
        </section>
      ))}
    </Shell>
  );
}

function Shell({
  projector,
  since,
  until,
  stuck,
  view,
  from,
  range,
  children,
}: {
  projector: boolean;
  since: string;
  until?: string;
  stuck?: string;
  view: View;
  from?: string;
  range?: SinceRange;
  children: ReactNode;
}) {
  return (
    <main className={`flex flex-col gap-6 ${projector ? "text-xl" : ""}`} data-projector={projector ? "" : undefined}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className={projector ? "text-4xl font-semibold" : "text-2xl font-semibold"}>Standup</h1>
        <nav aria-label="Standup view" className="flex gap-3 text-sm" data-testid="standup-view">
          {(["people", "change"] as const).map((v) =>
            v === view ? (
              <strong key={v} aria-current="page" className="rounded bg-slate-800 px-2 py-0.5 text-white dark:bg-slate-200 dark:text-slate-900">
                {v === "people" ? "By person" : "By change"}
              </strong>
            ) : (
              <Link key={v} href={hrefOf(since, until, projector, stuck, v, from)} className="px-2 py-0.5 text-blue-700 underline dark:text-blue-300">
                {v === "people" ? "By person" : "By change"}
              </Link>
            ),
          )}
        </nav>
        <Link
          href={hrefOf(since, until, !projector, stuck, view, from)}
          className="text-sm text-blue-700 underline dark:text-blue-300"
          data-testid="projector-toggle"
        >
          {projector ? "Leave projector mode" : "Projector mode"}
        </Link>
      </div>
      <FetchedAt />
      {!projector && <SincePicker until={until} stuck={stuck} view={view} range={range} from={from} since={since} />}
      {children}
    </main>
  );
}

/** A revision as the standup's URL pins it: its commit, or itself when it names none (a time before the history). */
async function pinOf(rev: string): Promise<string> {
  return (await resolveRevision(servedRepo(), rev)).commit ?? rev;
}

/** The commits the picker's ranges start after: yesterday's and last week's (asked with the window's own, so git reads the history once). */
function pickerCommits(today: string): Promise<[string | null, string | null]> {
  const commitOf = (rev: string) => resolveRevision(servedRepo(), rev).then((r) => r.commit ?? rev, () => null);
  return Promise.all([commitOf(defaultSince(today)), commitOf(lastWeekSince(today))]);
}

/** Which of the picker's ranges the window is: the day asked, else yesterday's or last week's commit, else a revision. */
function rangeOf(since: string, day: string | undefined, [yesterday, lastWeek]: [string | null, string | null]): SinceRange {
  if (day) return "day";
  return since === yesterday ? "yesterday" : since === lastWeek ? "week" : "revision";
}

function Section({ id, title, count, projector, children }: { id: string; title: string; count: number; projector: boolean; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 id={`${id}-title`} className={`mb-3 font-semibold ${projector ? "text-2xl" : "text-base"}`}>
        {title} · {count}
      </h2>
      {count === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">None.</p>
      ) : (
        <ul className={`flex flex-col gap-2 ${projector ? "" : "text-sm"}`} data-testid={`${id}-list`}>
          {children}
        </ul>
      )}
    </section>
  );
}

/** An ISO time as "2026-11-30 09:50 UTC". */
function when(iso: string): string {
  return iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");
}

/** An issue's linked commits in the window, in a few words. */
function Activity({ activity }: { activity: CodeActivity | undefined }) {
  if (!activity || activity.commits === 0) return null;
  return (
    <span className="rounded bg-slate-100 px-1 text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-200" data-testid="code-activity">
      {activity.commits} commit{activity.commits === 1 ? "" : "s"} by {activity.authors.join(", ")}
    </span>
  );
}

function ChangeEntry({ change, projector, activity, children }: { change: IssueChange; projector: boolean; activity?: CodeActivity; children?: ReactNode }) {
  const waveMoved = change.wave && change.wave.from !== null && change.wave.to !== null && change.wave.from !== change.wave.to;
  const milestoneMoved = change.milestone_from && change.milestone_from !== change.milestone;
  return (
    <li className="flex flex-wrap items-baseline gap-x-2" data-testid={`change-${change.id}`}>
      <IssueLink id={change.id} />
      <span>{change.title}</span>
      <span className={`text-slate-600 dark:text-slate-400 ${projector ? "" : "text-xs"}`}>
        {change.from ?? "new"} → {change.to ?? "removed"}
        {waveMoved && ` · wave ${change.wave!.from} → ${change.wave!.to}`}
        {milestoneMoved && ` · milestone ${change.milestone_from} → ${change.milestone}`}
        {change.cause && <Cause cause={change.cause} />}
      </span>
      <Activity activity={activity} />
      {children}
    </li>
  );
}

const MOVE_WORDS = { start: "started", verify: "verified", done: "finished" } as const;

/** What caused a status change, in words: a move and its stamp, or the dependencies. */
function Cause({ cause }: { cause: IssueCause }) {
  const deps = (cause.dependencies ?? []).map((d, i) => (
    <span key={d}>
      {i > 0 && ", "}
      <IssueLink id={d} />
    </span>
  ));
  switch (cause.kind) {
    case "move":
      return <> · {cause.move ? MOVE_WORDS[cause.move] : "moved"}{cause.stamp ? ` at ${when(cause.stamp)}` : ""}</>;
    case "unblocked":
      return deps.length ? <> · unblocked by {deps}</> : <> · unblocked</>;
    case "blocked":
      return deps.length ? <> · waits on {deps}</> : null;
    case "cancelled":
      return <> · cancelled</>;
    case "evidence":
      return <> · evidence recorded</>;
    default:
      return null;
  }
}

/** What the work tree holds that HEAD does not (the moves and edits of this clone not yet committed), and HEAD's commit. */
async function sinceHead(): Promise<{ issues: IssueChange[]; head: string | null }> {
  try {
    const c = await call(planChangesCapability, { since: "HEAD" });
    return { issues: c.issues, head: c.since.commit };
  } catch (error) {
    // A repository without a commit has nothing committed to compare with.
    if (error instanceof CapabilityError && error.code !== "internal") return { issues: [], head: null };
    throw error;
  }
}

async function Burnup({ milestone, title, size, today, todayLabel }: { milestone: string; title: string; size: BurnupSize; today: string; todayLabel: string }) {
  const burnup = await call(planBurnupCapability, { milestone });
  const forecast = await call(planForecastCapability, { milestone });
  return (
    <BurnupChart
      milestone={milestone}
      title={title}
      points={burnup.points}
      forecast={forecast.dates ?? undefined}
      forecastNote={forecast.message}
      size={size}
      today={today}
      todayLabel={todayLabel}
    />
  );
}

/** The issues whose stamps do not count at the standup's end (now, or the pinned commit): marked on their cards. */
async function unsealedAt(until: string | undefined): Promise<Set<string>> {
  if (until === undefined) return unsealedIssueIds((await servedState()).plan);
  return unsealedIssueIds(await call(planValidateCapability, { at: until }));
}
