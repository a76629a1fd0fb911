import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DerivationMemory, derivePlan } from "./derive";
import type { IssueRecord, MilestoneRecord } from "./records";
import { sealOf } from "./seal";
import type { Plan } from "./shapes";
import { compareBytes } from "./text";
import { OLD, T1, makeIssue, makeMilestone, records } from "@/tests/support/records";

const ISSUE_IDS = ["I1", "I2", "I3", "I4", "I5", "I6", "I7", "I10"];
const MILESTONE_IDS = ["M1", "M2", "M3", "M10"];

type StampKind = "none" | "sealed" | "forged" | "listed" | "unlisted";
const stampKind = fc.constantFrom<StampKind>("none", "none", "none", "none", "sealed", "sealed", "forged", "listed", "unlisted");

const MOVES = [
  { field: "started_at", seal: "started_event", event: "plan_start" },
  { field: "verified_at", seal: "verified_event", event: "plan_verify" },
  { field: "completed_at", seal: "completed_event", event: "plan_done" },
] as const;

function stampFields(id: string, kinds: StampKind[]): Partial<IssueRecord> {
  const out: Record<string, unknown> = {};
  const unsealed: string[] = [];
  MOVES.forEach((m, i) => {
    const kind = kinds[i];
    if (kind === "none") return;
    const stamp = kind === "listed" || kind === "unlisted" ? OLD : T1;
    out[m.field] = stamp;
    if (kind === "sealed") out[m.seal] = sealOf(m.event, id, stamp);
    if (kind === "forged") out[m.seal] = sealOf(m.event, "someone-else", stamp);
    if (kind === "listed") unsealed.push(`${m.field} ${stamp}`);
  });
  out.unsealed_stamps = unsealed;
  return out as Partial<IssueRecord>;
}

const issueArb = (id: string) =>
  fc
    .record({
      milestone: fc.constantFrom(...MILESTONE_IDS, "", "M404"),
      depends_on: fc.array(fc.constantFrom(...ISSUE_IDS, "Z9"), { maxLength: 3 }),
      cancelled: fc.constantFrom(false, false, false, true),
      stamps: fc.array(stampKind, { minLength: 3, maxLength: 3 }),
      evidence_required: fc.subarray(["proof", "bench"]),
      covers: fc.array(fc.constantFrom("proof", "bench", "other"), { maxLength: 3 }),
      scope: fc.array(fc.constantFrom("lib", "lib/a", "./lib/", "app", "app/x/y", "docs"), { maxLength: 2 }),
      priority: fc.constantFrom("p0", "p1", "p2", "p3", ""),
      acceptance_count: fc.constantFrom(0, 1, 1, 2),
      validation_count: fc.constantFrom(0, 1, 1),
      finished: fc.boolean(),
    })
    .map(({ stamps, finished, ...rest }) => {
      // `finished` biases toward DONE issues (sealed completion and full evidence), so READY
      // dependents occur often enough to exercise the gate and dependency properties.
      const kinds = finished ? [stamps[0], stamps[1], "sealed" as StampKind] : stamps;
      const covers = finished ? [...rest.covers, ...rest.evidence_required] : rest.covers;
      return makeIssue({ id, ...rest, covers, ...stampFields(id, kinds) });
    });

const milestoneArb = (id: string) =>
  fc
    .record({
      depends_on: fc.array(fc.constantFrom(...MILESTONE_IDS, "MZ"), { maxLength: 2 }),
      cancelled: fc.constantFrom(false, false, false, true),
      superseded_by: fc.constantFrom("", "", "", "M1"),
      evidence_required: fc.subarray(["demo", "suite"]),
      covers: fc.subarray(["demo", "suite"]),
      order: fc.integer({ min: -3, max: 3 }),
    })
    .map((rest) => makeMilestone({ id, ...rest }));

const recordsArb = fc
  .tuple(fc.subarray(ISSUE_IDS), fc.subarray(MILESTONE_IDS))
  .chain(([issueIds, milestoneIds]) =>
    fc.record({
      issues: issueIds.length === 0 ? fc.constant([] as IssueRecord[]) : fc.tuple(...issueIds.map(issueArb)),
      milestones: milestoneIds.length === 0 ? fc.constant([] as MilestoneRecord[]) : fc.tuple(...milestoneIds.map(milestoneArb)),
    }),
  )
  .map(({ issues, milestones }) => ({ issues: [...issues], milestones: [...milestones] }));

/** Longest path of effective dependencies to each issue; Infinity when in or downstream of a cycle. */
function longestPaths(issues: readonly IssueRecord[]): Map<string, number> {
  const byId = new Map(issues.map((i) => [i.id, i]));
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return Infinity;
    visiting.add(id);
    let d = 0;
    for (const dep of byId.get(id)!.depends_on) {
      if (dep === id || !byId.has(dep)) continue;
      d = Math.max(d, depth(dep) + 1);
    }
    visiting.delete(id);
    memo.set(id, d);
    return d;
  };
  for (const i of issues) depth(i.id);
  return memo;
}

