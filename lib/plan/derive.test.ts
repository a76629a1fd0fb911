import { describe, expect, it } from "vitest";
import { ISSUE_STATUSES, MILESTONE_STATUSES } from "./constants";
import { DerivationMemory, derivePlan } from "./derive";
import { pickNextIssue } from "./next-issue";
import { sealOf as sealOf2 } from "./seal";
import {
  OLD,
  T1,
  T2,
  T3,
  activeIssue,
  doneIssue,
  fail,
  findingsOf,
  issueIn,
  makeIssue,
  makeMilestone,
  milestoneIn,
  planOf,
  records,
  sealedStamps,
  verifyIssue,
  warn,
} from "@/tests/support/records";

const M1 = makeMilestone({ id: "M1" });

const zeroCounts = { ACTIVE: 0, BLOCKED: 0, CANCELLED: 0, DONE: 0, READY: 0, VERIFY: 0 };

describe("§2.1 vocabularies", () => {
  it("every plan carries the issue and milestone vocabularies in derivation order", () => {
    const plan = planOf([], []);
    expect(plan.statuses).toEqual({
      issue: ["READY", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED"],
      milestone: ["PLANNED", "BLOCKED", "ACTIVE", "VERIFY", "DONE", "CANCELLED", "SUPERSEDED"],
    });
    expect([...ISSUE_STATUSES]).toEqual(plan.statuses.issue);
    expect([...MILESTONE_STATUSES]).toEqual(plan.statuses.milestone);
  });
});

describe("§2.3 issue local facts", () => {
  it("covered is set membership: extra and duplicate evidence is ignored, order does not matter", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({
          id: "I1",
          evidence_required: ["a", "b"],
          covers: ["extra", "b", "b", "a"],
          ...sealedStamps("I1", { done: T1 }),
        }),
      ],
    );
    expect(issueIn(plan, "I1").status).toBe("DONE");
  });

  it("an empty evidence requirement is covered", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", evidence_required: [], ...sealedStamps("I1", { done: T1 }) })]);
    expect(issueIn(plan, "I1").status).toBe("DONE");
  });
});

describe("§2.4 issue status, first pass", () => {
  it("rule 1: cancelled is CANCELLED, even when stamped done with full evidence", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1", cancelled: true })]);
    expect(issueIn(plan, "I1").status).toBe("CANCELLED");
  });

  it("rule 1: a cancelled issue with an unfinished dependency stays CANCELLED and is not premature", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"], cancelled: true })]);
    expect(issueIn(plan, "I2").status).toBe("CANCELLED");
    expect(issueIn(plan, "I2").blocked_by).toEqual(["I1"]);
    expect(findingsOf(plan, "premature_execution")).toEqual([]);
  });

  it("rule 2: completed_at alone, sealed, with full evidence is DONE (no stamp sequence needed)", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", covers: ["proof"], ...sealedStamps("I1", { done: T1 }) })]);
    expect(issueIn(plan, "I1").status).toBe("DONE");
  });

  it("rule 3: completion recorded but evidence short is VERIFY", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", ...sealedStamps("I1", { start: T1, done: T2 }) })]);
    expect(issueIn(plan, "I1").status).toBe("VERIFY");
  });

  it("rule 3: verified_at without started_at is VERIFY", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", ...sealedStamps("I1", { verify: T1 }) })]);
    expect(issueIn(plan, "I1").status).toBe("VERIFY");
  });

  it("rule 4: a sealed started_at is ACTIVE", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", ...sealedStamps("I1", { start: T1 }) })]);
    expect(issueIn(plan, "I1").status).toBe("ACTIVE");
  });

  it("rule 5: an unfinished dependency is BLOCKED and named in blocked_by", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(issueIn(plan, "I2").status).toBe("BLOCKED");
    expect(issueIn(plan, "I2").blocked_by).toEqual(["I1"]);
  });

  it("rule 6: otherwise READY, with empty blocked_by", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(issueIn(plan, "I2").status).toBe("READY");
    expect(issueIn(plan, "I2").blocked_by).toEqual([]);
  });

  it("blocked_by keeps declaration order and every occurrence, dropping self, unknown and DONE entries", () => {
    const plan = planOf(
      [M1],
      [
        doneIssue({ id: "I1" }),
        makeIssue({ id: "I2" }),
        makeIssue({ id: "I4" }),
        makeIssue({ id: "I3", depends_on: ["I4", "I2", "X9", "I3", "I1", "I2"] }),
      ],
    );
    expect(issueIn(plan, "I3").blocked_by).toEqual(["I4", "I2", "I2"]);
    expect(issueIn(plan, "I3").status).toBe("BLOCKED");
  });

  it("stamps win over dependencies: ACTIVE with an unfinished dependency is ACTIVE plus premature_execution", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), activeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(issueIn(plan, "I2").status).toBe("ACTIVE");
    expect(issueIn(plan, "I2").blocked_by).toEqual(["I1"]);
    expect(findingsOf(plan, "premature_execution")).toEqual([
      fail("premature_execution", "I2", "is ACTIVE while I1 is not DONE"),
    ]);
  });

  it("premature_execution also fires for VERIFY and DONE, naming duplicates twice, comma-joined", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I1" }),
        makeIssue({ id: "I2" }),
        verifyIssue({ id: "I3", depends_on: ["I1", "I2", "I1"] }),
        doneIssue({ id: "I4", depends_on: ["I2"] }),
      ],
    );
    expect(issueIn(plan, "I3").status).toBe("VERIFY");
    expect(issueIn(plan, "I4").status).toBe("DONE");
    expect(findingsOf(plan, "premature_execution")).toEqual([
      fail("premature_execution", "I3", "is VERIFY while I1,I2,I1 is not DONE"),
      fail("premature_execution", "I4", "is DONE while I2 is not DONE"),
    ]);
  });

  it("a BLOCKED issue is not premature", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(findingsOf(plan, "premature_execution")).toEqual([]);
  });

  it("an unproven stamp does not count toward status (pre-seal 'non-empty' is not enough)", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I1", started_at: T1 }),
        makeIssue({ id: "I2", verified_at: T1 }),
        makeIssue({ id: "I3", completed_at: T1, covers: ["proof"] }),
      ],
    );
    expect(plan.issues.map((i) => i.status)).toEqual(["READY", "READY", "READY"]);
  });

  it("an unproven completed_at does not make a dependency DONE", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", completed_at: T1, covers: ["proof"] }), makeIssue({ id: "I2", depends_on: ["I1"] })],
    );
    expect(issueIn(plan, "I2").status).toBe("BLOCKED");
  });

  it("a DONE issue with completion but missing evidence does not unblock its dependents", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", ...sealedStamps("I1", { done: T1 }) }), makeIssue({ id: "I2", depends_on: ["I1"] })],
    );
    expect(issueIn(plan, "I1").status).toBe("VERIFY");
    expect(issueIn(plan, "I2").status).toBe("BLOCKED");
  });
});

