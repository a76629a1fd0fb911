import { compareBytes } from "../plan/text";
import type { Plan, PlanCriticalPath, PlanIssue } from "../plan/shapes";

// The critical path: the longest chain of unfinished issues, each depending directly on the one
// before it, weighted by how long issues of the same milestone took. A pure function of the
// derived plan, so the graph can draw exactly what `plan.critical_path` answers.

/** The statuses that still need work; DONE and CANCELLED issues break a chain. */
export const UNFINISHED_STATUSES: readonly string[] = ["READY", "BLOCKED", "ACTIVE", "VERIFY"];

/** Weights are counted in thousandths of a day, so that sums and ties are exact integers. */
const PER_DAY = 1000;
const SECONDS_PER_THOUSANDTH = 86_400 / PER_DAY;

export interface CriticalPathOptions {
  /** Only paths that end in an issue of this milestone (they may start in others). */
  milestone?: string;
}

/** "<issue>\n<field>" of every stamp the derivation found unproven (`stamp_without_event`). */
function unprovenStamps(plan: Plan): Set<string> {
  const out = new Set<string>();
  for (const f of plan.findings) {
    if (f.code === "stamp_without_event") out.add(`${f.subject}\n${f.message.slice(0, f.message.indexOf(" "))}`);
  }
  return out;
}

/** Seconds from the sealed start to the sealed completion of a DONE issue, if both are proven. */
function cycleSeconds(issue: PlanIssue, unproven: Set<string>): number | undefined {
  if (issue.status !== "DONE" || issue.started_at === "" || issue.completed_at === "") return undefined;
  if (unproven.has(`${issue.id}\nstarted_at`) || unproven.has(`${issue.id}\ncompleted_at`)) return undefined;
  const seconds = (Date.parse(issue.completed_at) - Date.parse(issue.started_at)) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Each milestone's weight per issue, in thousandths of a day: the median cycle time of its DONE
 * issues whose start and completion stamps are both proven. A milestone without such history,
 * or whose median is zero, weighs one day per issue; a positive median weighs at least 0.001.
 */
export function milestoneWeights(plan: Plan): Map<string, number> {
  const unproven = unprovenStamps(plan);
  const history = new Map<string, number[]>();
  for (const issue of plan.issues) {
    const seconds = cycleSeconds(issue, unproven);
    if (seconds === undefined) continue;
    const list = history.get(issue.milestone);
    if (list) list.push(seconds);
    else history.set(issue.milestone, [seconds]);
  }
  const out = new Map<string, number>();
  for (const [milestone, seconds] of history) {
    const m = median(seconds);
    out.set(milestone, m === 0 ? PER_DAY : Math.max(1, Math.round(m / SECONDS_PER_THOUSANDTH)));
  }
  return out;
}

/**
 * The critical path as ids, first to do first. Ties between paths of equal total go to the one
 * whose ids, read first to last, come first byte-wise.
 */
export function criticalPath(plan: Plan, options: CriticalPathOptions = {}): string[] {
  return walkCriticalPath(plan, options, milestoneWeights(plan)).ids;
}

/** The answer of `plan.critical_path` (an unknown milestone is the caller's to refuse). */
export function deriveCriticalPath(plan: Plan, options: CriticalPathOptions = {}): PlanCriticalPath {
  const weights = milestoneWeights(plan);
  const { ids, total } = walkCriticalPath(plan, options, weights);
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  return {
    milestone: options.milestone ?? null,
    path: ids.map((id) => {
      const i = byId.get(id)!;
      return { id, title: i.title, status: i.status, weight: (weights.get(i.milestone) ?? PER_DAY) / PER_DAY };
    }),
    total: total / PER_DAY,
  };
}

function walkCriticalPath(plan: Plan, options: CriticalPathOptions, weights: Map<string, number>): { ids: string[]; total: number } {
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const unfinished = new Set(UNFINISHED_STATUSES);
  // Waves hold every issue outside a cycle and its downstream, each after all it depends on.
  const order: PlanIssue[] = [];
  const at = new Map<string, number>();
  for (const wave of plan.waves) {
    for (const id of wave.issues) {
      const issue = byId.get(id);
      if (issue && unfinished.has(issue.status)) {
        at.set(id, order.length);
        order.push(issue);
      }
    }
  }
  const n = order.length;
  const next: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < n; k++) {
    for (const dep of order[k].depends_on) {
      const d = at.get(dep);
      // A repeated dependency was pushed just before (k grows): once is enough.
      if (d !== undefined && d !== k && next[d][next[d].length - 1] !== k) next[d].push(k);
    }
  }
  // best[k]: the heaviest path starting at order[k] (and ending in the milestone, when one is
  // asked); -1 when there is none. Dependents sit in later waves, so they are settled first.
  const best = new Float64Array(n);
  const step = new Int32Array(n).fill(-1);
  for (let k = n - 1; k >= 0; k--) {
    const issue = order[k];
    let tail = options.milestone === undefined || issue.milestone === options.milestone ? 0 : -1;
    for (const d of next[k]) {
      const f = best[d];
      if (f > tail || (f === tail && f > 0 && compareBytes(order[d].id, order[step[k]].id) < 0)) {
        tail = f;
        step[k] = d;
      }
    }
    best[k] = tail < 0 ? -1 : tail + (weights.get(issue.milestone) ?? PER_DAY);
  }
  let start = -1;
  let total = 0;
  for (let k = 0; k < n; k++) {
    if (best[k] > total || (best[k] === total && best[k] > 0 && compareBytes(order[k].id, order[start].id) < 0)) {
      total = best[k];
      start = k;
    }
  }
  const ids: string[] = [];
  for (let k = start; k !== -1; k = step[k]) ids.push(order[k].id);
  return { ids, total };
}
