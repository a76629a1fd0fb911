import { afterAll, describe, expect, it } from "vitest";
import { loadPlan } from "../repo";
import { transition } from "../repo/transition";
import { planHistory } from "./history";
import { commitAt, issuePath, issueText, milestonePath, milestoneText, newRepo, PROJECT, projectText, refusalCode, removeTempDirs, tempDir } from "@/tests/support/history";

afterAll(removeTempDirs);

function repoWithHistory(): { repo: string; shas: string[] } {
  const repo = newRepo();
  const shas = [
    commitAt(repo, "2026-11-02T09:00:00Z", {
      [PROJECT]: projectText(),
      [milestonePath("m1")]: milestoneText("m1"),
      [issuePath("I1")]: issueText({ id: "I1", milestone: "m1" }),
      [issuePath("I2")]: issueText({ id: "I2", milestone: "m1", depends_on: ["I1"] }),
    }, "add the plan"),
    commitAt(repo, "2026-11-03T09:00:00Z", { [issuePath("I1")]: issueText({ id: "I1", milestone: "m1", started_at: "2026-11-03T08:00:00Z" }) }, "start I1"),
    commitAt(repo, "2026-11-04T09:00:00Z", { [issuePath("I2")]: issueText({ id: "I2", milestone: "m1", depends_on: ["I1"], title: "Renamed" }) }, "rename I2"),
    commitAt(repo, "2026-11-05T09:00:00Z", { [issuePath("I1")]: issueText({ id: "I1", milestone: "m1", started_at: "2026-11-03T08:00:00Z", completed_at: "2026-11-05T08:00:00Z" }) }, "finish I1"),
  ];
  return { repo, shas };
}


describe("the timeline of one record", () => {
  it("lists each commit that changed the record's file, newest first, with its status after it", async () => {
    const { repo, shas } = repoWithHistory();
    const h = await planHistory(repo, { id: "I1" }, () => loadPlan(repo));
    expect(h.kind).toBe("issue");
    expect(h.path).toBe(".ai/repo/project/issues/I1.yaml");
    expect(h.entries.map((e) => [e.commit, e.time, e.message, e.status, e.author, e.uncommitted])).toEqual([
      [shas[3], "2026-11-05T09:00:00Z", "finish I1", "DONE", "Test Author", false],
      [shas[1], "2026-11-03T09:00:00Z", "start I1", "ACTIVE", "Test Author", false],
      [shas[0], "2026-11-02T09:00:00Z", "add the plan", "READY", "Test Author", false],
    ]);
    // I2's status changed with I1 (a commit that did not touch I2's file is not in its timeline).
    expect((await planHistory(repo, { id: "I2" }, () => loadPlan(repo))).entries.map((e) => [e.message, e.status])).toEqual([
      ["rename I2", "BLOCKED"],
      ["add the plan", "BLOCKED"],
    ]);
  });

  it("a milestone's timeline carries the milestone's status", async () => {
    const { repo } = repoWithHistory();
    const h = await planHistory(repo, { id: "m1" }, () => loadPlan(repo));
    expect(h.kind).toBe("milestone");
    expect(h.entries.map((e) => e.status)).toEqual(["PLANNED"]);
  });

  it("--limit keeps the newest entries and says that older ones were left out", async () => {
    const { repo, shas } = repoWithHistory();
    const h = await planHistory(repo, { id: "I1", limit: 2 }, () => loadPlan(repo));
    expect(h.entries.map((e) => e.commit)).toEqual([shas[3], shas[1]]);
    expect(h.truncated).toBe(true);
    expect((await planHistory(repo, { id: "I1", limit: 3 }, () => loadPlan(repo))).truncated).toBe(false);
  });

  it("a move in this clone's ledger that no commit carries comes first, marked uncommitted, until it is committed", async () => {
    const { repo } = repoWithHistory();
    const r = await transition(repo, "I2", "start", { by: "tester" });
    const h = await planHistory(repo, { id: "I2" }, () => loadPlan(repo));
    expect(h.entries[0]).toEqual({ uncommitted: true, commit: null, author: "tester", time: r.at, message: "start (not yet committed)", event: "plan_start", status: "ACTIVE" });
    expect(h.entries.slice(1).every((e) => !e.uncommitted)).toBe(true);
    commitAt(repo, "2026-11-06T09:00:00Z", {}, "commit the start");
    const after = await planHistory(repo, { id: "I2" }, () => loadPlan(repo));
    expect(after.entries.map((e) => [e.uncommitted, e.message, e.status])[0]).toEqual([false, "commit the start", "ACTIVE"]);
  });

  it("the record in the files is the one shown; a record gone from the files is found in its history", async () => {
    const { repo } = repoWithHistory();
    // A milestone named I3 came and went; then an issue I3 was made.
    commitAt(repo, "2026-11-06T09:00:00Z", { [milestonePath("I3")]: milestoneText("I3") }, "add milestone I3");
    commitAt(repo, "2026-11-07T09:00:00Z", { [milestonePath("I3")]: null }, "remove milestone I3");
    commitAt(repo, "2026-11-08T09:00:00Z", { [issuePath("I3")]: issueText({ id: "I3", milestone: "m1" }) }, "add issue I3");
    const issue = await planHistory(repo, { id: "I3" }, () => loadPlan(repo));
    expect([issue.kind, issue.entries.map((e) => e.message)]).toEqual(["issue", ["add issue I3"]]);
    // Gone from the files: the history of both folders is asked.
    commitAt(repo, "2026-11-09T09:00:00Z", { [issuePath("I3")]: null }, "remove issue I3");
    const gone = await planHistory(repo, { id: "I3" }, () => loadPlan(repo));
    expect([gone.kind, gone.entries.map((e) => e.message)]).toEqual(["milestone", ["remove milestone I3", "add milestone I3"]]);
  });

  it("an id with no file and no history is not found; a path is not an id; a folder without git says so", async () => {
    const { repo } = repoWithHistory();
    expect(await refusalCode(() => planHistory(repo, { id: "NOPE" }, () => loadPlan(repo)))).toBe("not_found");
    expect(await refusalCode(() => planHistory(repo, { id: "../x" }, () => loadPlan(repo)))).toBe("invalid_input");
    const plain = tempDir("cockpit-not-git-");
    expect(await refusalCode(() => planHistory(plain, { id: "I1" }, () => loadPlan(plain)))).toBe("invalid_input");
  });
});
