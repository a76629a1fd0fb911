import { describe, expect, it } from "vitest";
import type { PlanStandup, StandupIssue, StandupLists } from "../people/shapes";
import { PROJECTOR_COLUMNS, clock, fitColumn, projectorScreens, screenIndex, timeboxSeconds, timerText } from "./projector";

const issue = (id: string, status: StandupIssue["status"] = "ACTIVE") => ({ id, title: `Issue ${id}`, status, stuck_days: null });
const blocked = (id: string, by: string[]) => ({ id, title: `Issue ${id}`, status: "BLOCKED" as const, blocked_by: by.map((entry) => ({ entry, owner: null })) });
const lists = (over: Partial<StandupLists> = {}): StandupLists => ({ done: [], verify: [], active: [], blocked: [], started: [], landed: [], ...over });
const NOW = PROJECTOR_COLUMNS[1].lists;

describe("fitColumn: a person's lists on one screen", () => {
  it("shows everything, with no '+N more', when it fits", () => {
    const f = fitColumn(lists({ active: [issue("A1"), issue("A2")], verify: [issue("V1", "VERIFY")] }), NOW, 15);
    expect(f.map((l) => [l.key, l.shown.map((e) => e.id), l.more])).toEqual([
      ["verify", ["V1"], 0],
      ["active", ["A1", "A2"], 0],
    ]);
  });

  it("leaves empty lists out", () => {
    expect(fitColumn(lists({ active: [issue("A1")] }), NOW, 15).map((l) => l.key)).toEqual(["active"]);
  });

  it("cuts a long list and counts the rest, never using more rows than given", () => {
    const active = Array.from({ length: 30 }, (_, i) => issue(`A${String(i).padStart(2, "0")}`));
    const [f] = fitColumn(lists({ active }), NOW, 10);
    // a title, 8 entries, "+22 more"
    expect(f.shown).toHaveLength(8);
    expect(f.more).toBe(22);
    expect(f.total).toBe(30);
  });

  it("gives every list its first entry before any list its second", () => {
    const many = (p: string) => Array.from({ length: 10 }, (_, i) => issue(`${p}${i}`));
    const f = fitColumn(lists({ verify: many("V"), active: many("A"), blocked: [blocked("B1", ["X"])] }), NOW, 12);
    expect(f.map((l) => l.shown.length >= 1)).toEqual([true, true, true]);
    const rows = f.reduce((n, l) => n + 1 + l.shown.reduce((r, e) => r + ("blocked_by" in e ? 2 : 1), 0) + (l.more > 0 ? 1 : 0), 0);
    expect(rows).toBeLessThanOrEqual(12);
    expect(f.map((l) => l.shown.length + l.more)).toEqual([10, 10, 1]);
  });

  it("counts a blocked entry as two rows (its blockers on the second)", () => {
    const [f] = fitColumn(lists({ blocked: [blocked("B1", ["X"]), blocked("B2", ["Y"]), blocked("B3", ["Z"])] }), NOW, 6);
    // title + B1 (2) + B2 (2) + "+1 more" = 6
    expect(f.shown.map((e) => e.id)).toEqual(["B1", "B2"]);
    expect(f.more).toBe(1);
  });
});

describe("the run's screens", () => {
  const noFindings = { new: [], resolved: [], code: [] };
  const standup = {
    people: [
      { person: "ana", ...lists(), commits: 2, commit_issues: ["B2", "B7"] },
      { person: "lea", ...lists({ active: [issue("A1")] }), commits: 1, commit_issues: ["A1"] },
      { person: "tom", ...lists(), commits: 0, commit_issues: [] },
    ],
    unowned: lists(),
    findings: noFindings,
  } as unknown as PlanStandup;
  const names = (screens: ReturnType<typeof projectorScreens>) => screens.map((s) => (s.kind === "person" ? s.person : `${s.kind}${"milestone" in s ? `:${s.milestone}` : ""}`));

  it("are one per person with something to say, in plan.standup's order, then one closing screen per ACTIVE milestone", () => {
    // tom has no issue on any list and no linked commit: no screen to open on. ana has commits alone, and the issues they are on.
    expect(names(projectorScreens(standup, ["m1", "m2"]))).toEqual(["ana", "lea", "closing:m1", "closing:m2"]);
    expect(projectorScreens(standup, [])[0]).toMatchObject({ kind: "person", person: "ana", commits: 2, commitIssues: ["B2", "B7"] });
  });

  it("give the issues nobody has a screen of their own, and close on 'no ACTIVE milestone' when there is none", () => {
    const s = projectorScreens({ ...standup, unowned: lists({ verify: [issue("V9", "VERIFY")] }) }, []);
    expect(s.map((x) => x.kind)).toEqual(["person", "person", "unowned", "closing"]);
    expect(s.at(-1)).toEqual({ kind: "closing", milestone: null });
  });

  it("show the window's findings, the code's included, before the burn-ups", () => {
    const code = [{ level: "WARN", code: "work_without_start", subject: "B2", message: "B2 is READY and was never started, yet 2 commits work on it" }];
    const s = projectorScreens({ ...standup, findings: { ...noFindings, code } } as unknown as PlanStandup, ["m1"]);
    expect(names(s)).toEqual(["ana", "lea", "findings", "closing:m1"]);
    expect(s[2]).toEqual({ kind: "findings", findings: { ...noFindings, code } });
  });

  it("read ?screen=N as 1-based, clamped, the first when it is not a number", () => {
    expect(screenIndex("2", 5)).toBe(1);
    expect(screenIndex("99", 5)).toBe(4);
    expect(screenIndex("0", 5)).toBe(0);
    expect(screenIndex("two", 5)).toBe(0);
    expect(screenIndex(undefined, 5)).toBe(0);
  });
});

describe("the timer", () => {
  it("is 90 s a person unless ?timebox says otherwise", () => {
    expect(timeboxSeconds(undefined)).toBe(90);
    expect(timeboxSeconds("120")).toBe(120);
    expect(timeboxSeconds("soon")).toBe(90);
    expect(timeboxSeconds("99999")).toBe(90);
  });

  it("shows elapsed of the timebox, what is left, and how far over once past it", () => {
    expect(clock(65)).toBe("1:05");
    expect(timerText(30, 90)).toEqual({ elapsed: "0:30 / 1:30", rest: "1:00 left", isOver: false });
    expect(timerText(100, 90)).toEqual({ elapsed: "1:40 / 1:30", rest: "over by 0:10", isOver: true });
  });
});