describe("§2.5 milestone status, first pass", () => {
  it("rule 1: cancelled is CANCELLED", () => {
    const plan = planOf([makeMilestone({ id: "M1", cancelled: true, superseded_by: "M2" })], [doneIssue({ id: "I1" })]);
    expect(milestoneIn(plan, "M1").status).toBe("CANCELLED");
  });

  it("rule 2: a non-empty superseded_by is SUPERSEDED", () => {
    const plan = planOf([makeMilestone({ id: "M1", superseded_by: "M2" })], [doneIssue({ id: "I1" })]);
    expect(milestoneIn(plan, "M1").status).toBe("SUPERSEDED");
  });

  it("rule 3: no issues, evidence required and covered by its own evidence is DONE", () => {
    const plan = planOf([makeMilestone({ id: "M1", evidence_required: ["demo"], covers: ["demo"] })], []);
    expect(milestoneIn(plan, "M1").status).toBe("DONE");
    expect(findingsOf(plan, "empty_milestone")).toEqual([]);
  });

  it("rule 4: no issues and no evidence required is PLANNED", () => {
    const plan = planOf([makeMilestone({ id: "M1" })], []);
    expect(milestoneIn(plan, "M1").status).toBe("PLANNED");
  });

  it("rule 4: no issues and evidence required but not covered is PLANNED", () => {
    const plan = planOf([makeMilestone({ id: "M1", evidence_required: ["demo", "x"], covers: ["demo"] })], []);
    expect(milestoneIn(plan, "M1").status).toBe("PLANNED");
  });

  it("rule 5: every required issue DONE and milestone evidence covered is DONE (cancelled issues not required)", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", evidence_required: ["demo"], covers: ["demo"] })],
      [doneIssue({ id: "I1" }), makeIssue({ id: "I2", cancelled: true })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("DONE");
    expect(findingsOf(plan, "milestone_evidence_missing")).toEqual([]);
  });

  it("rule 5: with no evidence required, every issue DONE is DONE", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1" })]);
    expect(milestoneIn(plan, "M1").status).toBe("DONE");
  });

  it("rule 6: every required issue DONE but milestone evidence missing is VERIFY plus milestone_evidence_missing", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", evidence_required: ["demo", "suite", "docs"], covers: ["suite"] })],
      [doneIssue({ id: "I1" })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("VERIFY");
    expect(findingsOf(plan, "milestone_evidence_missing")).toEqual([
      warn(
        "milestone_evidence_missing",
        "M1",
        "every issue is DONE but milestone evidence is missing for demo,docs; status stays VERIFY",
      ),
    ]);
  });

  it("rule 7: an ACTIVE issue makes the milestone ACTIVE", () => {
    const plan = planOf([M1], [activeIssue({ id: "I1" }), makeIssue({ id: "I2" })]);
    expect(milestoneIn(plan, "M1").status).toBe("ACTIVE");
  });

  it("rule 7: a VERIFY issue makes the milestone ACTIVE", () => {
    const plan = planOf([M1], [verifyIssue({ id: "I1" }), makeIssue({ id: "I2" })]);
    expect(milestoneIn(plan, "M1").status).toBe("ACTIVE");
  });

  it("rule 7: a DONE issue with unfinished siblings makes the milestone ACTIVE", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1" }), makeIssue({ id: "I2" })]);
    expect(milestoneIn(plan, "M1").status).toBe("ACTIVE");
  });

  it("rule 8: nothing READY inside is BLOCKED, even with an empty blocked_by", () => {
    const plan = planOf(
      [makeMilestone({ id: "M0" }), makeMilestone({ id: "M1" })],
      [makeIssue({ id: "I1", milestone: "M0" }), makeIssue({ id: "J1", milestone: "M1", depends_on: ["I1"] })],
    );
    expect(milestoneIn(plan, "M0").status).toBe("PLANNED");
    expect(milestoneIn(plan, "M1").status).toBe("BLOCKED");
    expect(milestoneIn(plan, "M1").blocked_by).toEqual([]);
  });

  it("rule 8 edge: every issue cancelled (tot > 0, req == 0) is BLOCKED", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", cancelled: true }), makeIssue({ id: "I2", cancelled: true })]);
    expect(milestoneIn(plan, "M1").status).toBe("BLOCKED");
  });

  it("rule 9: otherwise (a READY issue, nothing started) PLANNED", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })]);
    expect(milestoneIn(plan, "M1").status).toBe("PLANNED");
  });

  it("milestone_evidence_missing is emitted even for a cancelled or superseded milestone", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M1", cancelled: true, evidence_required: ["a"] }),
        makeMilestone({ id: "M2", superseded_by: "M3", evidence_required: ["b"] }),
        makeMilestone({ id: "M3" }),
      ],
      [doneIssue({ id: "I1", milestone: "M1" }), doneIssue({ id: "I2", milestone: "M2" }), makeIssue({ id: "I3", milestone: "M3" })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("CANCELLED");
    expect(milestoneIn(plan, "M2").status).toBe("SUPERSEDED");
    expect(findingsOf(plan, "milestone_evidence_missing")).toEqual([
      warn("milestone_evidence_missing", "M1", "every issue is DONE but milestone evidence is missing for a; status stays VERIFY"),
      warn("milestone_evidence_missing", "M2", "every issue is DONE but milestone evidence is missing for b; status stays VERIFY"),
    ]);
  });
});

