import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { findCapability } from "@/lib/capabilities/index";
import { loadPlan } from "@/lib/repo";
import { invoke } from "@/lib/surfaces/invoke";
import { handleCapabilityRequest } from "@/lib/surfaces/http";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { UNDO_DIR } from "@/lib/repo/undo-store";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "@/tests/support/repo";

afterAll(cleanupRepos);

/** Two issues, I0002 after I0001; committed, so the header's count of changes starts at zero. */
function repoWithTwo(): PlanRepo {
  return makePlanRepo({
    issues: [
      { id: "I0001", priority: "p1" },
      { id: "I0002", depends_on: ["I0001"] },
    ],
    files: { ".gitignore": ".ai/local/\n" },
    commit: true,
  });
}

const call = (repo: PlanRepo, id: string, input: unknown, by?: string) => invoke(findCapability(id)!, { repo: repo.root, plan: () => loadPlan(repo.root), by }, input);

describe("plan.undo", () => {
  it("a start answers its ledger id; undo restores the file byte for byte and logs a plan_undo line naming it", async () => {
    const repo = repoWithTwo();
    const before = repo.read("I0001");
    const moved = await call(repo, "plan.transition", { issue: "I0001", transition: "start" });
    expect(moved.ok).toBe(true);
    const { ledger_id } = (moved as { value: { ledger_id: number } }).value;
    expect(ledger_id).toBe(1);
    expect(repo.read("I0001")).not.toBe(before);
    const undone = await call(repo, "plan.undo", { ledger_id });
    expect(undone).toEqual({ ok: true, value: expect.objectContaining({ record: "I0001", undoes: 1, undone: "plan_start", from: "ACTIVE", to: "READY", event: "plan_undo", ledger_id: 2 }) });
    expect(repo.read("I0001")).toBe(before);
    expect(repo.ledgerLines().at(-1)).toMatchObject({ event: "plan_undo", record: "I0001", undoes: "1", undone: "plan_start" });
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("undo of an edit restores the bytes, updated_at included", async () => {
    const repo = repoWithTwo();
    const before = repo.read("I0002");
    const edited = await call(repo, "plan.edit", { id: "I0002", set: { priority: "p0" } });
    expect(edited.ok).toBe(true);
    expect(repo.read("I0002")).toMatch(/updated_at:/);
    const undone = await call(repo, "plan.undo", { ledger_id: (edited as { value: { ledger_id: number } }).value.ledger_id });
    expect(undone.ok).toBe(true);
    expect(repo.read("I0002")).toBe(before);
  });

  it("undo of a creation removes the file it created", async () => {
    const repo = repoWithTwo();
    const created = await call(repo, "plan.create", { kind: "issue", milestone: "M1", title: "New", add: { acceptance_criteria: ["a"], validation: ["v"] } });
    expect(created.ok).toBe(true);
    const { id, ledger_id } = (created as { value: { id: string; ledger_id: number } }).value;
    expect(repo.bytes(repo.issuePath(id).slice(repo.root.length + 1))).toBeDefined();
    expect((await call(repo, "plan.undo", { ledger_id })).ok).toBe(true);
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("a record changed since is refused with conflict naming the change, and nothing is written", async () => {
    const repo = repoWithTwo();
    const start = (await call(repo, "plan.transition", { issue: "I0001", transition: "start" })) as { value: { ledger_id: number } };
    await call(repo, "plan.transition", { issue: "I0001", transition: "verify" });
    const snap = repo.snapshot();
    const r = await call(repo, "plan.undo", { ledger_id: start.value.ledger_id });
    expect(r).toEqual({ ok: false, error: expect.objectContaining({ code: "conflict", message: expect.stringMatching(/^I0001 changed since ledger line 1 \(plan_start\): plan_verify by .* at /) }) });
    expect(repo.snapshot()).toEqual(snap);
  });

  it("only its author may undo it; a second undo is a conflict; an unknown line is not found", async () => {
    const repo = repoWithTwo();
    const start = (await call(repo, "plan.transition", { issue: "I0001", transition: "start" }, "ada")) as { value: { ledger_id: number } };
    const byBob = await call(repo, "plan.undo", { ledger_id: start.value.ledger_id }, "bob");
    expect(byBob).toEqual({ ok: false, error: { code: "refused", message: "ledger line 1 (plan_start of I0001) was made by ada; only they may undo it" } });
    expect((await call(repo, "plan.undo", { ledger_id: 1 }, "ada")).ok).toBe(true);
    expect(await call(repo, "plan.undo", { ledger_id: 1 }, "ada")).toMatchObject({ ok: false, error: { code: "conflict", message: expect.stringMatching(/already undone, by ledger line 2/) } });
    expect(await call(repo, "plan.undo", { ledger_id: 99 }, "ada")).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("the undo record lives in the clone's own state", async () => {
    const repo = repoWithTwo();
    await call(repo, "plan.transition", { issue: "I0001", transition: "start" });
    const kept = JSON.parse(readFileSync(repo.path(`${UNDO_DIR}/1.json`), "utf8")) as { record: string; before: string };
    expect(kept).toMatchObject({ record: "I0001", event: "plan_start", path: ".ai/repo/project/issues/I0001.yaml" });
  });

  it("cockpit plan undo N undoes over the command line, and a move's text names it", async () => {
    const repo = repoWithTwo();
    const before = repo.read("I0001");
    let out = "";
    const io = { out: (t: string) => void (out += t + "\n"), err: (t: string) => void (out += t + "\n") };
    expect(await runPlanCommand(["start", "I0001", "--repo", repo.root], io)).toBe(0);
    expect(out).toMatch(/undo: cockpit plan undo 1\n$/);
    expect(await runPlanCommand(["undo", "1", "--repo", repo.root], io)).toBe(0);
    expect(out).toMatch(/plan: undid ledger line 1 \(plan_start\): I0001 ACTIVE → READY; logged as line 2\n$/);
    expect(repo.read("I0001")).toBe(before);
  });
});

describe("idempotency keys", () => {
  it("the same key twice moves once and answers the first outcome both times", async () => {
    const repo = repoWithTwo();
    const input = { issue: "I0001", transition: "start", idempotency_key: "k-1" };
    const [a, b] = await Promise.all([call(repo, "plan.transition", input), call(repo, "plan.transition", input)]);
    expect(b).toEqual(a);
    const c = await call(repo, "plan.transition", input);
    expect(c).toEqual(a);
    expect(a.ok).toBe(true);
    expect(repo.ledgerLines()).toHaveLength(1);
  });

  it("a repeated refusal is the same refusal; a key reused for another request is refused", async () => {
    const repo = repoWithTwo();
    const blocked = { issue: "I0002", transition: "start", idempotency_key: "k-2" };
    const first = await call(repo, "plan.transition", blocked);
    expect(first).toMatchObject({ ok: false, error: { code: "refused" } });
    expect(await call(repo, "plan.transition", blocked)).toEqual(first);
    const other = await call(repo, "plan.transition", { ...blocked, issue: "I0001" });
    expect(other).toMatchObject({ ok: false, error: { code: "invalid_input", message: "idempotency_key 'k-2' was already used for a different request; give each new move a new key" } });
    expect(repo.ledger()).toBeUndefined();
  });

  it("HTTP carries the key as the Idempotency-Key header: the second request writes nothing", async () => {
    const repo = repoWithTwo();
    const post = () =>
      handleCapabilityRequest(
        new Request("http://127.0.0.1:3000/api/v1/plan/claim", { method: "POST", headers: { "content-type": "application/json", "idempotency-key": "click-1" }, body: "{}" }),
        "/api/v1/plan/claim",
        { repo: repo.root },
      );
    const first = await (await post()).json();
    const snap = repo.snapshot();
    const second = await (await post()).json();
    expect(second).toEqual(first);
    expect(repo.snapshot()).toEqual(snap);
    expect(repo.ledgerLines()).toHaveLength(1);
  });

  it("evidence over HTTP: a repeated Idempotency-Key answers the first outcome and records one entry", async () => {
    const repo = makePlanRepo({ issues: [{ id: "I0001", evidence_required: ["tests_pass", "docs"] }], files: { ".gitignore": ".ai/local/\n" }, commit: true });
    const post = () =>
      handleCapabilityRequest(
        new Request("http://127.0.0.1:3000/api/v1/plan/evidence", {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": "evidence-click-1" },
          body: JSON.stringify({ record: "I0001", covers: "tests_pass", type: "test", command: "npm test" }),
        }),
        "/api/v1/plan/evidence",
        { repo: repo.root },
      );
    const first = await post();
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer).toMatchObject({ record: "I0001", covers: "tests_pass", evidence_missing: ["docs"] });
    const file = repo.read("I0001");
    const snap = repo.snapshot();
    const second = await post();
    expect(await second.json()).toEqual(answer);
    expect(repo.read("I0001")).toBe(file);
    expect(repo.snapshot()).toEqual(snap);
    expect(file.match(/covers: tests_pass/g)).toHaveLength(1);
    expect(repo.ledgerLines()).toHaveLength(1);
  });
});
