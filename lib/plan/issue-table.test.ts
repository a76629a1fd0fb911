import { describe, expect, it } from "vitest";
import { filterRows, groupRows, issueRows, parseView, sortRows, viewQuery } from "./issue-table";
import { activeIssue, doneIssue, makeIssue, makeMilestone, planOf } from "@/tests/support/records";

const plan = planOf(
  [makeMilestone({ id: "M1", title: "One" })],
  [
    doneIssue({ id: "A-1", title: "Schema", priority: "p0" }),
    activeIssue({ id: "A-2", title: "Booking page", priority: "p2", depends_on: ["A-1"] }),
    makeIssue({ id: "A-3", title: "Reminders", priority: "p1", depends_on: ["A-2"] }),
    makeIssue({ id: "A-4", title: "Export", priority: "p1" }),
  ],
);
const owners = new Map([
  ["A-2", "lea"],
  ["A-3", "tom"],
]);
const code = new Map([["A-2", { branches: 2, merged: false }]]);
const rows = issueRows(plan, owners, code, Date.parse("2026-12-01T00:00:00Z"));
const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

describe("the issue table", () => {
  it("a row per issue: status, owner, what it waits on, its code, its age in its status", () => {
    expect(rows.find((r) => r.id === "A-3")).toMatchObject({ status: "BLOCKED", owner: "tom", waits: ["A-2"], branches: 0, merged: false, age_s: null });
    const active = rows.find((r) => r.id === "A-2")!;
    expect(active).toMatchObject({ status: "ACTIVE", owner: "lea", branches: 2 });
    expect(active.age_s).toBeGreaterThan(0);
  });

  it("filters by every field and by words; sorts by any column either way, ties by id; groups in the field's order", () => {
    expect(ids(filterRows(rows, parseView({ status: "blocked" })))).toEqual(["A-3"]);
    expect(ids(filterRows(rows, parseView({ priority: "p1" })))).toEqual(["A-3", "A-4"]);
    expect(ids(filterRows(rows, parseView({ q: "lea page" })))).toEqual(["A-2"]);
    expect(ids(filterRows(rows, parseView({ owner: "(nobody)" })))).toEqual(["A-1", "A-4"]);
    expect(ids(filterRows(rows, parseView({ owner: "" })))).toEqual(["A-1", "A-2", "A-3", "A-4"]);
    expect(viewQuery(parseView({ owner: "(nobody)" }))).toBe("owner=%28nobody%29");
    expect(ids(sortRows(rows, parseView({ sort: "priority" })))).toEqual(["A-1", "A-3", "A-4", "A-2"]);
    expect(ids(sortRows(rows, parseView({ sort: "priority", dir: "desc" })))).toEqual(["A-2", "A-3", "A-4", "A-1"]);
    expect(ids(sortRows(rows, parseView({ sort: "owner" })))).toEqual(["A-2", "A-3", "A-1", "A-4"]);
    expect(groupRows(sortRows(rows, parseView({})), "status").map((g) => [g.key, ids(g.rows)])).toEqual([
      ["ACTIVE", ["A-2"]],
      ["READY", ["A-4"]],
      ["BLOCKED", ["A-3"]],
      ["DONE", ["A-1"]],
    ]);
    expect(groupRows(rows, "owner").map((g) => g.key)).toEqual(["(nobody)", "lea", "tom"]);
  });

  it("the view is the address: what is default is left out, a view read back from its query is the same view", () => {
    const view = parseView({ q: "page", status: "ACTIVE", sort: "age", dir: "desc", group: "owner", wave: "2" });
    expect(viewQuery(view)).toBe("q=page&status=ACTIVE&wave=2&sort=age&dir=desc&group=owner");
    expect(parseView(Object.fromEntries(new URLSearchParams(viewQuery(view))))).toEqual(view);
    expect(viewQuery(parseView({}))).toBe("");
    expect(viewQuery(view, { sort: "id", dir: "asc", group: undefined })).toBe("q=page&status=ACTIVE&wave=2");
    // What an address names wrongly is the default, never an error.
    expect(parseView({ sort: "colour", dir: "sideways", group: "mood", wave: "-1" })).toEqual({ q: "", sort: "id", dir: "asc" });
  });
});