describe("§2.6 the milestone gate", () => {
  it("a dependency that is not DONE blocks: blocked_by names it and the status becomes BLOCKED", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", depends_on: ["M1"] })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M2").blocked_by).toEqual(["M1"]);
    expect(milestoneIn(plan, "M2").status).toBe("BLOCKED");
    expect(milestoneIn(plan, "M1").blocked_by).toEqual([]);
    expect(findingsOf(plan, "milestone_premature")).toEqual([]);
  });

  it("a DONE dependency does not block", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", depends_on: ["M1"] })],
      [doneIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("DONE");
    expect(milestoneIn(plan, "M2").blocked_by).toEqual([]);
    expect(milestoneIn(plan, "M2").status).toBe("PLANNED");
  });

  it("a CANCELLED dependency blocks forever", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", cancelled: true }), makeMilestone({ id: "M2", depends_on: ["M1"] })],
      [makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M2").blocked_by).toEqual(["M1"]);
    expect(milestoneIn(plan, "M2").status).toBe("BLOCKED");
    expect(issueIn(plan, "I2").status).toBe("BLOCKED");
  });

  it("a SUPERSEDED dependency blocks forever, even when all its work is DONE", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", superseded_by: "M3" }), makeMilestone({ id: "M2", depends_on: ["M1"] }), makeMilestone({ id: "M3" })],
      [doneIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" }), makeIssue({ id: "I3", milestone: "M3" })],
    );
    expect(milestoneIn(plan, "M2").blocked_by).toEqual(["M1"]);
    expect(milestoneIn(plan, "M2").status).toBe("BLOCKED");
  });

  it("the gate runs in rank order, so a premature DONE milestone becomes BLOCKED and blocks its dependents (cascade)", () => {
    // Id order A, B, C is the reverse of rank order C(0), B(1), A(2).
    const plan = planOf(
      [
        makeMilestone({ id: "A", depends_on: ["B"] }),
        makeMilestone({ id: "B", depends_on: ["C"] }),
        makeMilestone({ id: "C" }),
      ],
      [
        makeIssue({ id: "IA", milestone: "A" }),
        doneIssue({ id: "IB", milestone: "B" }),
        makeIssue({ id: "IC", milestone: "C" }),
      ],
    );
    expect(plan.milestones.map((m) => [m.id, m.rank])).toEqual([
      ["A", 2],
      ["B", 1],
      ["C", 0],
    ]);
    expect(milestoneIn(plan, "C").status).toBe("PLANNED");
    expect(milestoneIn(plan, "B").status).toBe("BLOCKED");
    expect(milestoneIn(plan, "B").blocked_by).toEqual(["C"]);
    expect(milestoneIn(plan, "A").blocked_by).toEqual(["B"]);
    expect(milestoneIn(plan, "A").status).toBe("BLOCKED");
    expect(findingsOf(plan, "milestone_premature")).toEqual([fail("milestone_premature", "B", "is DONE while C is not DONE")]);
  });

  it("milestone_premature fires for ACTIVE, VERIFY and DONE, in rank order then id order", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M0" }),
        makeMilestone({ id: "MA", depends_on: ["MZ"] }),
        makeMilestone({ id: "MB", depends_on: ["M0"] }),
        makeMilestone({ id: "MC", depends_on: ["M0"], evidence_required: ["demo"] }),
        makeMilestone({ id: "MZ", depends_on: ["M0"] }),
      ],
      [
        makeIssue({ id: "I0", milestone: "M0" }),
        doneIssue({ id: "IA", milestone: "MA" }),
        activeIssue({ id: "IB", milestone: "MB" }),
        doneIssue({ id: "IC", milestone: "MC" }),
        makeIssue({ id: "IZ", milestone: "MZ" }),
      ],
    );
    expect(findingsOf(plan, "milestone_premature")).toEqual([
      fail("milestone_premature", "MB", "is ACTIVE while M0 is not DONE"),
      fail("milestone_premature", "MC", "is VERIFY while M0 is not DONE"),
      fail("milestone_premature", "MA", "is DONE while MZ is not DONE"),
    ]);
    for (const id of ["MA", "MB", "MC", "MZ"]) expect(milestoneIn(plan, id).status).toBe("BLOCKED");
  });

  it("a PLANNED or BLOCKED gated milestone becomes BLOCKED without a finding", () => {
    const plan = planOf(
      [makeMilestone({ id: "M0" }), makeMilestone({ id: "M1", depends_on: ["M0"] })],
      [makeIssue({ id: "I0", milestone: "M0" }), makeIssue({ id: "I1", milestone: "M1" })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("BLOCKED");
    expect(findingsOf(plan, "milestone_premature")).toEqual([]);
  });

  it("blocked_by is recorded for a cancelled or superseded milestone, whose status stays and raises no finding", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M0" }),
        makeMilestone({ id: "M1", depends_on: ["M0"], cancelled: true }),
        makeMilestone({ id: "M2", depends_on: ["M0"], superseded_by: "M0" }),
      ],
      [makeIssue({ id: "I0", milestone: "M0" }), doneIssue({ id: "I1", milestone: "M1" }), doneIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M1").blocked_by).toEqual(["M0"]);
    expect(milestoneIn(plan, "M1").status).toBe("CANCELLED");
    expect(milestoneIn(plan, "M2").blocked_by).toEqual(["M0"]);
    expect(milestoneIn(plan, "M2").status).toBe("SUPERSEDED");
    expect(findingsOf(plan, "milestone_premature")).toEqual([]);
  });

  it("a duplicate of a valid dependency appears twice in blocked_by and in the premature message", () => {
    const plan = planOf(
      [makeMilestone({ id: "M0" }), makeMilestone({ id: "M1", depends_on: ["M0", "M0"] })],
      [makeIssue({ id: "I0", milestone: "M0" }), activeIssue({ id: "I1", milestone: "M1" })],
    );
    expect(milestoneIn(plan, "M1").blocked_by).toEqual(["M0", "M0"]);
    expect(findingsOf(plan, "milestone_premature")).toEqual([
      fail("milestone_premature", "M1", "is ACTIVE while M0,M0 is not DONE"),
    ]);
    expect(findingsOf(plan, "milestone_duplicate_dependency")).toEqual([
      warn("milestone_duplicate_dependency", "M1", "requires M0 more than once"),
    ]);
  });

  it("self and unknown milestone dependencies are FAILs, never edges, and never block", () => {
    const plan = planOf([makeMilestone({ id: "M1", depends_on: ["M1", "M404"] })], [makeIssue({ id: "I1" })]);
    expect(plan.findings).toEqual([
      fail("milestone_self_dependency", "M1", "requires itself"),
      fail("milestone_unknown_dependency", "M1", "requires M404, which is not a milestone here"),
    ]);
    expect(milestoneIn(plan, "M1").blocked_by).toEqual([]);
    expect(milestoneIn(plan, "M1").depends_on).toEqual([]);
    expect(milestoneIn(plan, "M1").status).toBe("PLANNED");
    expect(plan.milestone_edges).toEqual([]);
  });

  it("milestone edges are from the dependency to the dependent; dependents are recorded", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M3", depends_on: ["M1"] }),
        makeMilestone({ id: "M2", depends_on: ["M1"] }),
        makeMilestone({ id: "M1" }),
      ],
      [],
    );
    expect(plan.milestone_edges).toEqual([
      { from: "M1", to: "M2" },
      { from: "M1", to: "M3" },
    ]);
    expect(milestoneIn(plan, "M1").dependents).toEqual(["M2", "M3"]);
    expect(milestoneIn(plan, "M3").depends_on).toEqual(["M1"]);
  });

  it("empty_milestone: no issues, not DONE/CANCELLED/SUPERSEDED and not gate-blocked", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M1" }),
        makeMilestone({ id: "M2", depends_on: ["M1"] }),
        makeMilestone({ id: "M3", evidence_required: ["x"], covers: ["x"] }),
        makeMilestone({ id: "M4", cancelled: true }),
        makeMilestone({ id: "M5", superseded_by: "M1" }),
        makeMilestone({ id: "M6", evidence_required: ["y"] }),
      ],
      [],
    );
    expect(findingsOf(plan, "empty_milestone")).toEqual([
      warn("empty_milestone", "M1", "is reachable and has no issues; it is an outcome nobody is executing"),
      warn("empty_milestone", "M6", "is reachable and has no issues; it is an outcome nobody is executing"),
    ]);
  });
});

