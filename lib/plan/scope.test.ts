import { describe, expect, it } from "vitest";
import { findScopeConflicts, normaliseScopePath, scopesOverlap } from "./scope";
import {
  activeIssue,
  doneIssue,
  findingsOf,
  makeIssue,
  makeMilestone,
  planOf,
  verifyIssue,
  warn,
} from "@/tests/support/records";

const M1 = makeMilestone({ id: "M1" });
const conflict = (a: string, path: string, b: string) =>
  warn("scope_conflict", a, `shares ${path} with ${b}; they may not run concurrently`);

describe("§5 normalisation", () => {
  it("strips one leading ./ and every trailing /", () => {
    expect(normaliseScopePath("./lib/")).toBe("lib");
    expect(normaliseScopePath("lib///")).toBe("lib");
    expect(normaliseScopePath("././lib")).toBe("./lib");
    expect(normaliseScopePath("apps/cli")).toBe("apps/cli");
  });
});

describe("§5 overlap(x, y)", () => {
  it("apps/cli vs apps/cli/src/main.rs → true (containment, both directions)", () => {
    expect(scopesOverlap("apps/cli", "apps/cli/src/main.rs")).toBe(true);
    expect(scopesOverlap("apps/cli/src/main.rs", "apps/cli")).toBe(true);
  });

  it("./lib/ vs lib → true", () => {
    expect(scopesOverlap("./lib/", "lib")).toBe(true);
    expect(scopesOverlap("lib", "./lib/")).toBe(true);
  });

  it("lib vs libexec → false (containment only on / boundaries)", () => {
    expect(scopesOverlap("lib", "libexec")).toBe(false);
    expect(scopesOverlap("libexec", "lib")).toBe(false);
    expect(scopesOverlap("lib/a", "lib/ab")).toBe(false);
  });

  it("equal paths overlap", () => {
    expect(scopesOverlap("lib/plan.sh", "lib/plan.sh")).toBe(true);
  });

  it("trailing slashes are all stripped", () => {
    expect(scopesOverlap("lib//", "lib/x")).toBe(true);
  });

  it("only one leading ./ is stripped", () => {
    expect(scopesOverlap("././lib", "lib")).toBe(false);
  });

  it("no glob semantics: * is a literal character", () => {
    expect(scopesOverlap("lib/*", "lib/a")).toBe(false);
    expect(scopesOverlap("lib/*.sh", "lib/plan.sh")).toBe(false);
    expect(scopesOverlap("lib/*", "lib")).toBe(true);
    expect(scopesOverlap("lib/*", "lib/*")).toBe(true);
  });

  it("no case folding", () => {
    expect(scopesOverlap("Lib", "lib")).toBe(false);
  });

  it("no .. resolution", () => {
    expect(scopesOverlap("lib/../apps", "apps")).toBe(false);
  });

  it("siblings do not overlap", () => {
    expect(scopesOverlap("apps/cli", "apps/web")).toBe(false);
  });
});

