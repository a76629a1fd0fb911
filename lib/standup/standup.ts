// What the standup page arranges from the time answers (plan.changes, plan.burnup, plan.forecast):
// the default "since", the sections, the stuck issues and the burn-up's geometry. Pure functions:
// no status is derived here, each is read from the answers.

import type { BurnupPoint, IssueChange } from "../plan/history-shapes";

export type { BurnupPoint, IssueCause, IssueChange, PlanChanges, RevisionInfo } from "../plan/history-shapes";

const DAY_MS = 86_400_000;

/**
 * The `since` of a standup opened on `today` (YYYY-MM-DD, UTC): the start of the previous working
 * day, written as the date before it (a date alone means the end of that day). Monday looks back
 * to Friday, and so do Saturday and Sunday.
 */
export function defaultSince(today: string): string {
  const t = Date.parse(`${today}T00:00:00Z`);
  const weekday = new Date(t).getUTCDay(); // 0 Sunday .. 6 Saturday
  const back = weekday === 1 ? 3 : weekday === 0 ? 2 : 1;
  return new Date(t - (back + 1) * DAY_MS).toISOString().slice(0, 10);
}

/** The date before `date`: as a `since`, the start of `date`. */
export function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** The date a week before `today`'s start, as a `since`. */
export function lastWeekSince(today: string): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - 8 * DAY_MS).toISOString().slice(0, 10);
}

export type SectionKey = "done" | "verify" | "started" | "ready" | "blocked" | "cancelled" | "added" | "removed" | "other";

export const SECTION_TITLES: Record<SectionKey, string> = {
  done: "Done",
  verify: "Moved to VERIFY",
  started: "Started (ACTIVE)",
  ready: "Newly READY",
  blocked: "Newly BLOCKED",
  cancelled: "Cancelled",
  added: "Added",
  removed: "Removed",
  other: "Other changes (wave or milestone)",
};

/** Which section an issue change belongs to: added and removed first, then its new status. */
export function sectionOf(change: IssueChange): SectionKey {
  if (change.from === null) return "added";
  if (change.to === null) return "removed";
  if (change.from === change.to) return "other";
  switch (change.to) {
    case "DONE":
      return "done";
    case "VERIFY":
      return "verify";
    case "ACTIVE":
      return "started";
    case "READY":
      return "ready";
    case "BLOCKED":
      return "blocked";
    case "CANCELLED":
      return "cancelled";
    default:
      return "other";
  }
}

/** Every issue change in its section, none dropped, each section in the answer's (id) order. */
export function groupChanges(issues: readonly IssueChange[]): Record<SectionKey, IssueChange[]> {
  const out = Object.fromEntries(Object.keys(SECTION_TITLES).map((k) => [k, [] as IssueChange[]])) as Record<SectionKey, IssueChange[]>;
  for (const change of issues) out[sectionOf(change)].push(change);
  return out;
}

export interface StuckIssue {
  id: string;
  title: string;
  status: string;
  since: string;
  days: number;
}

/**
 * Issues ACTIVE or VERIFY for more than `days` days at `asOf` (ISO): the age runs from the latest of
 * the sealed stamp that put them there (`started_at` for ACTIVE, `verified_at` for VERIFY) and
 * their linked code's last commit (`lastCode`, by id), so an issue with commits yesterday is not
 * stuck. Oldest first.
 */
export function stuckIssues(
  issues: readonly { id: string; title: string; status: string; started_at: string; verified_at: string }[],
  asOf: string,
  days: number,
  lastCode: ReadonlyMap<string, string | null> = new Map(),
): StuckIssue[] {
  const now = Date.parse(asOf);
  const out: StuckIssue[] = [];
  for (const i of issues) {
    const stamp = i.status === "ACTIVE" ? i.started_at : i.status === "VERIFY" ? i.verified_at || i.started_at : "";
    if (!stamp) continue;
    const code = lastCode.get(i.id) ?? "";
    const since = code !== "" && Date.parse(code) > Date.parse(stamp) ? code : stamp;
    const age = (now - Date.parse(since)) / DAY_MS;
    if (age > days) out.push({ id: i.id, title: i.title, status: i.status, since, days: Math.floor(age) });
  }
  return out.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id < b.id ? -1 : 1));
}

/** An issue whose code landed on the default branch in the window. */
export interface LandedIssue {
  id: string;
  commit: string;
  at: string;
}