describe("§2.7 the gate reaches the issues", () => {
  const gated = () =>
    planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", depends_on: ["M1"] })],
      [
        makeIssue({ id: "I1", milestone: "M1" }),
        makeIssue({ id: "J1", milestone: "M2" }),
        activeIssue({ id: "J2", milestone: "M2" }),
        verifyIssue({ id: "J3", milestone: "M2" }),
        doneIssue({ id: "J4", milestone: "M2" }),
        makeIssue({ id: "J5", milestone: "M2", cancelled: true }),
        makeIssue({ id: "J6", milestone: "M2", depends_on: ["J1"] }),
      ],
    );

  it("a READY issue of a gated milestone becomes BLOCKED with milestone:<own milestone> appended", () => {
    const plan = gated();
    expect(issueIn(plan, "J1").status).toBe("BLOCKED");
    expect(issueIn(plan, "J1").blocked_by).toEqual(["milestone:M2"]);
  });

  it("a dependency-BLOCKED issue keeps its pass-1 blocked_by and gains the milestone entry after it", () => {
    expect(issueIn(gated(), "J6").blocked_by).toEqual(["J1", "milestone:M2"]);
  });

  it("ACTIVE and VERIFY issues of a gated milestone raise the gate variant of premature_execution and become BLOCKED", () => {
    const plan = gated();
    expect(issueIn(plan, "J2").status).toBe("BLOCKED");
    expect(issueIn(plan, "J3").status).toBe("BLOCKED");
    expect(issueIn(plan, "J2").blocked_by).toEqual(["milestone:M2"]);
    expect(findingsOf(plan, "premature_execution")).toEqual([
      fail("premature_execution", "J2", "is ACTIVE while its milestone M2 waits on M1"),
      fail("premature_execution", "J3", "is VERIFY while its milestone M2 waits on M1"),
    ]);
  });

  it("DONE and CANCELLED issues of a gated milestone are unchanged", () => {
    const plan = gated();
    expect(issueIn(plan, "J4").status).toBe("DONE");
    expect(issueIn(plan, "J4").blocked_by).toEqual([]);
    expect(issueIn(plan, "J5").status).toBe("CANCELLED");
    expect(issueIn(plan, "J5").blocked_by).toEqual([]);
  });

  it("the gated milestone's counts are recomputed from post-gate statuses (no READY work reported)", () => {
    const plan = gated();
    expect(milestoneIn(plan, "M2").counts).toEqual({
      total: 6,
      required: 5,
      by_status: { ...zeroCounts, BLOCKED: 4, DONE: 1, CANCELLED: 1 },
    });
    // the milestone status came from the first pass (ACTIVE, premature) and is BLOCKED by the gate
    expect(milestoneIn(plan, "M2").status).toBe("BLOCKED");
    expect(findingsOf(plan, "milestone_premature")).toEqual([fail("milestone_premature", "M2", "is ACTIVE while M1 is not DONE")]);
  });

  it("issues of a CANCELLED milestone with unfinished dependencies are still gated", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", depends_on: ["M1"], cancelled: true })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "J1", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M2").status).toBe("CANCELLED");
    expect(issueIn(plan, "J1").status).toBe("BLOCKED");
    expect(issueIn(plan, "J1").blocked_by).toEqual(["milestone:M2"]);
    expect(milestoneIn(plan, "M2").counts.by_status.BLOCKED).toBe(1);
    expect(milestoneIn(plan, "M2").counts.by_status.READY).toBe(0);
  });

  it("issues of a SUPERSEDED milestone with unfinished dependencies are still gated", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", depends_on: ["M1"], superseded_by: "M1" })],
      [makeIssue({ id: "I1", milestone: "M1" }), activeIssue({ id: "J1", milestone: "M2" })],
    );
    expect(issueIn(plan, "J1").status).toBe("BLOCKED");
    expect(findingsOf(plan, "premature_execution")).toEqual([
      fail("premature_execution", "J1", "is ACTIVE while its milestone M2 waits on M1"),
    ]);
  });

  it("the gate message names every waited-on milestone, comma-joined with duplicates", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2" }), makeMilestone({ id: "M3", depends_on: ["M2", "M1", "M2"] })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" }), activeIssue({ id: "I3", milestone: "M3" })],
    );
    expect(findingsOf(plan, "premature_execution")).toEqual([
      fail("premature_execution", "I3", "is ACTIVE while its milestone M3 waits on M2,M1,M2"),
    ]);
  });

  it("the cascade reaches issues two milestones down", () => {
    const plan = planOf(
      [makeMilestone({ id: "A", depends_on: ["B"] }), makeMilestone({ id: "B", depends_on: ["C"] }), makeMilestone({ id: "C" })],
      [makeIssue({ id: "IA", milestone: "A" }), doneIssue({ id: "IB", milestone: "B" }), makeIssue({ id: "IC", milestone: "C" })],
    );
    expect(issueIn(plan, "IA").status).toBe("BLOCKED");
    expect(issueIn(plan, "IA").blocked_by).toEqual(["milestone:A"]);
    expect(issueIn(plan, "IB").status).toBe("DONE");
    expect(issueIn(plan, "IC").status).toBe("READY");
  });

  it("an ACTIVE issue with an unfinished dependency in a gated milestone gets both premature_execution variants (phase C, then phase I)", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", depends_on: ["M1"] })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "J1", milestone: "M2" }), activeIssue({ id: "J2", milestone: "M2", depends_on: ["J1"] })],
    );
    expect(issueIn(plan, "J2").blocked_by).toEqual(["J1", "milestone:M2"]);
    expect(findingsOf(plan, "premature_execution")).toEqual([
      fail("premature_execution", "J2", "is ACTIVE while J1 is not DONE"),
      fail("premature_execution", "J2", "is ACTIVE while its milestone M2 waits on M1"),
    ]);
  });

  it("an issue of an unknown milestone is never gated", () => {
    const plan = planOf([makeMilestone({ id: "M0" }), makeMilestone({ id: "M1", depends_on: ["M0"] })], [
      makeIssue({ id: "I0", milestone: "M0" }),
      makeIssue({ id: "I1", milestone: "M404" }),
    ]);
    expect(issueIn(plan, "I1").status).toBe("READY");
    expect(issueIn(plan, "I1").blocked_by).toEqual([]);
  });
});

describe("§2.8 counts", () => {
  it("total, required = total - CANCELLED, and a zero-filled by_status over the issue vocabulary", () => {
    const plan = planOf(
      [M1, makeMilestone({ id: "M2" })],
      [
        makeIssue({ id: "I1" }),
        makeIssue({ id: "I2", depends_on: ["I1"] }),
        activeIssue({ id: "I3" }),
        verifyIssue({ id: "I4" }),
        doneIssue({ id: "I5" }),
        doneIssue({ id: "I6" }),
        makeIssue({ id: "I7", cancelled: true }),
      ],
    );
    expect(milestoneIn(plan, "M1").counts).toEqual({
      total: 7,
      required: 6,
      by_status: { ACTIVE: 1, BLOCKED: 1, CANCELLED: 1, DONE: 2, READY: 1, VERIFY: 1 },
    });
    expect(milestoneIn(plan, "M2").counts).toEqual({ total: 0, required: 0, by_status: zeroCounts });
  });

  it("counts only the issues naming the milestone; issues list them in id order", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2" })],
      [makeIssue({ id: "I3", milestone: "M2" }), makeIssue({ id: "I1", milestone: "M2" }), makeIssue({ id: "I2", milestone: "M1" })],
    );
    expect(milestoneIn(plan, "M2").counts.total).toBe(2);
    expect(milestoneIn(plan, "M2").issues).toEqual(["I1", "I3"]);
    expect(milestoneIn(plan, "M1").issues).toEqual(["I2"]);
  });
});

