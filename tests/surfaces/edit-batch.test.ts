import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { EXIT } from "@/lib/surfaces/exit-codes";
import { planCli } from "../support/cli-in-process";
import { mcpInMemory } from "../support/mcp-memory";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

// plan.edit over a list (ids): the same change to every record, one preview of the derived effect
// of the whole batch, all or nothing, one write, and one undo that puts every record back. Through
// the command line's entry function, the HTTP route handler and an MCP client linked in memory.

const TEN = Array.from({ length: 10 }, (_, i) => `I${i + 1}`);
let repo: PlanRepo;
let mcp: Client | undefined;
beforeEach(() => {
  repo = makePlanRepo({ files: { ".gitignore": ".ai/local/\n" }, issues: [...TEN.map((id) => ({ id })), { id: "I11", depends_on: ["I1"] }], commit: true });
});
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});
afterAll(() => cleanupRepos());

const { cli, json } = planCli(() => repo.root);
const text = (id: string) => readFileSync(repo.path(`.ai/repo/project/issues/${id}.yaml`), "utf8");

interface Batch {
  ids: string[];
  written: boolean;
  dry_run: boolean;
  refused?: string;
  changes: string[];
  records: { id: string; previous_version: string; version: string; fields: { field: string; from: string; to: string }[]; ledger_id?: number }[];
  preview: { is_empty: boolean; issues: { id: string; from: string; to: string }[]; findings: { new: { code: string }[] } };
  ledger_ids?: number[];
}

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const request = new Request(`http://127.0.0.1:3000${path}`, { method: "POST", headers: { "content-type": "application/json", "x-cockpit-actor": "lead" }, body: JSON.stringify(body) });
  const r = await handleCapabilityRequest(request, path, { repo: repo.root });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe("plan.edit with ids", () => {
  it("reassigns ten issues in one write, and one undo of any of its lines restores all ten byte for byte", async () => {
    const before = Object.fromEntries(TEN.map((id) => [id, text(id)]));
    const linesBefore = repo.ledgerLines().length;
    const batch = await json<Batch>("edit", ...TEN, "--set", "owner=bob", "--as", "lead");
    expect(batch).toMatchObject({ ids: TEN, written: true, dry_run: false, changes: ["set owner=bob"] });
    for (const id of TEN) expect(text(id)).toMatch(/^owner: bob$/m);
    expect(batch.records.map((r) => r.fields.find((f) => f.field === "owner"))).toEqual(TEN.map(() => ({ field: "owner", from: expect.any(String), to: "bob" })));
    // One line per record, appended in one write: consecutive, each naming its record and the batch.
    const lines = repo.ledgerLines().slice(linesBefore);
    expect(lines.map((l) => [l.event, l.record, l.batch, l.by])).toEqual(TEN.map((id) => ["plan_record_edited", id, "10", "lead"]));
    expect(batch.ledger_ids).toEqual(TEN.map((_, i) => linesBefore + 1 + i));
    expect(batch.records.map((r) => r.ledger_id)).toEqual(batch.ledger_ids);

    const undone = await json<{ batch: { record: string; undoes: number }[]; record: string; undoes: number }>("undo", String(batch.ledger_ids![4]), "--as", "lead");
    expect(undone).toMatchObject({ record: "I5", undoes: batch.ledger_ids![4] });
    expect(undone.batch.map((b) => [b.record, b.undoes])).toEqual(TEN.map((id, i) => [id, batch.ledger_ids![i]]));
    for (const id of TEN) expect(text(id)).toBe(before[id]);
    expect(repo.ledgerLines().slice(-10).map((l) => [l.event, l.record])).toEqual(TEN.map((id) => ["plan_undo", id]));
    // Undone once: any line of it is undone already.
    const again = await cli("undo", String(batch.ledger_ids![0]), "--as", "lead");
    expect(again.code).toBe(EXIT.refused); // a conflict
    expect(again.err).toContain("is already undone");
    // plan.activity: every line of the batch says it was undone.
    const activity = await json<{ entries: { ledger_id: number; undo: { possible: boolean; why: string | null } }[] }>("activity", "--limit", "30");
    for (const n of batch.ledger_ids!) expect(activity.entries.find((e) => e.ledger_id === n)?.undo.possible).toBe(false);
  });

  it("previews the whole batch's derived effect, and writes nothing on a dry run", async () => {
    const snapshot = repo.snapshot();
    const dry = await json<Batch>("edit", "I2", "I3", "--add", "depends_on=I4", "--dry-run", "--as", "lead");
    expect(dry).toMatchObject({ written: false, dry_run: true, ids: ["I2", "I3"] });
    expect(dry.preview.issues.filter((c) => c.to === "BLOCKED").map((c) => c.id).sort()).toEqual(["I2", "I3"]);
    expect(repo.snapshot()).toEqual(snapshot);
    const words = await cli("edit", "I2", "I3", "--add", "depends_on=I4", "--dry-run", "--as", "lead");
    expect(words.out).toContain("dry run: 2 record(s) (add depends_on=I4) would be edited; nothing written");
    expect(words.out).toContain("the whole batch:");
  });

  it("is all or nothing: an unknown id, a duplicate, a record that fails the change, a FAIL finding or a stale version writes nothing", async () => {
    const snapshot = repo.snapshot();
    const unknown = await cli("edit", "I1", "I99", "--set", "owner=bob", "--as", "lead");
    expect([unknown.code, unknown.err]).toEqual([EXIT.missing, expect.stringContaining("I99")]);
    const twice = await cli("edit", "I1", "I1", "--set", "owner=bob", "--as", "lead");
    expect([twice.code, twice.err]).toEqual([EXIT.usage, expect.stringContaining("I1 is given twice in ids")]);
    // I11 already depends on I1: adding it again is I11's mistake, named.
    const already = await cli("edit", "I10", "I11", "--add", "depends_on=I1", "--as", "lead");
    expect([already.code, already.err]).toEqual([EXIT.usage, expect.stringContaining("'I1' is already in depends_on of I11")]);
    // I1 waiting on I11 closes a cycle (I11 waits on I1): a FAIL finding, refused unless allowed.
    const cycle = await cli("edit", "I1", "I2", "--add", "depends_on=I11", "--as", "lead");
    expect([cycle.code, cycle.err]).toEqual([EXIT.refused, expect.stringContaining("the batch adds")]);
    const stale = await post("/api/v1/plan/edit", { ids: ["I1", "I2"], set: { owner: "bob" }, if_versions: { I2: "0000000000000000" } });
    expect(stale.status).toBe(409);
    expect(JSON.stringify(stale.body)).toContain("I2 changed since version 0000000000000000");
    expect(repo.snapshot()).toEqual(snapshot);
    const allowed = await cli("edit", "I1", "I2", "--add", "depends_on=I11", "--allow-findings", "--as", "lead");
    expect(allowed.code, allowed.err).toBe(EXIT.ok);
  });

  it("over HTTP and MCP: ids or id, never both; the batch's answer validates against the declared output schema", async () => {
    const both = await post("/api/v1/plan/edit", { id: "I1", ids: ["I2"], set: { owner: "bob" } });
    expect([both.status, JSON.stringify(both.body)]).toEqual([400, expect.stringContaining("give id (one record) or ids (a batch), not both and not neither")]);
    const neither = await post("/api/v1/plan/edit", { set: { owner: "bob" } });
    expect(neither.status).toBe(400);
    const mixed = await post("/api/v1/plan/edit", { ids: ["I1", "I2"], if_version: "x", set: { owner: "bob" } });
    expect([mixed.status, JSON.stringify(mixed.body)]).toEqual([400, expect.stringContaining("a batch takes if_versions")]);
    const ok = await post("/api/v1/plan/edit", { ids: ["I1", "I2"], set: { priority: "p0" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ids: ["I1", "I2"], written: true, changes: ["set priority=p0"] });

    mcp = await mcpInMemory(repo.root, "batch-tests");
    // The SDK's client checks structuredContent against the tool's output schema.
    const r = (await mcp.callTool({ name: "plan_edit", arguments: { ids: ["I3", "I4", "I5"], set: { owner: "ana" }, actor: "lead" } })) as { isError?: boolean; structuredContent?: Batch };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ ids: ["I3", "I4", "I5"], written: true });
    const one = (await mcp.callTool({ name: "plan_edit", arguments: { id: "I6", set: { owner: "ana" }, actor: "lead" } })) as { isError?: boolean; structuredContent?: { id: string } };
    expect(one.structuredContent?.id).toBe("I6");
  });

  it("an undo of a batch is refused, writing nothing, while one of its records changed since", async () => {
    const batch = await json<Batch>("edit", "I1", "I2", "I3", "--set", "owner=bob", "--as", "lead");
    expect((await cli("edit", "I2", "--set", "priority=p0", "--as", "ada")).code).toBe(EXIT.ok);
    const snapshot = repo.snapshot();
    const r = await cli("undo", String(batch.ledger_ids![0]), "--as", "lead");
    expect(r.code).toBe(EXIT.refused); // a conflict
    expect(r.err).toContain(`I2 changed since ledger line ${batch.ledger_ids![1]} (plan_record_edited) (of a batch edit of 3 records): plan_record_edited by ada`);
    expect(repo.snapshot()).toEqual(snapshot);
    const activity = await json<{ entries: { ledger_id: number; undo: { possible: boolean; why: string | null } }[] }>("activity");
    expect(activity.entries.find((e) => e.ledger_id === batch.ledger_ids![0])?.undo).toEqual({ possible: false, why: expect.stringContaining("I2 changed since") });
  });
});
