// What the projector mode of the standup arranges (/standup?projector=1): the screens in order, how
// much of each person's lists fits one screen, and the timer's words. Pure functions over
// plan.standup's answer: nothing is derived here that the answer does not say.

import type { PlanStandup, StandupBlocked, StandupIssue, StandupLists, StandupOpen } from "../people/shapes";

export type ListKey = keyof StandupLists;
export type StandupEntry = StandupIssue | StandupOpen | StandupBlocked;

/** A person's screen has two columns: what happened in the window, and where things stand now. */
export const PROJECTOR_COLUMNS: { title: string; lists: { key: ListKey; title: string }[] }[] = [
  {
    title: "Since the last standup",
    lists: [
      { key: "done", title: "Done" },
      { key: "landed", title: "Landed" },
      { key: "started", title: "Started" },
    ],
  },
  {
    title: "Now",
    lists: [
      { key: "verify", title: "In VERIFY" },
      { key: "active", title: "In progress" },
      { key: "blocked", title: "Blocked" },
    ],
  },
];

/** A list cut to what fits: the entries shown, and how many were left out ("+N more"). */
export interface FittedList {
  key: ListKey;
  title: string;
  total: number;
  shown: StandupEntry[];
  more: number;
}

/** Rows an entry takes on the screen: one line, and a second for what blocks it. */
export function rowsOf(entry: StandupEntry): number {
  return "blocked_by" in entry && entry.blocked_by.length > 0 ? 2 : 1;
}

/**
 * One column's lists within `rows` rows (a title is a row, an entry one or two, "+N more" one):
 * empty lists are left out; each list gets its first entry before any list gets a second, then
 * the room left goes to the lists in order. Nothing is dropped silently: what does not fit is
 * counted in `more`, and a list with no room for an entry still shows its title and count.
 */
export function fitColumn(lists: StandupLists, column: readonly { key: ListKey; title: string }[], rows: number): FittedList[] {
  const fitted: FittedList[] = column
    .filter((l) => lists[l.key].length > 0)
    .map((l) => ({ key: l.key, title: l.title, total: lists[l.key].length, shown: [], more: lists[l.key].length }));
  const used = () => fitted.reduce((n, f) => n + 1 + f.shown.reduce((r, e) => r + rowsOf(e), 0) + (f.more > 0 ? 1 : 0), 0);
  const tryAdd = (f: FittedList): boolean => {
    const all = lists[f.key] as StandupEntry[];
    if (f.shown.length === all.length) return false;
    f.shown.push(all[f.shown.length]);
    f.more = all.length - f.shown.length;
    if (used() <= rows) return true;
    f.shown.pop();
    f.more = all.length - f.shown.length;
    return false;
  };
  for (const f of fitted) tryAdd(f);
  for (const f of fitted) if (f.shown.length > 0) while (tryAdd(f));
  return fitted;
}

/**
 * The screens of a run, in order: one per person with something to say (plan.standup's order; a
 * person with no issue on any list and no linked commit in the window has none), the issues nobody
 * has, the window's findings (the plan's new and resolved, and what the code says), then the burn-ups.
 */
export type ProjectorScreen =
  | { kind: "person"; person: string; lists: StandupLists; commits: number; commitIssues: string[] }
  | { kind: "unowned"; lists: StandupLists }
  | { kind: "findings"; findings: PlanStandup["findings"] }
  | { kind: "closing"; milestone: string | null };

/** Whether any of the lists holds an issue. */
export const hasEntries = (lists: StandupLists) => Object.values(lists).some((l) => l.length > 0);

export function projectorScreens(standup: PlanStandup, activeMilestones: readonly string[]): ProjectorScreen[] {
  const screens: ProjectorScreen[] = standup.people
    .filter((p) => p.commits > 0 || hasEntries(listsOf(p)))
    .map((p) => ({ kind: "person", person: p.person, lists: listsOf(p), commits: p.commits, commitIssues: p.commit_issues }));
  if (hasEntries(standup.unowned)) screens.push({ kind: "unowned", lists: standup.unowned });
  const f = standup.findings;
  if (f.new.length + f.resolved.length + f.code.length > 0) screens.push({ kind: "findings", findings: f });
  if (activeMilestones.length === 0) screens.push({ kind: "closing", milestone: null });
  for (const m of activeMilestones) screens.push({ kind: "closing", milestone: m });
  return screens;
}

/** A person's lists alone (what a screen shows), without their name and commits. */
function listsOf(p: PlanStandup["people"][number]): StandupLists {
  const { person: _person, commits: _commits, commit_issues: _issues, ...lists } = p;
  return lists;
}

/** `?screen=N` (1-based) as an index into `count` screens: anything else is the first. */
export function screenIndex(asked: string | undefined, count: number): number {
  const n = asked !== undefined && /^\d{1,4}$/.test(asked) ? Number(asked) : 1;
  return Math.min(Math.max(n, 1), Math.max(count, 1)) - 1;
}

/** `?timebox=N`: seconds per person, 1 to 3600; 90 when not given or not a number. */
export function timeboxSeconds(asked: string | undefined): number {
  const n = asked !== undefined && /^\d{1,4}$/.test(asked) ? Number(asked) : 90;
  return Math.min(Math.max(n, 1), 3600);
}

/** Seconds as "m:ss". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The timer's words: elapsed of the timebox, then what is left or how far over. */
export function timerText(elapsed: number, timebox: number): { elapsed: string; rest: string; isOver: boolean } {
  const isOver = elapsed > timebox;
  return { elapsed: `${clock(elapsed)} / ${clock(timebox)}`, rest: isOver ? `over by ${clock(elapsed - timebox)}` : `${clock(timebox - elapsed)} left`, isOver };
}
