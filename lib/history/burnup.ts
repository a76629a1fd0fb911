import { invalidInput, notFound } from "../plan/errors";
import { MILESTONES_DIR } from "../plan/constants";
import { nearestIds } from "../plan/nearest";
import type { Plan } from "../plan/shapes";
import { gitText } from "../repo/git-run";
import { derivePlan } from "../plan/derive";
import { mapPlansAtCommits, recordsNow } from "./records-at";
import { dayOfSeconds, firstParentHistory, instantOf, repoGit } from "./revision";
import type { BurnupPoint, PlanBurnup } from "../plan/history-shapes";
import { processWide } from "../process-wide";

// Burn-up of one milestone: per UTC day, the milestone's issues as the plan stood at the last
// commit of that day on HEAD's first-parent history (the files now, for today). Scope is
// historically true: an issue counts only on the days its record named the milestone.

const DAY = 86_400;
/** The longest chart answered, in days (ten years). */
export const MAX_BURNUP_DAYS = 3660;

type Counts = Pick<BurnupPoint, "scope" | "started" | "done">;
const NONE: Counts = { scope: 0, started: 0, done: 0 };

/** The milestone's issues in one plan, counted. */
export function countMilestone(plan: Plan, milestone: string): Counts {
  return { ...(countAll(plan).get(milestone) ?? NONE) };
}

/** Every milestone's counts in one plan (an issue may name a milestone that has no record). */
function countAll(plan: Plan): Map<string, Counts> {
  const out = new Map<string, Counts>();
  for (const i of plan.issues) {
    if (i.status === "CANCELLED") continue;
    let c = out.get(i.milestone);
    if (c === undefined) {
      c = { scope: 0, started: 0, done: 0 };
      out.set(i.milestone, c);
    }
    c.scope++;
    if (i.status === "ACTIVE" || i.status === "VERIFY" || i.status === "DONE") c.started++;
    if (i.status === "DONE") c.done++;
  }
  return out;
}

/**
 * Counts by commit, for every milestone at once (a standup draws one burn-up per active
 * milestone): a commit never changes, so neither do they.
 */
const countsKept = processWide("burnup-counts", () => new Map<string, Map<string, Map<string, Counts>>>());

function keptFor(repo: string): Map<string, Map<string, Counts>> {
  let m = countsKept.get(repo);
  if (!m || m.size > 20_000) {
    m = new Map();
    countsKept.set(repo, m);
  }
  return m;
}

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** The day the milestone's file first appeared on HEAD's first-parent history, if it ever did. */
async function firstAppearance(repo: string, milestone: string): Promise<string | undefined> {
  const out = await gitText(repo, ["--literal-pathspecs", "log", "--first-parent", "--format=%ct", "HEAD", "--", `${MILESTONES_DIR}/${milestone}.yaml`]);
  const times = (out ?? "").split("\n").filter((l) => l !== "");
  return times.length > 0 ? dayOfSeconds(Number(times[times.length - 1])) : undefined;
}

export interface BurnupQuery {
  milestone: string;
  since?: string;
  until?: string;
}

/**
 * The burn-up of a milestone; `current` is the plan of the files now as the caller keeps it (read
 * here when not given, through the blob store); `nowSeconds` fixes "today".
 */
export async function planBurnup(repo: string, query: BurnupQuery, given?: () => Plan, nowSeconds = Math.floor(Date.now() / 1000)): Promise<PlanBurnup> {
  const { milestone } = query;
  const git = await repoGit(repo);
  let kept: Plan | undefined;
  const current = given ?? (() => (kept ??= derivePlan(recordsNow(repo, git))));
  for (const d of [query.since, query.until]) if (d !== undefined) instantOf(d);
  const today = dayOfSeconds(nowSeconds);
  let first = query.since ?? (await firstAppearance(repo, milestone));
  if (first === undefined) {
    if (!current().milestones.some((m) => m.id === milestone)) {
      const near = nearestIds(milestone, current().milestones.map((m) => m.id));
      throw notFound(`no milestone '${milestone}' in the files or in HEAD's history (the nearest known: ${near.join(", ") || "none"}); give since to count the issues that name it anyway`);
    }
    first = today;
  }
  const last = query.until !== undefined && query.until < today ? query.until : today;
  if (first > last) throw invalidInput(`since (${first}) is after until (${last}); a burn-up runs forward in time`);
  const days = Math.round((dayStart(last) - dayStart(first)) / DAY) + 1;
  if (days > MAX_BURNUP_DAYS) throw invalidInput(`${days} days is more than a burn-up answers (${MAX_BURNUP_DAYS}); give a later since`);

  // Each day's commit: as `at` names the end of that day, the newest commit at or before it in
  // the first-parent walk (newest first).
  const history = await firstParentHistory(repo);
  const dates: string[] = [];
  const commits: (string | null)[] = [];
  for (let d = 0; d < days; d++) {
    const date = dayOfSeconds(dayStart(first) + d * DAY);
    const end = dayStart(date) + DAY - 1;
    dates.push(date);
    commits.push(date === today ? null : (history.find(([, time]) => time <= end)?.[0] ?? null));
  }
  const counted = keptFor(repo);
  const wanted = [...new Set(commits.filter((c): c is string => c !== null && !counted.has(c)))];
  await mapPlansAtCommits(repo, git, wanted, (plan, i) => counted.set(wanted[i], countAll(plan)));
  let now: Counts | undefined;
  const points = dates.map((date, i) => {
    const c = commits[i];
    const counts = date === today ? (now ??= countMilestone(current(), milestone)) : c === null ? NONE : (counted.get(c)!.get(milestone) ?? NONE);
    return { date, commit: c, ...counts };
  });
  return { milestone, points };
}
