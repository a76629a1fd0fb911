import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPlan } from "../repo";
import { pickNextIssue } from "../plan/next-issue";
import { deriveRoadmap } from "../plan/roadmap";
import type { Plan } from "../plan/shapes";
import { planChanges } from "./plan-changes";
import { checkout, commitAt, generateHistory, issuePath, issueText, milestonePath, milestoneText, newRepo, PROJECT, projectText, randomOf, removeTempDirs } from "@/tests/support/history";

afterAll(removeTempDirs);

/** The difference of two checkouts' plans, computed the plain way, for comparison. */
function expectedDiff(a: Plan, b: Plan) {
  const ids = [...new Set([...a.issues, ...b.issues].map((i) => i.id))].sort((x, y) => (Buffer.from(x) < Buffer.from(y) ? -1 : x === y ? 0 : 1));
  const issues = ids.flatMap((id) => {
    const x = a.issues.find((i) => i.id === id);
    const y = b.issues.find((i) => i.id === id);
    if (x && y && x.status === y.status && x.wave === y.wave && x.milestone === y.milestone) return [];
    return [{ id, from: x?.status ?? null, to: y?.status ?? null, wave: { from: x?.wave ?? null, to: y?.wave ?? null } }];
  });
  const mids = [...new Set([...a.milestones, ...b.milestones].map((m) => m.id))].sort();
  const milestones = mids.flatMap((id) => {
    const x = a.milestones.find((m) => m.id === id)?.status ?? null;
    const y = b.milestones.find((m) => m.id === id)?.status ?? null;
    return x === y ? [] : [{ id, from: x, to: y }];
  });
  const key = (f: Plan["findings"][number]) => JSON.stringify([f.level, f.code, f.subject, f.message]);
  const keys = (p: Plan) => new Set(p.findings.map(key));
  return {
    issues,
    milestones,
    findings: {
      new: [...keys(b)].filter((k) => !keys(a).has(k)).sort(),
      resolved: [...keys(a)].filter((k) => !keys(b).has(k)).sort(),
    },
    next: { from: pickNextIssue(a)?.id ?? null, to: pickNextIssue(b)?.id ?? null },
    roadmap: {
      now: { from: deriveRoadmap(a).now ?? null, to: deriveRoadmap(b).now ?? null },
      next: { from: deriveRoadmap(a).next ?? null, to: deriveRoadmap(b).next ?? null },
    },
  };
}

describe("changes equals the difference of the two checkouts' derivations", () => {
  it.for([11, 12, 13])("generated history %i: consecutive and random pairs of commits", async (seed) => {
    const { repo, commits } = generateHistory(seed, 16);
    const rnd = randomOf(seed);
    const pairs: [number, number][] = commits.slice(1).map((_, i) => [i, i + 1]);
    for (let k = 0; k < 8; k++) pairs.push([Math.floor(rnd() * commits.length), Math.floor(rnd() * commits.length)]);
    let changed = 0;
    for (const [i, j] of pairs) {
      const a = commits[i];
      const b = commits[j];
      const c = await planChanges(repo, { since: a.sha, until: b.sha });
      const want = expectedDiff(loadPlan(checkout(repo, a.sha)), loadPlan(checkout(repo, b.sha)));
      const key = (f: { level: string; code: string; subject: string; message: string }) => JSON.stringify([f.level, f.code, f.subject, f.message]);
      expect({
        issues: c.issues.map((x) => ({ id: x.id, from: x.from, to: x.to, wave: x.wave })),
        milestones: c.milestones,
        findings: { new: c.findings.new.map(key).sort(), resolved: c.findings.resolved.map(key).sort() },
        next: c.next,
        roadmap: c.roadmap,
      }, `${i} → ${j}`).toEqual(want);
      expect(c.since).toEqual({ rev: a.sha, commit: a.sha, committed_at: a.when, subject: `plan at ${a.when}` });
      expect(c.until.commit).toBe(b.sha);
      changed += c.issues.length;
    }
    expect(changed).toBeGreaterThan(0);
  });
});

const T0 = "2026-11-02T09:00:00Z";

function smallRepo(): string {
  const repo = newRepo();
  commitAt(repo, T0, {
    [PROJECT]: projectText(),
    [milestonePath("m1")]: milestoneText("m1"),
    [milestonePath("m2")]: milestoneText("m2", 20),
    [issuePath("A")]: issueText({ id: "A", milestone: "m1", started_at: "2026-11-02T08:00:00Z" }),
    [issuePath("B")]: issueText({ id: "B", milestone: "m1", depends_on: ["A"] }),
    [issuePath("C")]: issueText({ id: "C", milestone: "m1" }),
    [issuePath("D")]: issueText({ id: "D", milestone: "m2" }),
  });
  return repo;
}

