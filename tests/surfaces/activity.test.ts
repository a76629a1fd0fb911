import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { planCli } from "../support/cli-in-process";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// plan.activity through the command line's entry function: the clone's moves and edits newest
// first, each with whether an undo would put it back now, and why not.

let repo: PlanRepo;
beforeEach(() => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [{ id: "I1" }, { id: "I2" }], commit: true });
});
afterAll(() => cleanupRepos());

const { cli, json } = planCli(() => repo.root);

interface Activity {
  entries: { ledger_id: number; at: string; event: string; record: string; by: string; summary: string; undo: { possible: boolean; why: string | null } }[];
  total: number;
}

describe("plan.activity", () => {
  it("lists the moves and edits newest first, each with whether it can be undone now and why not", async () => {
    expect(await json<Activity>("activity")).toEqual({ entries: [], total: 0 });
    const start = await json<{ ledger_id: number }>("start", "I1", "--as", "lead");
    const edit = await json<{ ledger_id: number }>("edit", "I2", "--set", "priority=p0", "--as", "lead");
    const second = await json<{ ledger_id: number }>("edit", "I2", "--set", "priority=p1", "--as", "ada");
    const asked = await json<{ id: string }>("ask", "I2", "--question", "Which first?", "--as", "lead");
    expect(asked.id).toMatch(/^a-/);

    let activity = await json<Activity>("activity");
    // The ask is the inbox's, not a move or an edit.
    expect(activity.entries.map((e) => e.ledger_id)).toEqual([second.ledger_id, edit.ledger_id, start.ledger_id]);
    expect(activity.total).toBe(3);
    expect(activity.entries[2]).toMatchObject({ event: "plan_start", record: "I1", by: "lead", summary: "start", undo: { possible: true, why: null } });
    expect(activity.entries[2].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(activity.entries[0]).toMatchObject({ event: "plan_record_edited", record: "I2", by: "ada", undo: { possible: true } });
    expect(activity.entries[1].undo).toEqual({ possible: false, why: `I2 changed since: plan_record_edited by ada at ${activity.entries[0].at}` });

    const undo = await json<{ ledger_id: number }>("undo", String(second.ledger_id), "--as", "ada");
    activity = await json<Activity>("activity", "--limit", "2");
    expect(activity.entries.map((e) => [e.ledger_id, e.event])).toEqual([
      [undo.ledger_id, "plan_undo"],
      [second.ledger_id, "plan_record_edited"],
    ]);
    expect(activity.entries[1].undo).toEqual({ possible: false, why: `undone by ledger line ${undo.ledger_id}` });
    expect(activity.entries[0].summary).toBe(`undo of ledger line ${second.ledger_id} (plan_record_edited)`);
    // With the later edit undone, the earlier one applies again.
    expect((await json<Activity>("activity")).entries.find((e) => e.ledger_id === edit.ledger_id)?.undo).toEqual({ possible: true, why: null });

    const text = await cli("activity");
    expect(text.out.split("\n")[0]).toContain(`undo of ledger line ${second.ledger_id}`);
    expect(text.out.replace(/\n\s+/g, " ")).toContain(`(undo: cockpit plan undo ${edit.ledger_id})`);
    expect((await cli("activity", "--limit", "0")).code).toBe(2);
  });
});