describe("§5 scope conflicts in the plan", () => {
  it("two READY issues of one wave sharing a path: one WARN, subject the first, naming a's path as written and b", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", scope: ["./apps/cli/"] }), makeIssue({ id: "I2", scope: ["apps/cli/src/main.rs"] })]);
    expect(plan.findings).toEqual([conflict("I1", "./apps/cli/", "I2")]);
  });

  it("READY and ACTIVE issues conflict", () => {
    const plan = planOf([M1], [activeIssue({ id: "I1", scope: ["lib"] }), makeIssue({ id: "I2", scope: ["lib"] })]);
    expect(plan.findings).toEqual([conflict("I1", "lib", "I2")]);
  });

  it("two ACTIVE issues conflict", () => {
    const plan = planOf([M1], [activeIssue({ id: "I1", scope: ["lib"] }), activeIssue({ id: "I2", scope: ["lib"] })]);
    expect(findingsOf(plan, "scope_conflict")).toEqual([conflict("I1", "lib", "I2")]);
  });

  it("VERIFY, BLOCKED, DONE and CANCELLED issues never conflict", () => {
    const plan = planOf(
      [M1],
      [
        makeIssue({ id: "I0", scope: ["x"] }),
        makeIssue({ id: "I1", scope: ["lib"] }),
        verifyIssue({ id: "I2", scope: ["lib"] }),
        makeIssue({ id: "I3", scope: ["lib"], depends_on: ["I0"] }),
        doneIssue({ id: "I4", scope: ["lib"] }),
        makeIssue({ id: "I5", scope: ["lib"], cancelled: true }),
      ],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([]);
  });

  it("a BLOCKED issue does not conflict even with an ACTIVE issue of its own wave", () => {
    // I3 is BLOCKED by I0 (wave 1), I2 is ACTIVE and premature in wave 1 too
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I0" }), activeIssue({ id: "I2", scope: ["lib"], depends_on: ["I0"] }), makeIssue({ id: "I3", scope: ["lib"], depends_on: ["I0"] })],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([]);
  });

  it("statuses are post-gate: READY issues of a gate-blocked milestone do not conflict", () => {
    const plan = planOf(
      [makeMilestone({ id: "M0" }), makeMilestone({ id: "M1", depends_on: ["M0"] })],
      [makeIssue({ id: "I0", milestone: "M0" }), makeIssue({ id: "I1", scope: ["lib"] }), makeIssue({ id: "I2", scope: ["lib"] })],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([]);
  });

  it("issues of different waves never conflict", () => {
    const plan = planOf([M1], [doneIssue({ id: "I1", scope: ["x"] }), makeIssue({ id: "I2", scope: ["lib"] }), makeIssue({ id: "I3", scope: ["lib"], depends_on: ["I1"] })]);
    expect(plan.issues.map((i) => [i.id, i.status, i.wave])).toEqual([
      ["I1", "DONE", 0],
      ["I2", "READY", 0],
      ["I3", "READY", 1],
    ]);
    expect(findingsOf(plan, "scope_conflict")).toEqual([]);
  });

  it("issues of different milestones in the same wave conflict", () => {
    const plan = planOf(
      [makeMilestone({ id: "MA" }), makeMilestone({ id: "MB" })],
      [makeIssue({ id: "I1", milestone: "MA", scope: ["lib"] }), makeIssue({ id: "I2", milestone: "MB", scope: ["lib/x"] })],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([conflict("I1", "lib", "I2")]);
  });

  it("two unplaced (cycle) ACTIVE issues compare as the same wave and conflict", () => {
    const plan = planOf(
      [M1],
      [activeIssue({ id: "I1", scope: ["lib"], depends_on: ["I2"] }), activeIssue({ id: "I2", scope: ["lib"], depends_on: ["I1"] })],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([conflict("I1", "lib", "I2")]);
  });

  it("only the first overlapping pair (a's entries outer, b's inner) is reported per issue pair", () => {
    // x=docs meets y=docs/x first; scanning b's entries first would have named lib/a.
    const plan = planOf([M1], [makeIssue({ id: "I1", scope: ["docs", "lib/a"] }), makeIssue({ id: "I2", scope: ["lib", "docs/x"] })]);
    expect(findingsOf(plan, "scope_conflict")).toEqual([conflict("I1", "docs", "I2")]);
  });

  it("a's first entry that overlaps anything is named, even when a later entry is an exact match", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", scope: ["a", "b/c", "b"] }), makeIssue({ id: "I2", scope: ["b"] })]);
    expect(findingsOf(plan, "scope_conflict")).toEqual([conflict("I1", "b/c", "I2")]);
  });

  it("every overlapping pair gets one finding, in (a, b) id order", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I3", scope: ["lib/x"] }), makeIssue({ id: "I1", scope: ["lib"] }), makeIssue({ id: "I2", scope: ["lib/x/y"] })],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([
      conflict("I1", "lib", "I2"),
      conflict("I1", "lib", "I3"),
      conflict("I2", "lib/x/y", "I3"),
    ]);
  });

  it("parallel_safe is ignored", () => {
    const plan = planOf(
      [M1],
      [makeIssue({ id: "I1", scope: ["lib"], parallel_safe: true }), makeIssue({ id: "I2", scope: ["lib"], parallel_safe: true })],
    );
    expect(findingsOf(plan, "scope_conflict")).toEqual([conflict("I1", "lib", "I2")]);
  });

  it("issues without scope never conflict; disjoint scopes never conflict", () => {
    const plan = planOf([M1], [makeIssue({ id: "I1", scope: [] }), makeIssue({ id: "I2", scope: [] }), makeIssue({ id: "I3", scope: ["lib"] }), makeIssue({ id: "I4", scope: ["libexec"] })]);
    expect(findingsOf(plan, "scope_conflict")).toEqual([]);
  });

  it("findScopeConflicts returns the first overlapping x of a as written", () => {
    const scopes = [["./a/"], ["b"], ["a/b"]];
    expect(findScopeConflicts([0, 1, 2], (i) => scopes[i])).toEqual([{ a: 0, b: 2, path: "./a/" }]);
  });
});
