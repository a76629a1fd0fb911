import { describe, expect, it } from "vitest";
import { recentCommits, recentMoves, type Timeline } from "./recent";

// A person's recent moves and commits, from plan.history's and plan.code's answers (docs/people.md).

const entry = (time: string, status: string | null, author = "Léa Martin", commit: string | null = `c-${time}`) => ({ uncommitted: commit === null, commit, author, time, status });

describe("recent moves", () => {
  const bk1: Timeline = {
    id: "BK-1",
    truncated: false,
    entries: [entry("2026-11-28T10:00:00Z", "DONE"), entry("2026-11-27T10:00:00Z", "VERIFY", "tom"), entry("2026-11-26T12:00:00Z", "ACTIVE"), entry("2026-11-26T10:00:00Z", "ACTIVE"), entry("2026-11-20T10:00:00Z", "READY")],
  };
  const bk2: Timeline = { id: "BK-2", truncated: true, entries: [entry("2026-11-29T10:00:00Z", "ACTIVE", "lea", null), entry("2026-11-21T10:00:00Z", "READY")] };

  it("are the entries after which the status changed, newest first, an issue's creation included; an edit is no move", () => {
    expect(recentMoves([bk1], 10).map((m) => `${m.at.slice(5, 10)} ${m.from ?? "new"}→${m.to} ${m.by}`)).toEqual([
      "11-28 VERIFY→DONE Léa Martin",
      "11-27 ACTIVE→VERIFY tom",
      "11-26 READY→ACTIVE Léa Martin",
      "11-20 new→READY Léa Martin",
    ]);
  });

  it("merge the timelines newest first, capped; a truncated timeline's oldest entry has no known move", () => {
    const moves = recentMoves([bk1, bk2], 3);
    expect(moves.map((m) => `${m.id} ${m.to}`)).toEqual(["BK-2 ACTIVE", "BK-1 DONE", "BK-1 VERIFY"]);
    expect(moves[0]).toEqual({ id: "BK-2", at: "2026-11-29T10:00:00Z", from: "READY", to: "ACTIVE", by: "lea", commit: null });
    expect(recentMoves([bk2], 10).map((m) => m.to)).toEqual(["ACTIVE"]);
  });

  it("keep only the moves asked for (on another's issue, the person's own)", () => {
    expect(recentMoves([bk1], 10, (_, by) => by === "tom").map((m) => m.to)).toEqual(["VERIFY"]);
  });
});

describe("recent commits", () => {
  const c = (sha: string, author: string, at: string) => ({ sha, subject: `subject ${sha}`, author, authored_at: at });
  it("are the linked commits of their authors, once each with every issue they link, newest first, capped", () => {
    const perIssue = [
      { id: "BK-2", commits: [c("bbb", "Léa Martin", "2026-11-27T10:00:00Z"), c("aaa", "Léa Martin", "2026-11-26T10:00:00Z")] },
      { id: "BK-1", commits: [c("ccc", "Tom Okafor", "2026-11-28T10:00:00Z"), c("bbb", "Léa Martin", "2026-11-27T10:00:00Z")] },
    ];
    const lea = (a: string) => a === "Léa Martin";
    expect(recentCommits(perIssue, lea, 10)).toEqual([
      { sha: "bbb", subject: "subject bbb", author: "Léa Martin", authored_at: "2026-11-27T10:00:00Z", issues: ["BK-1", "BK-2"] },
      { sha: "aaa", subject: "subject aaa", author: "Léa Martin", authored_at: "2026-11-26T10:00:00Z", issues: ["BK-2"] },
    ]);
    expect(recentCommits(perIssue, lea, 1).map((x) => x.sha)).toEqual(["bbb"]);
  });
});