/** The issues whose `merged` falls after `since` and at or before `until` (ISO; null since: from the start), oldest first. */
export function landedIn(issues: readonly { id: string; merged: { commit: string; at: string } | null }[], since: string | null, until: string): LandedIssue[] {
  const from = since === null ? -Infinity : Date.parse(since);
  const to = Date.parse(until);
  return issues
    .filter((i) => i.merged !== null && Date.parse(i.merged.at) > from && Date.parse(i.merged.at) <= to)
    .map((i) => ({ id: i.id, commit: i.merged!.commit, at: i.merged!.at }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1));
}

/** An issue's linked commits in the window: how many, and by whom. */
export interface CodeActivity {
  commits: number;
  authors: string[];
}

/** The commits authored after `since` and at or before `until` (ISO; null since: from the start), and their authors. */
export function activityIn(commits: readonly { author: string; authored_at: string }[], since: string | null, until: string): CodeActivity {
  const from = since === null ? -Infinity : Date.parse(since);
  const to = Date.parse(until);
  const inWindow = commits.filter((c) => Date.parse(c.authored_at) > from && Date.parse(c.authored_at) <= to);
  return { commits: inWindow.length, authors: [...new Set(inWindow.map((c) => c.author))].sort() };
}

/** A forecast's three dates, when it has them. */
export interface ForecastDates {
  p50: string;
  p85: string;
  p95: string;
}

export interface ChartGeometry {
  width: number;
  height: number;
  /** x of a date, y of a count, in the SVG's user units. */
  x: (date: string) => number;
  y: (count: number) => number;
  maxCount: number;
  firstDate: string;
  lastDate: string;
  /** Dates to label on the x axis. */
  ticks: string[];
  /** The room around the plot. */
  pad: ChartPad;
}

export interface ChartPad {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const PAD_DEFAULT: ChartPad = { left: 40, right: 16, top: 12, bottom: 28 };

/**
 * Scales for a burn-up over `points`, widened to the forecast's last date when there is one, and
 * to `today` (YYYY-MM-DD) when it is later; `pad` is the room kept around the plot for labels.
 */
export function chartGeometry(
  points: readonly BurnupPoint[],
  forecast: ForecastDates | undefined,
  width = 640,
  height = 260,
  { today, pad: padGiven }: { today?: string; pad?: Partial<ChartPad> } = {},
): ChartGeometry {
  const PAD = { ...PAD_DEFAULT, ...padGiven };
  const firstDate = points[0]?.date ?? new Date().toISOString().slice(0, 10);
  const lastPoint = points.at(-1)?.date ?? firstDate;
  const lastSeen = today && today > lastPoint ? today : lastPoint;
  const lastDate = forecast && forecast.p95 > lastSeen ? forecast.p95 : lastSeen;
  const t0 = Date.parse(`${firstDate}T00:00:00Z`);
  const span = Math.max(1, (Date.parse(`${lastDate}T00:00:00Z`) - t0) / DAY_MS);
  const maxCount = Math.max(1, ...points.map((p) => p.scope));
  const x = (date: string) => PAD.left + (((Date.parse(`${date.slice(0, 10)}T00:00:00Z`) - t0) / DAY_MS) * (width - PAD.left - PAD.right)) / span;
  const y = (count: number) => height - PAD.bottom - (count * (height - PAD.top - PAD.bottom)) / maxCount;
  const ticks: string[] = [];
  const step = Math.max(1, Math.ceil(span / 6));
  for (let d = 0; d <= span; d += step) ticks.push(new Date(t0 + d * DAY_MS).toISOString().slice(0, 10));
  return { width, height, x, y, maxCount, firstDate, lastDate, ticks, pad: PAD };
}

/** An SVG polyline's points for one series, as a step line (a count holds until the next day). */
export function stepPath(points: readonly BurnupPoint[], value: (p: BurnupPoint) => number, g: ChartGeometry): string {
  const parts: string[] = [];
  points.forEach((p, i) => {
    const px = g.x(p.date).toFixed(1);
    const py = g.y(value(p)).toFixed(1);
    if (i > 0) parts.push(`${px},${g.y(value(points[i - 1])).toFixed(1)}`);
    parts.push(`${px},${py}`);
  });
  return parts.join(" ");
}