describe("§2.9 active milestone", () => {
  it("pass 1: an unblocked ACTIVE milestone wins over a PLANNED one with a smaller key", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 50 })],
      [makeIssue({ id: "I1", milestone: "M1" }), activeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("PLANNED");
    expect(milestoneIn(plan, "M2").status).toBe("ACTIVE");
    expect(plan.project.active_milestone).toBe("M2");
  });

  it("pass 1 picks the smallest key among ACTIVE milestones", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 9 }), makeMilestone({ id: "M2", order: 3 })],
      [activeIssue({ id: "I1", milestone: "M1" }), activeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(plan.project.active_milestone).toBe("M2");
  });

  it("pass 2: without an ACTIVE candidate, the smallest key among the rest", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 20 }), makeMilestone({ id: "M2", order: 10 }), makeMilestone({ id: "M3", order: 30 })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" }), makeIssue({ id: "I3", milestone: "M3" })],
    );
    expect(plan.project.active_milestone).toBe("M2");
  });

  it("the key is rank*1e6+order: a lower rank wins over a smaller order", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "D", evidence_required: ["x"], covers: ["x"] }),
        makeMilestone({ id: "A", order: 1, depends_on: ["D"] }),
        makeMilestone({ id: "B", order: 100 }),
      ],
      [makeIssue({ id: "IA", milestone: "A" }), makeIssue({ id: "IB", milestone: "B" })],
    );
    expect(milestoneIn(plan, "A").rank).toBe(1);
    expect(milestoneIn(plan, "A").blocked_by).toEqual([]);
    expect(plan.project.active_milestone).toBe("B");
  });

  it("the key is rank*1e6+order: an order below -1e6 crosses ranks", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "D", evidence_required: ["x"], covers: ["x"] }),
        makeMilestone({ id: "A", order: -2_000_000, depends_on: ["D"] }),
        makeMilestone({ id: "B", order: 5 }),
      ],
      [makeIssue({ id: "IA", milestone: "A" }), makeIssue({ id: "IB", milestone: "B" })],
    );
    expect(plan.project.active_milestone).toBe("A");
  });

  it("equal keys across ranks (rank 1 order 0 vs rank 0 order 1e6) keep the earlier id", () => {
    const mk = (ids: [string, string]) =>
      planOf(
        [
          makeMilestone({ id: "D", evidence_required: ["x"], covers: ["x"] }),
          makeMilestone({ id: ids[0], order: 0, depends_on: ["D"] }),
          makeMilestone({ id: ids[1], order: 1_000_000 }),
        ],
        [makeIssue({ id: "I0", milestone: ids[0] }), makeIssue({ id: "I1", milestone: ids[1] })],
      );
    expect(mk(["A", "B"]).project.active_milestone).toBe("A");
    expect(mk(["B", "A"]).project.active_milestone).toBe("A");
  });

  it("ties on the key keep the earlier id", () => {
    const plan = planOf(
      [makeMilestone({ id: "M2", order: 7 }), makeMilestone({ id: "M1", order: 7 })],
      [makeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(plan.project.active_milestone).toBe("M1");
  });

  it("DONE, CANCELLED and gate-blocked milestones are never candidates", () => {
    const plan = planOf(
      [
        makeMilestone({ id: "M1", order: 1 }),
        makeMilestone({ id: "M2", order: 2, cancelled: true }),
        makeMilestone({ id: "M3", order: 3, depends_on: ["M5"] }),
        makeMilestone({ id: "M4", order: 50 }),
        makeMilestone({ id: "M5", order: 60 }),
      ],
      [
        doneIssue({ id: "I1", milestone: "M1" }),
        activeIssue({ id: "I2", milestone: "M2" }),
        activeIssue({ id: "I3", milestone: "M3" }),
        makeIssue({ id: "I4", milestone: "M4" }),
        makeIssue({ id: "I5", milestone: "M5" }),
      ],
    );
    expect(plan.project.active_milestone).toBe("M4");
  });

  it("a SUPERSEDED unblocked milestone can be chosen in pass 2", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1, superseded_by: "M2" }), makeMilestone({ id: "M2", order: 2 })],
      [makeIssue({ id: "I1", milestone: "M1" }), doneIssue({ id: "I2", milestone: "M2" })],
    );
    expect(milestoneIn(plan, "M1").status).toBe("SUPERSEDED");
    expect(plan.project.active_milestone).toBe("M1");
  });

  it("a milestone BLOCKED only by rule 8 (empty blocked_by) is eligible", () => {
    const plan = planOf([makeMilestone({ id: "M1" })], [makeIssue({ id: "I1", cancelled: true })]);
    expect(milestoneIn(plan, "M1").status).toBe("BLOCKED");
    expect(plan.project.active_milestone).toBe("M1");
  });

  it("no candidate gives an empty active milestone", () => {
    expect(planOf([], []).project.active_milestone).toBe("");
    expect(planOf([M1], [doneIssue({ id: "I1" })]).project.active_milestone).toBe("");
  });
});

describe("§3.1 issue edges and dependents", () => {
  it("edges are sorted by (from, to) and deduplicated; depends_on is the declaration as written", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I3", depends_on: ["I2", "I1", "I2", "I3", "X"] }),
        makeIssue({ id: "I2", depends_on: ["I1"] }),
        makeIssue({ id: "I1" }),
      ],
    );
    expect(plan.edges).toEqual([
      { from: "I1", to: "I2" },
      { from: "I1", to: "I3" },
      { from: "I2", to: "I3" },
    ]);
    expect(issueIn(plan, "I3").depends_on).toEqual(["I2", "I1", "I2", "I3", "X"]);
    expect(issueIn(plan, "I1").dependents).toEqual(["I2", "I3"]);
    expect(issueIn(plan, "I2").dependents).toEqual(["I3"]);
  });
});

