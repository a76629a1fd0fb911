import Link from "@/components/Link";
import { BlockerLink, IssueLink } from "@/components/IssueLink";
import { StatusBadge } from "@/components/StatusBadge";
import { BurnupChart } from "@/components/standup/BurnupChart";
import { ProjectorRun, type RunScreen } from "@/components/standup/ProjectorRun";
import { planBurnupCapability } from "@/lib/capabilities/plan-burnup";
import { planForecastCapability } from "@/lib/capabilities/plan-forecast";
import { planModelCapability } from "@/lib/capabilities/plan-model";
import type { PlanStandup, StandupLists } from "@/lib/people/shapes";
import { PROJECTOR_COLUMNS, type ProjectorScreen, hasEntries, type StandupEntry, fitColumn, projectorScreens, screenIndex } from "@/lib/standup/projector";
import { call } from "@/lib/surfaces/pages";
import { type KnownIds, knownIds } from "@/components/FindingMessage";
import { WindowFindingItems } from "@/components/standup/WindowFindings";
import type { ReactNode } from "react";
import { personHref } from "./PeopleView";

// Projector mode of the standup by person: a screen per person with something to say, the issues
// nobody has, the window's findings, and the burn-up of each ACTIVE milestone. Sized for 1920×1080 seen from the back of a room: no text
// under 24 px, each person's lists cut to one screen with "+N more".

/** The rows one column of a person's screen holds at 1920×1080 (a title, an entry: one row). */
const PROJECTOR_ROWS = 15;

function Entry({ item }: { item: StandupEntry }) {
  const stuck = "stuck_days" in item && item.stuck_days !== null ? item.stuck_days : null;
  const blockers = "blocked_by" in item ? item.blocked_by : [];
  return (
    <li className="flex min-w-0 flex-col" data-testid={`person-issue-${item.id}`}>
      <span className="flex min-w-0 items-baseline gap-3">
        <span className="shrink-0">
          <IssueLink id={item.id} />
        </span>
        <span className="min-w-0 truncate" title={item.title}>
          {item.title}
        </span>
        <span className="shrink-0">
          <StatusBadge status={item.status} large />
        </span>
        {stuck !== null && <span className="shrink-0 text-2xl text-amber-800 dark:text-amber-300">stuck {stuck} days</span>}
      </span>
      {blockers.length > 0 && (
        <span className="truncate pl-8 text-2xl text-slate-700 dark:text-slate-300">
          blocked by{" "}
          {blockers.map((b, i) => (
            <span key={b.entry}>
              {i > 0 && ", "}
              <BlockerLink entry={b.entry} />
              {b.owner && <> ({b.owner})</>}
            </span>
          ))}
        </span>
      )}
    </li>
  );
}

