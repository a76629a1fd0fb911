import { describe, expect, it } from "vitest";
import { activityIn, chartGeometry, defaultSince, groupChanges, landedIn, sectionOf, stepPath, stuckIssues, type IssueChange } from "@/lib/standup/standup";

// The standup page's arrangement of the time answers: the default since, the sections, the stuck
// issues and the burn-up's scales.

const change = (id: string, from: IssueChange["from"], to: IssueChange["to"]): IssueChange => ({
  id,
  title: `t ${id}`,
  milestone: "m",
  from,
  to,
  wave: { from: 0, to: 0 },
  milestone_from: "m",
});

describe("defaultSince", () => {
  it("is the end of the day before the previous working day, so the standup starts at that day's start", () => {
    expect(defaultSince("2026-12-01")).toBe("2026-11-29"); // Tuesday: since Monday's start
    expect(defaultSince("2026-12-04")).toBe("2026-12-02"); // Friday: since Thursday's start
  });
  it("looks back to Friday on Monday, Saturday and Sunday", () => {
    expect(defaultSince("2026-11-30")).toBe("2026-11-26"); // Monday → Friday 27th
    expect(defaultSince("2026-12-05")).toBe("2026-12-03"); // Saturday → Friday 4th
    expect(defaultSince("2026-12-06")).toBe("2026-12-03"); // Sunday → Friday 4th
  });
});

describe("groupChanges", () => {
  it("puts each change in one section by its new status, added and removed first, and drops none", () => {
    const all = [
      change("A", null, "READY"),
      change("B", "READY", null),
      change("C", "ACTIVE", "DONE"),
      change("D", "ACTIVE", "VERIFY"),
      change("E", "READY", "ACTIVE"),
      change("F", "BLOCKED", "READY"),
      change("G", "READY", "BLOCKED"),
      change("H", "READY", "CANCELLED"),
      change("I", "READY", "READY"),
    ];
    const g = groupChanges(all);
    expect(Object.fromEntries(Object.entries(g).map(([k, v]) => [k, v.map((c) => c.id)]))).toEqual({
      added: ["A"],
      removed: ["B"],
      done: ["C"],
      verify: ["D"],
      started: ["E"],
      ready: ["F"],
      blocked: ["G"],
      cancelled: ["H"],
      other: ["I"],
    });
    expect(Object.values(g).flat()).toHaveLength(all.length);
    expect(sectionOf(change("X", "VERIFY", "ACTIVE"))).toBe("started");
  });
});

describe("stuckIssues", () => {
  const issue = (id: string, status: string, started_at = "", verified_at = "") => ({ id, title: id, status, started_at, verified_at });
  it("keeps ACTIVE and VERIFY issues older than N days by their own stamp, oldest first", () => {
    const out = stuckIssues(
      [
        issue("A", "ACTIVE", "2026-11-20T10:00:00Z"),
        issue("B", "VERIFY", "2026-11-01T10:00:00Z", "2026-11-27T09:00:00Z"),
        issue("C", "ACTIVE", "2026-11-28T10:00:00Z"),
        issue("D", "DONE", "2026-11-01T10:00:00Z"),
        issue("E", "VERIFY", "2026-11-01T10:00:00Z", "2026-11-10T10:00:00Z"),
      ],
      "2026-12-01T10:00:00Z",
      3,
    );
    expect(out.map((s) => [s.id, s.days])).toEqual([
      ["E", 21],
      ["A", 11],
      ["B", 4],
    ]);
  });
  it("does not count exactly N days as more than N", () => {
    expect(stuckIssues([issue("A", "ACTIVE", "2026-11-28T10:00:00Z")], "2026-12-01T10:00:00Z", 3)).toEqual([]);
  });
});

describe("chartGeometry", () => {
  const points = [
    { date: "2026-11-01", commit: null, scope: 4, started: 1, done: 0 },
    { date: "2026-11-02", commit: null, scope: 8, started: 2, done: 1 },
    { date: "2026-11-03", commit: null, scope: 8, started: 3, done: 2 },
  ];
  it("maps the first day to the left edge and the largest scope to the top", () => {
    const g = chartGeometry(points, undefined, 640, 260);
    expect(g.x("2026-11-01")).toBe(40);
    expect(g.x("2026-11-03")).toBe(624);
    expect(g.y(8)).toBe(12);
    expect(g.y(0)).toBe(232);
  });
  it("widens the days to the forecast's 95% date", () => {
    const g = chartGeometry(points, { p50: "2026-11-05", p85: "2026-11-06", p95: "2026-11-07" });
    expect(g.lastDate).toBe("2026-11-07");
    expect(g.x("2026-11-07")).toBeGreaterThan(g.x("2026-11-03"));
  });
  it("draws a step line through every point", () => {
    const g = chartGeometry(points, undefined, 640, 260);
    expect(stepPath(points, (p) => p.done, g).split(" ")).toHaveLength(5);
  });
});

describe("the standup's code", () => {
  const active = { id: "A", title: "a", status: "ACTIVE", started_at: "2026-11-20T10:00:00Z", verified_at: "" };

  it("stuck counts from the latest of the stamp and the linked code's last commit", () => {
    expect(stuckIssues([active], "2026-12-01T10:00:00Z", 3).map((s) => [s.id, s.since])).toEqual([["A", "2026-11-20T10:00:00Z"]]);
    expect(stuckIssues([active], "2026-12-01T10:00:00Z", 3, new Map([["A", "2026-11-30T09:00:00Z"]]))).toEqual([]);
    expect(stuckIssues([active], "2026-12-01T10:00:00Z", 3, new Map([["A", "2026-11-25T09:00:00Z"]])).map((s) => [s.since, s.days])).toEqual([["2026-11-25T09:00:00Z", 6]]);
    // Code older than the stamp changes nothing.
    expect(stuckIssues([active], "2026-12-01T10:00:00Z", 3, new Map([["A", "2026-11-01T09:00:00Z"]])).map((s) => s.since)).toEqual(["2026-11-20T10:00:00Z"]);
  });

  it("landed: the issues merged in the window, after since and up to until, oldest first", () => {
    const issues = [
      { id: "B", merged: { commit: "b", at: "2026-11-30T12:00:00Z" } },
      { id: "A", merged: { commit: "a", at: "2026-11-30T09:00:00Z" } },
      { id: "C", merged: { commit: "c", at: "2026-11-29T09:00:00Z" } },
      { id: "D", merged: null },
    ];
    expect(landedIn(issues, "2026-11-29T09:00:00Z", "2026-12-01T00:00:00Z").map((l) => l.id)).toEqual(["A", "B"]);
    expect(landedIn(issues, null, "2026-11-30T10:00:00Z").map((l) => l.id)).toEqual(["C", "A"]);
  });

  it("activity: the commits in the window and their distinct authors", () => {
    const commits = [
      { author: "Tom", authored_at: "2026-11-30T12:00:00Z" },
      { author: "Ana", authored_at: "2026-11-30T09:00:00Z" },
      { author: "Tom", authored_at: "2026-11-30T08:00:00Z" },
      { author: "Léa", authored_at: "2026-11-20T08:00:00Z" },
    ];
    expect(activityIn(commits, "2026-11-29T00:00:00Z", "2026-12-01T00:00:00Z")).toEqual({ commits: 3, authors: ["Ana", "Tom"] });
    expect(activityIn(commits, "2026-11-30T12:00:00Z", "2026-12-01T00:00:00Z")).toEqual({ commits: 0, authors: [] });
  });
});