describe("§4 findings, one per code", () => {
  it("self_dependency: FAIL, per occurrence, 'depends on itself'", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", depends_on: ["I1", "I1"] })]);
    expect(plan.findings).toEqual([
      fail("self_dependency", "I1", "depends on itself"),
      fail("self_dependency", "I1", "depends on itself"),
    ]);
  });

  it("unknown_dependency: FAIL 'depends on <d>, which is not an issue' (a milestone id is not an issue)", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", depends_on: ["I9", "M1"] })]);
    expect(plan.findings).toEqual([
      fail("unknown_dependency", "I1", "depends on I9, which is not an issue"),
      fail("unknown_dependency", "I1", "depends on M1, which is not an issue"),
    ]);
  });

  it("duplicate_dependency: WARN once per extra occurrence, 'names <d> more than once'", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1", "I1", "I1"] })]);
    expect(plan.findings).toEqual([
      warn("duplicate_dependency", "I2", "names I1 more than once"),
      warn("duplicate_dependency", "I2", "names I1 more than once"),
    ]);
  });

  it("a record replaced in the caller's own list is read again (what a memory keeps is checked against a copy)", () => {
    const memory = new DerivationMemory();
    const input = records({ milestones: [M1], issues: [doneIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })] });
    expect(issueIn(derivePlan(input, memory), "I2").status).toBe("READY");
    input.issues[0] = makeIssue({ id: "I1" });
    const again = derivePlan(input, memory);
    expect(issueIn(again, "I1").status).toBe("READY");
    expect(issueIn(again, "I2")).toMatchObject({ status: "BLOCKED", blocked_by: ["I1"] });
  });

  it("duplicate_dependency in a long list (more than 16 entries): each extra occurrence, the edges and blocked_by as declared", () => {
    const ids = Array.from({ length: 20 }, (_, k) => `D${String(k).padStart(2, "0")}`);
    const declared = [...ids, "D03", "D19", "D03"];
    const plan = planOf([M1], [...ids.map((id) => makeIssue({ id })), makeIssue({ id: "I1", depends_on: declared })]);
    expect(findingsOf(plan, "duplicate_dependency")).toEqual([
      warn("duplicate_dependency", "I1", "names D03 more than once"),
      warn("duplicate_dependency", "I1", "names D19 more than once"),
      warn("duplicate_dependency", "I1", "names D03 more than once"),
    ]);
    expect(plan.edges.filter((e) => e.to === "I1").map((e) => e.from)).toEqual(ids);
    expect(plan.issues.find((i) => i.id === "I1")!.blocked_by).toEqual(declared);
  });

  it("dependency findings are interleaved in declaration order, before the milestone check", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "", depends_on: ["X", "I1", "I2", "I1", "Y"] })],
    );
    expect(plan.findings).toEqual([
      fail("unknown_dependency", "I2", "depends on X, which is not an issue"),
      fail("self_dependency", "I2", "depends on itself"),
      warn("duplicate_dependency", "I2", "names I1 more than once"),
      fail("unknown_dependency", "I2", "depends on Y, which is not an issue"),
      fail("no_milestone", "I2", "names no milestone"),
    ]);
  });

  it("no_milestone: FAIL 'names no milestone'", () => {
    const plan = planOf([], [makeIssue({ id: "I1", milestone: "" })]);
    expect(plan.findings).toEqual([fail("no_milestone", "I1", "names no milestone")]);
  });

  it("unknown_milestone: FAIL 'names milestone <m>, which does not exist'", () => {
    const plan = planOf([], [makeIssue({ id: "I1", milestone: "M9" })]);
    expect(plan.findings).toEqual([fail("unknown_milestone", "I1", "names milestone M9, which does not exist")]);
  });

  it("no_acceptance, no_validation, no_evidence_required, in that order", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", acceptance_count: 0, validation_count: 0, evidence_required: [] })]);
    expect(plan.findings).toEqual([
      fail("no_acceptance", "I1", "has no acceptance criteria; an issue without one is a placeholder"),
      fail("no_validation", "I1", "names no validation command"),
      warn("no_evidence_required", "I1", "requires no evidence; nothing gates its completion"),
    ]);
  });

  it("stamp_without_event: FAIL for start, verify, done in that order, with the exact message", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({
          id: "I1",
          started_at: T1,
          verified_at: T2,
          completed_at: T3,
          started_event: "sha256:00",
          completed_event: sealOf2("plan_done", "I1", T1),
        }),
      ],
    );
    expect(plan.findings).toEqual([
      fail(
        "stamp_without_event",
        "I1",
        `started_at ${T1} has no plan_start event: started_event is absent or does not seal it, and only \`cockpit plan start\` writes the stamp`,
      ),
      fail(
        "stamp_without_event",
        "I1",
        `verified_at ${T2} has no plan_verify event: verified_event is absent or does not seal it, and only \`cockpit plan verify\` writes the stamp`,
      ),
      fail(
        "stamp_without_event",
        "I1",
        `completed_at ${T3} has no plan_done event: completed_event is absent or does not seal it, and only \`cockpit plan done\` writes the stamp`,
      ),
    ]);
  });

  it("stamp_without_event: an unlisted pre-seal stamp fails too", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", started_at: OLD })]);
    expect(plan.findings).toEqual([
      fail(
        "stamp_without_event",
        "I1",
        `started_at ${OLD} has no plan_start event: started_event is absent or does not seal it, and only \`cockpit plan start\` writes the stamp`,
      ),
    ]);
  });

  it("evidence_missing: WARN naming the missing tokens comma-joined in requirement order, after stamp findings", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({
          id: "I1",
          started_at: T1,
          evidence_required: ["a", "b", "c"],
          covers: ["b"],
          ...sealedStamps("I1", { done: T2 }),
        }),
      ],
    );
    expect(issueIn(plan, "I1").status).toBe("VERIFY");
    expect(plan.findings).toEqual([
      fail(
        "stamp_without_event",
        "I1",
        `started_at ${T1} has no plan_start event: started_event is absent or does not seal it, and only \`cockpit plan start\` writes the stamp`,
      ),
      warn("evidence_missing", "I1", "completed_at is set but evidence is missing for a,c; status stays VERIFY"),
    ]);
  });

  it("evidence_missing needs a proven completed_at", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", completed_at: T1 })]);
    expect(findingsOf(plan, "evidence_missing")).toEqual([]);
  });

  it("a cancelled issue is exempt from no_acceptance, no_validation, no_evidence_required and evidence_missing but not from stamp_without_event", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({
          id: "I1",
          cancelled: true,
          acceptance_count: 0,
          validation_count: 0,
          evidence_required: [],
          started_at: T1,
        }),
        makeIssue({ id: "I2", cancelled: true, ...sealedStamps("I2", { done: T1 }) }),
      ],
    );
    expect(plan.findings).toEqual([
      fail(
        "stamp_without_event",
        "I1",
        `started_at ${T1} has no plan_start event: started_event is absent or does not seal it, and only \`cockpit plan start\` writes the stamp`,
      ),
    ]);
  });

  it("cycle: FAIL, subject graph, naming every unplaced issue in id order", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I2", depends_on: ["I1"] }), makeIssue({ id: "I1", depends_on: ["I2"] }), makeIssue({ id: "I3", depends_on: ["I1"] })],
    );
    expect(plan.findings).toEqual([
      fail("cycle", "graph", "a dependency cycle prevents these issues from ever becoming ready: I1 I2 I3"),
    ]);
  });

  it("milestone_self_dependency, milestone_unknown_dependency, milestone_duplicate_dependency interleave per declared entry", () => {
    const plan = planOf(
      [makeMilestone({ id: "M0", evidence_required: ["x"], covers: ["x"] }), makeMilestone({ id: "M1", depends_on: ["M0", "MX", "M1", "M0"] })],
      [makeIssue({ id: "I1" })],
    );
    expect(plan.findings).toEqual([
      fail("milestone_unknown_dependency", "M1", "requires MX, which is not a milestone here"),
      fail("milestone_self_dependency", "M1", "requires itself"),
      warn("milestone_duplicate_dependency", "M1", "requires M0 more than once"),
    ]);
  });

  it("milestone_cycle: FAIL, subject the space-joined cyclic ids, fixed message", () => {
    const plan = planOf(
      [makeMilestone({ id: "M2", depends_on: ["M1"] }), makeMilestone({ id: "M1", depends_on: ["M2"] })],
      [makeIssue({ id: "I1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(findingsOf(plan, "milestone_cycle")).toEqual([
      fail("milestone_cycle", "M1 M2", "milestone dependencies form a cycle; no roadmap order exists"),
    ]);
  });

  it("a legal but noteworthy plan has WARN findings only (levels are FAIL or WARN)", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", evidence_required: [] })]);
    expect(plan.findings.map((f) => f.level)).toEqual(["WARN"]);
  });

  it("undeclared_status cannot fire with the derivation rules", () => {
    const plan = planOf(
      [M1, makeMilestone({ id: "M2", cancelled: true }), makeMilestone({ id: "M3", superseded_by: "M1" })],
      [makeIssue({ id: "I1" }), activeIssue({ id: "I2" }), doneIssue({ id: "I3" }), makeIssue({ id: "I4", cancelled: true })],
    );
    expect(findingsOf(plan, "undeclared_status")).toEqual([]);
  });

  it("findings of one phase come in id order of their subjects", () => {
    const plan = planOf([], [makeIssue({ id: "I3", milestone: "" }), makeIssue({ id: "I1", milestone: "" }), makeIssue({ id: "I2", milestone: "" })]);
    expect(plan.findings.map((f) => f.subject)).toEqual(["I1", "I2", "I3"]);
  });
});

