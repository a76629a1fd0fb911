import { describe, expect, it } from "vitest";
import { searchRecords } from "./search";
import { doneIssue, makeIssue, makeMilestone, planOf } from "@/tests/support/records";

const plan = planOf(
  [makeMilestone({ id: "booking", title: "Online booking" }), makeMilestone({ id: "BK", title: "Back office" })],
  [
    makeIssue({ id: "BK-2", title: "Slot engine", milestone: "booking" }),
    makeIssue({ id: "BK-10", title: "Public booking page", milestone: "booking" }),
    doneIssue({ id: "XY-1", title: "Calendar export for bk users", milestone: "BK" }),
  ],
);
const ids = (q: string, limit?: number) => searchRecords(plan, q, limit).matches.map((m) => m.id);

describe("searchRecords", () => {
  it("ranks the exact id first, then id prefixes, ids that hold the query, then titles", () => {
    // The plan lists records in byte order of their ids: BK-10 before BK-2.
    expect(ids("bk")).toEqual(["BK", "BK-10", "BK-2", "XY-1"]);
    expect(ids("bk-10")).toEqual(["BK-10"]);
    expect(ids("booking")).toEqual(["booking", "BK-10"]);
  });

  it("needs every word, in any order, case-insensitive", () => {
    expect(ids("page PUBLIC")).toEqual(["BK-10"]);
    expect(ids("page slot")).toEqual([]);
  });

  it("an empty query lists milestones, then issues, in the plan's order", () => {
    expect(ids("  ")).toEqual(["BK", "booking", "BK-10", "BK-2", "XY-1"]);
  });

  it("says what each match is, and counts every match beyond the limit", () => {
    const r = searchRecords(plan, "bk", 2);
    expect(r.total).toBe(4);
    expect(r.matches).toEqual([
      { kind: "milestone", id: "BK", title: "Back office", status: plan.milestones.find((m) => m.id === "BK")!.status },
      { kind: "issue", id: "BK-10", title: "Public booking page", status: "READY" },
    ]);
  });

  it("finds an id typed without its dash and zeros, records by their status, and ranks whole words above a match inside a word", () => {
    const demo = planOf(
      [makeMilestone({ id: "customers", title: "Customers" })],
      [
        makeIssue({ id: "BK-021", title: "Load test for customers", milestone: "customers" }),
        makeIssue({ id: "BK-030", title: "Tom's refunds", milestone: "customers", depends_on: ["BK-021"] }),
        makeIssue({ id: "BK-031", title: "Staff calendar", milestone: "customers" }),
      ],
    );
    const find = (q: string) => searchRecords(demo, q).matches.map((m) => m.id);
    expect(find("bk21")).toEqual(["BK-021"]);
    expect(find("BK021")).toEqual(["BK-021"]);
    expect(find("bk3")).toEqual(["BK-030", "BK-031"]);
    // "blocked" is a status: the blocked issues.
    expect(find("blocked")).toEqual(["BK-030"]);
    expect(find("ready calendar")).toEqual(["BK-031"]);
    // "tom" is a word of BK-030's title and only inside "customers" elsewhere: the word comes first.
    expect(find("tom")).toEqual(["BK-030", "customers", "BK-021"]);
  });
});
