import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPlan } from "../repo";
import { countMilestone, planBurnup } from "./burnup";
import { checkout, commitAt, generateHistory, issuePath, issueText, milestonePath, milestoneText, newRepo, PROJECT, projectText, refusalCode, removeTempDirs, tempDir } from "@/tests/support/history";

afterAll(removeTempDirs);

const seconds = (iso: string) => Date.parse(iso) / 1000;


describe("burn-up points are derivations at each day's last commit", () => {
  it.for([21, 22])("generated history %i: every point equals the count of a checkout of that day's commit", async (seed) => {
    const { repo, commits } = generateHistory(seed, 18);
    const now = seconds(commits[commits.length - 1].when) + 3 * 86_400;
    const b = await planBurnup(repo, { milestone: "m1" }, () => loadPlan(repo), now);
    const firstDay = commits[0].when.slice(0, 10);
    expect(b.points[0].date).toBe(firstDay);
    expect(b.points[b.points.length - 1].date).toBe(new Date(now * 1000).toISOString().slice(0, 10));
    let moving = 0;
    for (const p of b.points.slice(0, -1)) {
      const end = seconds(`${p.date}T23:59:59Z`);
      const expected = [...commits].reverse().find((c) => seconds(c.when) <= end)!;
      expect(p.commit, p.date).toBe(expected.sha);
      expect({ scope: p.scope, started: p.started, done: p.done }, p.date).toEqual(countMilestone(loadPlan(checkout(repo, expected.sha)), "m1"));
      moving += p.scope + p.started + p.done;
    }
    expect(moving).toBeGreaterThan(0);
    // Consecutive days, no gap.
    for (let i = 1; i < b.points.length; i++) {
      expect(seconds(`${b.points[i].date}T00:00:00Z`) - seconds(`${b.points[i - 1].date}T00:00:00Z`)).toBe(86_400);
    }
    // The other milestones come from the counts the first walk kept for every milestone at once.
    for (const other of ["m2", "m3"]) {
      const o = await planBurnup(repo, { milestone: other, since: firstDay }, () => loadPlan(repo), now);
      for (const p of o.points.slice(0, -1)) {
        const expected = p.commit === null ? { scope: 0, started: 0, done: 0 } : countMilestone(loadPlan(checkout(repo, p.commit)), other);
        expect({ scope: p.scope, started: p.started, done: p.done }, `${other} ${p.date}`).toEqual(expected);
      }
    }
  });
});

describe("historically true scope", () => {
  function repo(): string {
    const r = newRepo();
    commitAt(r, "2026-11-02T10:00:00Z", {
      [PROJECT]: projectText(),
      [milestonePath("m1")]: milestoneText("m1"),
      [issuePath("A")]: issueText({ id: "A", milestone: "m1" }),
      [issuePath("B")]: issueText({ id: "B", milestone: "m1" }),
    });
    commitAt(r, "2026-11-03T10:00:00Z", { [issuePath("A")]: issueText({ id: "A", milestone: "m1", started_at: "2026-11-03T09:00:00Z" }) });
    // Scope added on the 5th (none on the 4th), then one issue cancelled and one removed on the 6th.
    commitAt(r, "2026-11-05T10:00:00Z", { [issuePath("C")]: issueText({ id: "C", milestone: "m1" }), [issuePath("D")]: issueText({ id: "D", milestone: "m1" }) });
    commitAt(r, "2026-11-05T18:00:00Z", { [issuePath("A")]: issueText({ id: "A", milestone: "m1", started_at: "2026-11-03T09:00:00Z", completed_at: "2026-11-05T17:00:00Z" }) });
    commitAt(r, "2026-11-06T10:00:00Z", { [issuePath("C")]: issueText({ id: "C", milestone: "m1", cancelled: true }), [issuePath("D")]: null });
    return r;
  }

  it("issues added later are not on earlier days; cancelled and removed ones drop out; today is the files now", async () => {
    const r = repo();
    writeFileSync(join(r, issuePath("E")), issueText({ id: "E", milestone: "m1" }));
    const b = await planBurnup(r, { milestone: "m1" }, () => loadPlan(r), seconds("2026-11-07T12:00:00Z"));
    expect(b.points.map((p) => [p.date, p.scope, p.started, p.done])).toEqual([
      ["2026-11-02", 2, 0, 0],
      ["2026-11-03", 2, 1, 0],
      ["2026-11-04", 2, 1, 0],
      ["2026-11-05", 4, 1, 1],
      ["2026-11-06", 2, 1, 1],
      ["2026-11-07", 3, 1, 1],
    ]);
    expect(b.points[b.points.length - 1].commit).toBeNull();
    expect(b.points[2].commit).toBe(b.points[1].commit);
  });

  it("--since before the file appears starts there (before the first commit: zeros, no commit); --until ends there", async () => {
    const r = repo();
    const b = await planBurnup(r, { milestone: "m1", since: "2026-10-31", until: "2026-11-03" }, () => loadPlan(r), seconds("2026-11-07T12:00:00Z"));
    expect(b.points.map((p) => [p.date, p.commit === null, p.scope])).toEqual([
      ["2026-10-31", true, 0],
      ["2026-11-01", true, 0],
      ["2026-11-02", false, 2],
      ["2026-11-03", false, 2],
    ]);
  });

  it("refuses what it cannot chart", async () => {
    const r = repo();
    const now = seconds("2026-11-07T12:00:00Z");
    expect(await refusalCode(() => planBurnup(r, { milestone: "nope" }, () => loadPlan(r), now))).toBe("not_found");
    expect(await refusalCode(() => planBurnup(r, { milestone: "m1", since: "2026-11-05", until: "2026-11-03" }, () => loadPlan(r), now))).toBe("invalid_input");
    expect(await refusalCode(() => planBurnup(r, { milestone: "m1", since: "2026-02-31" }, () => loadPlan(r), now))).toBe("invalid_input");
    expect(await refusalCode(() => planBurnup(r, { milestone: "m1", since: "1990-01-01" }, () => loadPlan(r), now))).toBe("invalid_input");
    const plain = tempDir("cockpit-not-git-");
    await expect(planBurnup(plain, { milestone: "m1" }, () => loadPlan(plain), now)).rejects.toThrow(/not a git repository, so it has no history to read/);
  });
});