describe("what each change says", () => {
  it("a finished dependency unblocks, a stamp that appeared is the move, cancelled and added say so", async () => {
    const repo = smallRepo();
    commitAt(repo, "2026-11-03T09:00:00Z", {
      [issuePath("A")]: issueText({ id: "A", milestone: "m1", started_at: "2026-11-02T08:00:00Z", completed_at: "2026-11-03T08:00:00Z" }),
      [issuePath("C")]: issueText({ id: "C", milestone: "m1", started_at: "2026-11-03T08:30:00Z" }),
      [issuePath("D")]: issueText({ id: "D", milestone: "m2", cancelled: true }),
      [issuePath("E")]: issueText({ id: "E", milestone: "m2", depends_on: ["C"] }),
    });
    const c = await planChanges(repo, { since: "HEAD~1", until: "HEAD" });
    expect(c.issues.map((i) => [i.id, i.from, i.to, i.cause])).toEqual([
      ["A", "ACTIVE", "DONE", { kind: "move", move: "done", field: "completed_at", stamp: "2026-11-03T08:00:00Z" }],
      ["B", "BLOCKED", "READY", { kind: "unblocked", dependencies: ["A"] }],
      ["C", "READY", "ACTIVE", { kind: "move", move: "start", field: "started_at", stamp: "2026-11-03T08:30:00Z" }],
      ["D", "READY", "CANCELLED", { kind: "cancelled" }],
      ["E", null, "BLOCKED", undefined],
    ]);
    expect(c.next).toEqual({ from: "C", to: "B" });
  });

  it("a new dependency blocks, naming it; a removed issue goes to null", async () => {
    const repo = smallRepo();
    commitAt(repo, "2026-11-03T09:00:00Z", { [issuePath("C")]: issueText({ id: "C", milestone: "m1", depends_on: ["A"] }), [issuePath("D")]: null });
    const c = await planChanges(repo, { since: "HEAD~1", until: "HEAD" });
    expect(c.issues.map((i) => [i.id, i.from, i.to, i.cause])).toEqual([
      ["C", "READY", "BLOCKED", { kind: "blocked", dependencies: ["A"] }],
      ["D", "READY", null, undefined],
    ]);
    expect(c.findings.new.map((f) => [f.code, f.subject])).toContainEqual(["empty_milestone", "m2"]);
  });

  it("a dependency no longer declared is dropped, not finished", async () => {
    const repo = smallRepo();
    commitAt(repo, "2026-11-03T09:00:00Z", { [issuePath("B")]: issueText({ id: "B", milestone: "m1" }) });
    const c = await planChanges(repo, { since: "HEAD~1", until: "HEAD" });
    expect(c.issues.map((i) => [i.id, i.from, i.to, i.cause])).toEqual([["B", "BLOCKED", "READY", { kind: "unblocked", dependencies: [], dropped: ["A"] }]]);
  });

  it("until left out is the files now, uncommitted edits included; its commit and time are null", async () => {
    const repo = smallRepo();
    writeFileSync(join(repo, issuePath("C")), issueText({ id: "C", milestone: "m1", started_at: "2026-11-04T10:00:00Z" }));
    const c = await planChanges(repo, { since: "HEAD" });
    expect(c.until).toEqual({ rev: "now", commit: null, committed_at: null, head: c.since.commit });
    expect(c.issues.map((i) => [i.id, i.from, i.to])).toEqual([["C", "READY", "ACTIVE"]]);
  });

  it("a date before the first commit counts every issue as added", async () => {
    const repo = smallRepo();
    const c = await planChanges(repo, { since: "2026-01-01", until: "HEAD" });
    expect(c.since.commit).toBeNull();
    expect(c.issues.map((i) => [i.id, i.from])).toEqual([["A", null], ["B", null], ["C", null], ["D", null]]);
    expect(c.milestones.map((m) => [m.id, m.from])).toEqual([["m1", null], ["m2", null]]);
  });

  it("--milestone keeps the issues, milestones and findings of that milestone", async () => {
    const repo = smallRepo();
    commitAt(repo, "2026-11-03T09:00:00Z", {
      [issuePath("C")]: issueText({ id: "C", milestone: "m1", started_at: "2026-11-03T08:30:00Z", unsealed: true }),
      [issuePath("D")]: issueText({ id: "D", milestone: "m2", started_at: "2026-11-03T08:30:00Z", unsealed: true }),
    });
    const all = await planChanges(repo, { since: "HEAD~1", until: "HEAD" });
    expect(all.findings.new.map((f) => f.subject)).toEqual(["C", "D"]);
    const m2 = await planChanges(repo, { since: "HEAD~1", until: "HEAD", milestone: "m2" });
    expect(m2.findings.new.map((f) => f.subject)).toEqual(["D"]);
    expect(m2.issues.every((i) => i.milestone === "m2")).toBe(true);
  });
});
