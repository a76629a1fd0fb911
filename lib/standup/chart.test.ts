import { describe, expect, it } from "vitest";
import { axisLabels, spreadLabels } from "./chart";
import { chartGeometry } from "./standup";

describe("the burn-up's axis", () => {
  it("names each date by month and day, with the year under the first and wherever a new year starts", () => {
    expect(axisLabels(["2026-12-28", "2026-12-31", "2027-01-03"])).toEqual([
      { date: "2026-12-28", label: "Dec 28", year: "2026" },
      { date: "2026-12-31", label: "Dec 31", year: null },
      { date: "2027-01-03", label: "Jan 3", year: "2027" },
    ]);
  });

  it("reaches today when today is after the last point", () => {
    const points = [{ date: "2026-11-01", commit: null, scope: 4, started: 1, done: 0 }];
    const g = chartGeometry(points, undefined, 640, 260, { today: "2026-11-08" });
    expect(g.lastDate).toBe("2026-11-08");
    expect(g.x("2026-11-08")).toBeCloseTo(640 - g.pad.right);
  });
});

describe("the lines' end labels", () => {
  it("stay where their lines end when they are far enough apart", () => {
    expect(spreadLabels([100, 50, 200], 20, 0, 300)).toEqual([100, 50, 200]);
  });

  it("are pushed apart to the gap when two lines end together, and kept above the bottom", () => {
    const ys = spreadLabels([200, 200, 290], 20, 0, 290);
    const sorted = [...ys].sort((a, b) => a - b);
    expect(sorted[1] - sorted[0]).toBeGreaterThanOrEqual(20);
    expect(sorted[2] - sorted[1]).toBeGreaterThanOrEqual(20);
    expect(Math.max(...ys)).toBeLessThanOrEqual(290);
  });
});
