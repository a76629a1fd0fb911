import { describe, expect, it } from "vitest";
import { filterFindings, formatFindingQuery, pageOf, parseFindingQuery, splitIds } from "./finding-query";
import type { PlanFinding } from "./shapes";

const f = (level: "FAIL" | "WARN", code: PlanFinding["code"], subject: string, message: string): PlanFinding => ({ level, code, subject, message });
const findings = [
  f("WARN", "scope_conflict", "I1", "shares lib/a with I2; they may not run concurrently"),
  f("FAIL", "unknown_dependency", "I3", "depends on I9, which is not an issue"),
  f("WARN", "milestone_evidence_missing", "M2", "needs evidence: security_review"),
];
const milestoneOf = (id: string) => ({ I1: "M1", I2: "M1", I3: "M2" })[id];

describe("finding query", () => {
  it("reads the URL's filters, ignoring unknown levels and bad pages", () => {
    expect(parseFindingQuery({ q: " lib ", level: "warn", code: "scope_conflict", page: "3" })).toEqual({
      q: "lib",
      level: "WARN",
      code: "scope_conflict",
      subject: "",
      milestone: null,
      page: 3,
    });
    expect(parseFindingQuery({ level: "NOPE", page: "-2" })).toMatchObject({ level: null, page: 1 });
  });
  it("writes back only what is set, and a patch changes the page", () => {
    const q = parseFindingQuery({ q: "lib a", code: "scope_conflict" });
    expect(formatFindingQuery(q)).toBe("q=lib+a&code=scope_conflict");
    expect(formatFindingQuery(q, { page: 2 })).toBe("q=lib+a&code=scope_conflict&page=2");
  });
  it("keeps findings holding every word, any case, in level, code, subject or message", () => {
    expect(filterFindings(findings, parseFindingQuery({ q: "i1 I2" }), milestoneOf)).toEqual([findings[0]]);
    expect(filterFindings(findings, parseFindingQuery({ q: "fail i9" }), milestoneOf)).toEqual([findings[1]]);
    expect(filterFindings(findings, parseFindingQuery({ q: "i1 i9" }), milestoneOf)).toEqual([]);
  });
  it("filters by level, code, subject and milestone (its own findings and its issues')", () => {
    expect(filterFindings(findings, parseFindingQuery({ level: "FAIL" }), milestoneOf)).toEqual([findings[1]]);
    expect(filterFindings(findings, parseFindingQuery({ code: "scope_conflict" }), milestoneOf)).toEqual([findings[0]]);
    expect(filterFindings(findings, parseFindingQuery({ subject: "i3" }), milestoneOf)).toEqual([findings[1]]);
    expect(filterFindings(findings, parseFindingQuery({ milestone: "M2" }), milestoneOf)).toEqual([findings[1], findings[2]]);
  });
  it("pages a list with no cap: the last page holds the rest, a page past the end shows the last", () => {
    const many = Array.from({ length: 250 }, (_, i) => f("WARN", "x" as PlanFinding["code"], `I${i}`, "m"));
    expect(pageOf(many, 3)).toMatchObject({ page: 3, pages: 3, from: 201, to: 250, total: 250 });
    expect(pageOf(many, 3).items[0].subject).toBe("I200");
    expect(pageOf(many, 9).page).toBe(3);
    expect(pageOf([], 1)).toMatchObject({ page: 1, pages: 1, from: 0, to: 0 });
  });
  it("cuts a message into text and the ids it names", () => {
    const parts = splitIds("shares lib/a with BK-016; they may not", (t) => t === "BK-016");
    expect(parts).toEqual([
      { text: "shares lib/a with ", isId: false },
      { text: "BK-016", isId: true },
      { text: "; they may not", isId: false },
    ]);
  });
});