function derive(input: { issues: IssueRecord[]; milestones: MilestoneRecord[] }, memory?: DerivationMemory): Plan {
  return derivePlan(records(input), memory);
}

describe("properties", () => {
  it("§3.2: every issue in Plan.waves sits at the longest path of effective dependencies to it; the rest are exactly the cycle finding", () => {
    fc.assert(
      fc.property(recordsArb, (input) => {
        const plan = derive(input);
        const depth = longestPaths(input.issues);
        const placed = new Map<string, number>();
        for (const w of plan.waves) for (const id of w.issues) placed.set(id, w.wave);
        for (const issue of input.issues) {
          const d = depth.get(issue.id)!;
          if (Number.isFinite(d)) {
            expect(placed.get(issue.id)).toBe(d);
            expect(plan.issues.find((i) => i.id === issue.id)!.wave).toBe(d);
          } else {
            expect(placed.has(issue.id)).toBe(false);
            expect(plan.issues.find((i) => i.id === issue.id)!.wave).toBe(0);
          }
        }
        const unplaced = plan.issues.filter((i) => !placed.has(i.id)).map((i) => i.id);
        const cycle = plan.findings.filter((f) => f.code === "cycle");
        if (unplaced.length === 0) expect(cycle).toEqual([]);
        else
          expect(cycle).toEqual([
            {
              level: "FAIL",
              code: "cycle",
              subject: "graph",
              message: `a dependency cycle prevents these issues from ever becoming ready: ${unplaced.join(" ")}`,
            },
          ]);
        // waves are numbered 0..k without gaps and none is empty
        plan.waves.forEach((w, k) => {
          expect(w.wave).toBe(k);
          expect(w.issues.length).toBeGreaterThan(0);
          expect(w.issues).toEqual([...w.issues].sort(compareBytes));
        });
      }),
      { numRuns: 400 },
    );
  });

  it("§2.4/§2.7: a READY issue has empty blocked_by, every effective dependency DONE, and its milestone's gate open", () => {
    fc.assert(
      fc.property(recordsArb, (input) => {
        const plan = derive(input);
        const issues = new Map(plan.issues.map((i) => [i.id, i]));
        const milestones = new Map(plan.milestones.map((m) => [m.id, m]));
        for (const issue of plan.issues) {
          if (issue.status !== "READY") continue;
          expect(issue.blocked_by).toEqual([]);
          for (const d of issue.depends_on) {
            if (d === issue.id || !issues.has(d)) continue;
            expect(issues.get(d)!.status).toBe("DONE");
          }
          const m = milestones.get(issue.milestone);
          if (m) expect(m.blocked_by).toEqual([]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("§1.1: the plan does not depend on the order records are given in", () => {
    fc.assert(
      fc.property(
        recordsArb.chain((input) =>
          fc.record({
            input: fc.constant(input),
            issues: fc.shuffledSubarray(input.issues, { minLength: input.issues.length, maxLength: input.issues.length }),
            milestones: fc.shuffledSubarray(input.milestones, {
              minLength: input.milestones.length,
              maxLength: input.milestones.length,
            }),
          }),
        ),
        ({ input, issues, milestones }) => {
          expect(derive({ issues, milestones })).toEqual(derive(input));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a derivation that reuses what its memory kept equals one from scratch, and leaves the earlier plan as it was", () => {
    // `after` is `before` with some issue records replaced by new ones of the same id (the reuse
    // path), or, now and then, a plan with other ids or other milestones (where nothing is reused).
    // Another plan is derived with another memory in between: memories do not share anything.
    const stepArb = recordsArb.chain((before) =>
      fc.record({
        before: fc.constant(before),
        replaced: fc.tuple(fc.constant(null), ...before.issues.map((r) => fc.option(issueArb(r.id), { freq: 2 }))),
        other: fc.option(recordsArb, { freq: 4 }),
        otherMilestones: fc.boolean(),
        elsewhere: recordsArb,
      }),
    );
    fc.assert(
      fc.property(stepArb, ({ before, replaced, other, otherMilestones, elsewhere }) => {
        const after = other ?? {
          issues: before.issues.map((r, k) => replaced[k + 1] ?? r),
          milestones: otherMilestones ? before.milestones.slice(1) : before.milestones,
        };
        const memory = new DerivationMemory();
        const elsewhereMemory = new DerivationMemory();
        const first = derive(before, memory);
        const firstAsDerived = structuredClone(first);
        expect(derive(before, memory)).toEqual(firstAsDerived);
        expect(derive(elsewhere, elsewhereMemory)).toEqual(derive(structuredClone(elsewhere)));
        const next = derive(after, memory);
        expect(next).toEqual(derive(structuredClone(after)));
        expect(first).toEqual(firstAsDerived);
        expect(derive(elsewhere, elsewhereMemory)).toEqual(derive(structuredClone(elsewhere)));
      }),
      { numRuns: 800 },
    );
  });
});