describe("§4 emission order across phases A-K", () => {
  // One plan producing a finding in every phase A-J. Subjects are chosen so that id order
  // disagrees with phase order (I09 in A, I05 in C, I01 in I, I02 in J).
  const plan = planOf(
    [
      makeMilestone({ id: "MA", depends_on: ["MA", "MZZ", "MF", "MF"] }),
      makeMilestone({ id: "MC1", depends_on: ["MC2"] }),
      makeMilestone({ id: "MC2", depends_on: ["MC1"] }),
      makeMilestone({ id: "MF", evidence_required: ["demo"] }),
      makeMilestone({ id: "MG", depends_on: ["MF"] }),
      makeMilestone({ id: "MH" }),
      makeMilestone({ id: "MJ" }),
    ],
    [
      activeIssue({ id: "I01", milestone: "MG" }),
      makeIssue({ id: "I02", milestone: "MJ", scope: ["lib"] }),
      makeIssue({ id: "I03", milestone: "MJ", scope: ["lib/plan"] }),
      activeIssue({ id: "I05", milestone: "MJ", depends_on: ["I06"] }),
      makeIssue({ id: "I06", milestone: "MJ" }),
      makeIssue({ id: "I07", milestone: "MJ", depends_on: ["I08"] }),
      makeIssue({ id: "I08", milestone: "MJ", depends_on: ["I07"] }),
      makeIssue({ id: "I09", milestone: "MJ", depends_on: ["I09"] }),
      doneIssue({ id: "I10", milestone: "MF" }),
    ],
  );

  it("emits A, B, C, D, E, F, G, H, I, J in that order with exact level/code/subject/message", () => {
    expect(plan.findings).toEqual([
      fail("self_dependency", "I09", "depends on itself"),
      fail("cycle", "graph", "a dependency cycle prevents these issues from ever becoming ready: I07 I08"),
      fail("premature_execution", "I05", "is ACTIVE while I06 is not DONE"),
      fail("milestone_self_dependency", "MA", "requires itself"),
      fail("milestone_unknown_dependency", "MA", "requires MZZ, which is not a milestone here"),
      warn("milestone_duplicate_dependency", "MA", "requires MF more than once"),
      fail("milestone_cycle", "MC1 MC2", "milestone dependencies form a cycle; no roadmap order exists"),
      warn("milestone_evidence_missing", "MF", "every issue is DONE but milestone evidence is missing for demo; status stays VERIFY"),
      fail("milestone_premature", "MG", "is ACTIVE while MF is not DONE"),
      warn("empty_milestone", "MH", "is reachable and has no issues; it is an outcome nobody is executing"),
      fail("premature_execution", "I01", "is ACTIVE while its milestone MG waits on MF"),
      warn("scope_conflict", "I02", "shares lib with I03; they may not run concurrently"),
    ]);
  });

  it("load findings come before every engine finding", () => {
    const loadFinding = fail("schema", "I99", "unknown keys: status");
    const withLoad = derivePlan(
      records({
        milestones: [],
        issues: [makeIssue({ id: "I1", milestone: "" })],
        loadFindings: [loadFinding],
      }),
    );
    expect(withLoad.findings).toEqual([loadFinding, fail("no_milestone", "I1", "names no milestone")]);
  });

  it("derives the expected statuses and active milestone for the mixed plan", () => {
    expect(plan.milestones.map((m) => [m.id, m.status])).toEqual([
      ["MA", "BLOCKED"],
      ["MC1", "BLOCKED"],
      ["MC2", "BLOCKED"],
      ["MF", "VERIFY"],
      ["MG", "BLOCKED"],
      ["MH", "PLANNED"],
      ["MJ", "ACTIVE"],
    ]);
    expect(plan.project.active_milestone).toBe("MJ");
  });
});