function Lists({ lists, empty }: { lists: StandupLists; empty: string }) {
  if (!hasEntries(lists)) return <p className="text-4xl text-slate-600 dark:text-slate-400">{empty}</p>;
  return (
    <div className="grid min-h-0 flex-1 grid-cols-2 gap-10">
      {PROJECTOR_COLUMNS.map((column) => (
        <div key={column.title} className="flex min-w-0 flex-col gap-4" data-testid={`column-${column.title === "Now" ? "now" : "since"}`}>
          <h3 className="text-2xl font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{column.title}</h3>
          {fitColumn(lists, column.lists, PROJECTOR_ROWS).map((f) => (
            <div key={f.key} data-testid={`list-${f.key}`} className="min-w-0">
              <h4 className="font-semibold text-slate-700 dark:text-slate-300">
                {f.title} · {f.total}
              </h4>
              <ul className="flex flex-col gap-2">
                {f.shown.map((item) => (
                  <Entry key={item.id} item={item} />
                ))}
                {f.more > 0 && (
                  <li className="text-slate-600 dark:text-slate-400" data-testid={`more-${f.key}`}>
                    +{f.more} more
                  </li>
                )}
              </ul>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/** The findings a screen holds at 1920×1080 (each message cut to two lines): the rest are counted. */
const PROJECTOR_FINDINGS = 6;

function FindingsScreen({ findings, ids }: { findings: PlanStandup["findings"]; ids: KnownIds }) {
  // The code's first (what someone is doing now), then the plan's new and resolved ones.
  const all = [...findings.code.map((f) => ({ f, kind: "code" as const })), ...findings.new.map((f) => ({ f, kind: "new" as const })), ...findings.resolved.map((f) => ({ f, kind: "resolved" as const }))];
  const shown = all.slice(0, PROJECTOR_FINDINGS);
  const pick = (kind: "code" | "new" | "resolved") => shown.filter((x) => x.kind === kind).map((x) => x.f);
  return (
    <>
      <h2 className="shrink-0 text-6xl font-bold" data-testid="projector-findings">
        Findings · {all.length}
      </h2>
      <ul className="flex flex-col gap-4 text-3xl [&>li]:line-clamp-2" data-testid="projector-findings-list">
        <WindowFindingItems added={pick("new")} resolved={pick("resolved")} code={pick("code")} ids={ids} />
        {all.length > shown.length && (
          <li className="text-slate-600 dark:text-slate-400" data-testid="more-findings">
            +{all.length - shown.length} more on the standup&apos;s page
          </li>
        )}
      </ul>
    </>
  );
}

function PersonScreen({ screen }: { screen: Extract<ProjectorScreen, { kind: "person" | "unowned" }> }) {
  return (
    <>
      <h2 className="flex shrink-0 items-baseline justify-between gap-6">
        {screen.kind === "person" ? (
          <Link href={personHref(screen.person)} className="text-6xl font-bold text-blue-800 dark:text-blue-200" data-testid="projector-person">
            {screen.person}
          </Link>
        ) : (
          <span className="text-6xl font-bold" data-testid="projector-person">
            Nobody&apos;s
          </span>
        )}
        {screen.kind === "person" && screen.commits > 0 && (
          <span className="text-3xl font-normal text-slate-700 dark:text-slate-300" data-testid="projector-commits">
            {screen.commits} linked commit{screen.commits === 1 ? "" : "s"} on{" "}
            {screen.commitIssues.map((id, i) => (
              <span key={id}>
                {i > 0 && ", "}
                <IssueLink id={id} />
              </span>
            ))}
          </span>
        )}
      </h2>
      <Lists lists={screen.lists} empty={screen.kind === "person" && screen.commits > 0 ? "No issue of theirs on a list: their commits are on the issues above." : "Nothing to say."} />
    </>
  );
}

async function ClosingScreen({ milestone, title, today }: { milestone: string | null; title: string; today: string }) {
  if (milestone === null) {
    return (
      <h2 className="text-5xl font-semibold" data-testid="projector-closing">
        No ACTIVE milestone: nothing to burn up.
      </h2>
    );
  }
  const [burnup, forecast] = await Promise.all([call(planBurnupCapability, { milestone }), call(planForecastCapability, { milestone })]);
  return (
    <>
      <h2 className="shrink-0 text-5xl font-semibold" data-testid="projector-closing">
        Burn-up of {title}
      </h2>
      <div className="min-h-0 flex-1">
        <BurnupChart milestone={milestone} title={title} points={burnup.points} forecast={forecast.dates ?? undefined} forecastNote={forecast.message} today={today} size="screen" />
      </div>
    </>
  );
}

export async function Projector({ standup, screen, timebox, exitHref, heading }: { standup: PlanStandup; screen?: string; timebox: number; exitHref: string; heading: ReactNode }) {
  const model = await call(planModelCapability, {});
  const active = model.milestones.filter((m) => m.status === "ACTIVE");
  const titles = new Map(active.map((m) => [m.id, m.title || m.id]));
  const today = new Date().toISOString().slice(0, 10);
  const screens: RunScreen[] = projectorScreens(
    standup,
    active.map((m) => m.id),
  ).map((s) =>
    s.kind === "closing"
      ? {
          key: `closing-${s.milestone ?? "none"}`,
          label: s.milestone ? `Burn-up of ${titles.get(s.milestone)}` : "No ACTIVE milestone",
          isTimed: false,
          node: <ClosingScreen milestone={s.milestone} title={s.milestone ? titles.get(s.milestone)! : ""} today={today} />,
        }
      : s.kind === "findings"
        ? { key: "findings", label: "Findings", isTimed: false, node: <FindingsScreen findings={s.findings} ids={knownIds(model)} /> }
        : {
            key: s.kind === "person" ? `person-${s.person}` : "unowned",
            label: s.kind === "person" ? s.person : "Nobody's",
            isTimed: true,
            node: <PersonScreen screen={s} />,
          },
  );
  return <ProjectorRun screens={screens} start={screenIndex(screen, screens.length)} timebox={timebox} exitHref={exitHref} heading={heading} />;
}
