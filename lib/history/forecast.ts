import { requireMilestone } from "../plan/nearest";
import type { Plan } from "../plan/shapes";
import type { Forecast } from "../plan/history-shapes";

// When will a milestone land: Monte Carlo over the plan's daily DONE counts (sealed completed_at),
// with a floor throughput alone lacks: a trial cannot finish before the remaining waves could,
// each taking at least one sampled cycle time (started_at → completed_at).

export const TRIALS = 10_000;
export const WINDOW_DAYS = 30;
/** Fewer completions in the window than this: no date, "not enough history". */
export const MIN_COMPLETIONS = 5;
/** The longest a trial runs, in days (ten years). */
export const HORIZON_DAYS = 3650;
export const DEFAULT_SEED = 1;

const DAY_MS = 86_400_000;

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1); the same seed, the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The q-quantile of sorted trial lengths: the smallest length at least q of the trials reach. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

export interface ForecastOptions {
  seed?: number;
  /** Today, YYYY-MM-DD (UTC): the window ends with it, and trials count days after it. */
  today: string;
  trials?: number;
}

export function forecastMilestone(plan: Plan, milestone: string, options: ForecastOptions): Forecast {
  const seed = options.seed ?? DEFAULT_SEED;
  const trials = options.trials ?? TRIALS;
  const issues = plan.issues.filter((i) => i.milestone === milestone);
  requireMilestone(plan, milestone);

  const todayMs = Date.parse(`${options.today}T00:00:00Z`);
  const firstMs = todayMs - (WINDOW_DAYS - 1) * DAY_MS;
  const daily = Array.from({ length: WINDOW_DAYS }, (_, d) => ({ date: dayOf(firstMs + d * DAY_MS), done: 0 }));
  const unproven = new Set(plan.findings.filter((f) => f.code === "stamp_without_event" && f.message.startsWith("started_at ")).map((f) => f.subject));
  const cycleTimes: number[] = [];
  for (const i of plan.issues) {
    if (i.status !== "DONE") continue;
    const done = Date.parse(i.completed_at);
    if (Number.isNaN(done)) continue;
    const d = Math.floor((done - firstMs) / DAY_MS);
    if (d >= 0 && d < WINDOW_DAYS) daily[d].done++;
    const started = Date.parse(i.started_at);
    if (!Number.isNaN(started) && !unproven.has(i.id) && done >= started) cycleTimes.push(Math.round((done - started) / 864) / 100_000);
  }
  const completions = daily.reduce((n, d) => n + d.done, 0);
  const left = issues.filter((i) => i.status !== "DONE" && i.status !== "CANCELLED");
  const waves = new Set(left.map((i) => i.wave)).size;
  const base = {
    milestone,
    seed,
    trials,
    window: { from: daily[0].date, to: daily[WINDOW_DAYS - 1].date, days: WINDOW_DAYS },
    daily,
    completions,
    needed: MIN_COMPLETIONS,
    remaining: left.length,
    remaining_waves: waves,
    cycle_times: cycleTimes,
  };
  if (left.length === 0) {
    return { ...base, outcome: "done", message: `${milestone} is done: none of its issues is left (every one is DONE or CANCELLED)`, dates: null };
  }
  if (completions < MIN_COMPLETIONS) {
    return {
      ...base,
      outcome: "not_enough_history",
      message: `not enough history: ${completions} issue(s) reached DONE in the last ${WINDOW_DAYS} days, and a forecast needs ${MIN_COMPLETIONS}`,
      dates: null,
    };
  }

  const random = seededRandom(seed);
  const counts = daily.map((d) => d.done);
  const lengths = new Array<number>(trials);
  for (let t = 0; t < trials; t++) {
    let days = 0;
    let remaining = left.length;
    while (remaining > 0 && days < HORIZON_DAYS) {
      days++;
      remaining -= counts[Math.floor(random() * WINDOW_DAYS)];
    }
    // The waves floor: each remaining wave takes at least one sampled cycle time.
    let floor = 0;
    if (cycleTimes.length > 0) for (let w = 0; w < waves; w++) floor += cycleTimes[Math.floor(random() * cycleTimes.length)];
    lengths[t] = Math.min(HORIZON_DAYS, Math.max(days, Math.ceil(floor)));
  }
  lengths.sort((a, b) => a - b);
  const date = (q: number) => dayOf(todayMs + quantile(lengths, q) * DAY_MS);
  const dates = { p50: date(0.5), p85: date(0.85), p95: date(0.95) };
  const capped = lengths[lengths.length - 1] >= HORIZON_DAYS ? ` (some trials reached the ${HORIZON_DAYS}-day horizon)` : "";
  return {
    ...base,
    outcome: "forecast",
    message: `${left.length} issue(s) left: 50% by ${dates.p50}, 85% by ${dates.p85}, 95% by ${dates.p95}${capped}`,
    dates,
  };
}