describe("§9 edge cases", () => {
  it("1: a cancelled issue occupies a wave, counts in total but not required, and blocks its dependents forever", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", cancelled: true }), makeIssue({ id: "I2", depends_on: ["I1"] })],
    );
    expect(plan.waves).toEqual([
      { wave: 0, issues: ["I1"] },
      { wave: 1, issues: ["I2"] },
    ]);
    expect(issueIn(plan, "I2").status).toBe("BLOCKED");
    expect(issueIn(plan, "I2").blocked_by).toEqual(["I1"]);
    expect(milestoneIn(plan, "M1").counts.total).toBe(2);
    expect(milestoneIn(plan, "M1").counts.required).toBe(1);
  });

  it("2: a READY issue of a cancelled, unblocked milestone is still handed out by next_ready (widening)", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1", order: 1 }), makeMilestone({ id: "M2", order: 2, cancelled: true })],
      [activeIssue({ id: "I1", milestone: "M1" }), makeIssue({ id: "I2", milestone: "M2" })],
    );
    expect(plan.project.active_milestone).toBe("M1");
    expect(issueIn(plan, "I2").status).toBe("READY");
    expect(pickNextIssue(plan)?.id).toBe("I2");
  });

  it("3: all issues cancelled → BLOCKED; issue-less with covered evidence → DONE; issue-less without evidence → PLANNED + empty_milestone", () => {
    const plan = planOf(
      [makeMilestone({ id: "M1" }), makeMilestone({ id: "M2", evidence_required: ["e"], covers: ["e"] }), makeMilestone({ id: "M3" })],
      [makeIssue({ id: "I1", milestone: "M1", cancelled: true })],
    );
    expect(plan.milestones.map((m) => m.status)).toEqual(["BLOCKED", "DONE", "PLANNED"]);
    expect(plan.findings).toEqual([
      warn("empty_milestone", "M3", "is reachable and has no issues; it is an outcome nobody is executing"),
    ]);
  });

  it("4: a duplicate dependency warns once per extra occurrence but appears in blocked_by every time", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), activeIssue({ id: "I2", depends_on: ["I1", "I1"] })]);
    expect(issueIn(plan, "I2").blocked_by).toEqual(["I1", "I1"]);
    expect(plan.findings).toEqual([
      warn("duplicate_dependency", "I2", "names I1 more than once"),
      fail("premature_execution", "I2", "is ACTIVE while I1,I1 is not DONE"),
    ]);
  });

  it("5: unknown and self dependencies never block and never affect waves", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", depends_on: ["I1", "NOPE"] })]);
    expect(issueIn(plan, "I1").status).toBe("READY");
    expect(issueIn(plan, "I1").blocked_by).toEqual([]);
    expect(plan.waves).toEqual([{ wave: 0, issues: ["I1"] }]);
    expect(plan.edges).toEqual([]);
  });

  it("6: issues in a cycle have no wave in Plan.waves, wave 0 in PlanIssue, and are BLOCKED", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I0" }), makeIssue({ id: "I1", depends_on: ["I0", "I2"] }), makeIssue({ id: "I2", depends_on: ["I1"] })],
    );
    expect(plan.waves).toEqual([{ wave: 0, issues: ["I0"] }]);
    expect(issueIn(plan, "I1").wave).toBe(0);
    expect(issueIn(plan, "I2").wave).toBe(0);
    expect(issueIn(plan, "I1").status).toBe("BLOCKED");
    expect(issueIn(plan, "I2").status).toBe("BLOCKED");
  });

  it("7: evidence_have counts entries (duplicates counted), evidence_need the requirements; DONE uses set coverage", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", evidence_required: ["a", "b"], covers: ["a", "a"], ...sealedStamps("I1", { done: T1 }) })],
    );
    const issue = issueIn(plan, "I1");
    expect(issue.evidence_have).toBe(2);
    expect(issue.evidence_need).toBe(2);
    expect(issue.status).toBe("VERIFY");
  });

  it("8: id order is byte-wise (uppercase before lowercase, I10 before I2)", () => {
    const plan = planOf(
      [makeMilestone({ id: "m1" }), makeMilestone({ id: "M1" })],
      [makeIssue({ id: "I2" }), makeIssue({ id: "a1" }), makeIssue({ id: "I10" }), makeIssue({ id: "B1" })],
    );
    expect(plan.milestones.map((m) => m.id)).toEqual(["M1", "m1"]);
    expect(plan.issues.map((i) => i.id)).toEqual(["B1", "I10", "I2", "a1"]);
    expect(plan.waves).toEqual([{ wave: 0, issues: ["B1", "I10", "I2", "a1"] }]);
  });

  it("8: stamps compare byte-wise with SEALED_FROM", () => {
    // "2026-09-30T23:59:59Z" < "2026-10-01T00:00:00Z" < "2026-10-01T00:00:01Z"
    const listed = (stamp: string) =>
      issueIn(planOf([M1], [makeIssue({ id: "I1", started_at: stamp, unsealed_stamps: [`started_at ${stamp}`] })]), "I1").status;
    expect(listed("2026-09-30T23:59:59Z")).toBe("ACTIVE");
    expect(listed("2026-10-01T00:00:01Z")).toBe("READY");
  });

  it("11: finding lists are comma-joined", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1" }), makeIssue({ id: "I2" }), doneIssue({ id: "I3", depends_on: ["I1", "I2"] })]);
    expect(findingsOf(plan, "premature_execution")[0].message).toBe("is DONE while I1,I2 is not DONE");
  });

  it("12: the derivation is pure — deriving the same records twice gives equal plans and does not mutate them", () => {
    const recs = records({
      milestones: [makeMilestone({ id: "M2", depends_on: ["M1"] }), M1],
      issues: [makeIssue({ id: "I2", milestone: "M2", depends_on: ["I1"] }), activeIssue({ id: "I1" })],
    });
    const copy = structuredClone(recs);
    const a = derivePlan(recs);
    const b = derivePlan(recs);
    expect(a).toEqual(b);
    expect(recs).toEqual(copy);
  });

  it("the plan carries the project header and titles as given", () => {
    const plan = derivePlan(
      records({ project: { name: "P", repository: "o/r", default_branch: "main" }, milestones: [M1], issues: [makeIssue({ id: "I1" })] }),
    );
    expect(plan.project).toEqual({ name: "P", repository: "o/r", default_branch: "main", active_milestone: "M1" });
  });
});

describe("the derivation's memory (DerivationMemory)", () => {
  // Records are values: callers never change one in place. These tests do, because an in-place
  // change shows whether a derivation read a record again or reused what a memory kept of it.
  const chain = () => records({ milestones: [M1], issues: [makeIssue({ id: "I1" }), makeIssue({ id: "I2", depends_on: ["I1"] })] });
  const other = () => records({ milestones: [M1], issues: [makeIssue({ id: "J1" })] });

  it("without a memory nothing is kept: a record changed in place after one call is read again by the next", () => {
    const recs = chain();
    expect(issueIn(derivePlan(recs), "I1").status).toBe("READY");
    recs.issues[0].cancelled = true;
    const again = derivePlan(recs);
    expect(issueIn(again, "I1").status).toBe("CANCELLED");
    expect(again).toEqual(derivePlan(structuredClone(recs)));
  });

  it("with a memory, the same record object at the same place is not read again", () => {
    const memory = new DerivationMemory();
    const recs = chain();
    derivePlan(recs, memory);
    recs.issues[0].cancelled = true;
    expect(issueIn(derivePlan(recs, memory), "I1").status).toBe("READY");
  });

  it("two memories in one process do not evict each other: each still holds its own plan's reading", () => {
    const a = new DerivationMemory();
    const b = new DerivationMemory();
    const recsA = chain();
    const recsB = other();
    derivePlan(recsA, a);
    derivePlan(recsB, b);
    recsA.issues[0].cancelled = true;
    recsB.issues[0].cancelled = true;
    expect(issueIn(derivePlan(recsA, a), "I1").status).toBe("READY");
    expect(issueIn(derivePlan(recsB, b), "J1").status).toBe("READY");
  });

  it("one memory given two plans keeps the last one only: the first plan's records are read again", () => {
    const shared = new DerivationMemory();
    const recsA = chain();
    derivePlan(recsA, shared);
    derivePlan(other(), shared);
    recsA.issues[0].cancelled = true;
    expect(issueIn(derivePlan(recsA, shared), "I1").status).toBe("CANCELLED");
  });
});
