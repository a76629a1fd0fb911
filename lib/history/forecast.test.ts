import { describe, expect, it } from "vitest";
import { CapabilityError } from "../plan/errors";
import type { IssueRecord } from "../plan/records";
import { makeIssue, makeMilestone, planOf, sealedStamps } from "@/tests/support/records";
import { forecastMilestone, seededRandom } from "./forecast";

const TODAY = "2026-11-30";

/** A DONE issue of milestone `m`, started `cycleDays` before it completed on `day`. */
function finished(id: string, day: string, cycleDays = 1, m = "done-m"): IssueRecord {
  const done = `${day}T12:00:00Z`;
  const start = new Date(Date.parse(done) - cycleDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return makeIssue({ id, milestone: m, ...sealedStamps(id, { start, done }), covers: ["proof"] });
}

/** `n` DONE issues spread over the window, and the open milestone `m` with issues in `waves` chained waves. */
function plan(opts: { completions: number; left: number; waves?: number; cycleDays?: number; seedIssues?: IssueRecord[] }) {
  const issues: IssueRecord[] = [];
  for (let k = 0; k < opts.completions; k++) {
    const day = new Date(Date.parse(`${TODAY}T00:00:00Z`) - (k % 30) * 86_400_000).toISOString().slice(0, 10);
    issues.push(finished(`D${String(k).padStart(3, "0")}`, day, opts.cycleDays ?? 1));
  }
  const waves = opts.waves ?? 1;
  for (let k = 0; k < opts.left; k++) {
    const wave = k % waves;
    issues.push(makeIssue({ id: `L${String(k).padStart(3, "0")}`, milestone: "m", depends_on: wave > 0 ? [`L${String(k - 1).padStart(3, "0")}`] : [] }));
  }
  return planOf([makeMilestone({ id: "m" }), makeMilestone({ id: "done-m" })], [...issues, ...(opts.seedIssues ?? [])]);
}

describe("the forecast", () => {
  it("the same seed gives the same dates; another seed is allowed to differ", () => {
    const p = plan({ completions: 12, left: 20 });
    const a = forecastMilestone(p, "m", { seed: 7, today: TODAY });
    expect(forecastMilestone(p, "m", { seed: 7, today: TODAY })).toEqual(a);
    expect(a.outcome).toBe("forecast");
    expect(a.trials).toBe(10_000);
    expect(a.seed).toBe(7);
    const dates = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((s) => JSON.stringify(forecastMilestone(p, "m", { seed: s, today: TODAY, trials: 50 }).dates)));
    expect(dates.size).toBeGreaterThan(1);
  });

  it("50 ≤ 85 ≤ 95 for every seed and plan tried, and no date before tomorrow", () => {
    for (let s = 0; s < 30; s++) {
      const r = seededRandom(s + 100);
      const p = plan({ completions: 5 + Math.floor(r() * 40), left: 1 + Math.floor(r() * 60), waves: 1 + Math.floor(r() * 4), cycleDays: r() * 5 });
      const f = forecastMilestone(p, "m", { seed: s, today: TODAY, trials: 500 });
      expect(f.outcome).toBe("forecast");
      expect(f.dates!.p50 <= f.dates!.p85 && f.dates!.p85 <= f.dates!.p95, JSON.stringify(f.dates)).toBe(true);
      expect(f.dates!.p50 > TODAY).toBe(true);
    }
  });

  it("shows its inputs: the window, the daily counts from sealed completed_at, the remaining issues and waves", () => {
    const p = plan({ completions: 6, left: 4, waves: 2 });
    const f = forecastMilestone(p, "m", { today: TODAY });
    expect(f.window).toEqual({ from: "2026-11-01", to: TODAY, days: 30 });
    expect(f.daily).toHaveLength(30);
    expect(f.daily.slice(-6).map((d) => d.done)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(f.completions).toBe(6);
    expect(f.remaining).toBe(4);
    expect(f.remaining_waves).toBe(2);
    expect(f.cycle_times).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("no trial finishes before the remaining waves could: one sampled cycle time per wave", () => {
    // Throughput alone finishes 3 issues in a day; three waves of 10-day cycle times need 30.
    const fast = plan({ completions: 60, left: 3, waves: 3, cycleDays: 10 });
    const f = forecastMilestone(fast, "m", { today: TODAY });
    expect(f.dates).toEqual({ p50: "2026-12-30", p85: "2026-12-30", p95: "2026-12-30" });
    const oneWave = forecastMilestone(plan({ completions: 60, left: 3, waves: 1, cycleDays: 10 }), "m", { today: TODAY });
    expect(oneWave.dates!.p95).toBe("2026-12-10");
  });

  it("an unsealed stamp counts for nothing: neither a completion nor a cycle time", () => {
    const unsealed = makeIssue({ id: "U1", milestone: "done-m", started_at: "2026-11-20T00:00:00Z", completed_at: "2026-11-29T00:00:00Z", covers: ["proof"] });
    const f = forecastMilestone(plan({ completions: 4, left: 2, seedIssues: [unsealed] }), "m", { today: TODAY });
    expect(f.completions).toBe(4);
    expect(f.cycle_times).toHaveLength(4);
  });

  it("fewer than 5 completions in the window: not enough history, with the counts and no date", () => {
    const f = forecastMilestone(plan({ completions: 4, left: 5 }), "m", { today: TODAY });
    expect(f.outcome).toBe("not_enough_history");
    expect(f.dates).toBeNull();
    expect(f.completions).toBe(4);
    expect(f.message).toMatch(/not enough history: 4 .* needs 5/);
  });

  it("a milestone with nothing left answers that it is done; an unknown one is not found", () => {
    const f = forecastMilestone(plan({ completions: 2, left: 0 }), "done-m", { today: TODAY });
    expect(f.outcome).toBe("done");
    expect(f.dates).toBeNull();
    expect(() => forecastMilestone(plan({ completions: 2, left: 0 }), "nope", { today: TODAY })).toThrow(CapabilityError);
  });
});
