// The commands other than a move through a following server, with real git (a bare origin,
// clones, commands run as the served surfaces run them): each lands as one commit holding only
// its files; an answer fits the OpenAPI document the server serves (ajv), pushed or not; a push
// the remote keeps rejecting is undone and refused naming the remote's commit; a command that
// would write over a hand edit is refused and writes nothing.

import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { httpPath } from "@/lib/capabilities/projection";
import { planClaimCapability } from "@/lib/capabilities/plan-claim";
import { planCreateCapability } from "@/lib/capabilities/plan-create";
import { planEditCapability } from "@/lib/capabilities/plan-edit";
import { planEvidenceCapability } from "@/lib/capabilities/plan-evidence";
import { planImportCapability } from "@/lib/capabilities/plan-import";
import { planTransitionCapability } from "@/lib/capabilities/plan-transition";
import type { AnyCapability } from "@/lib/capabilities/capability";
import { LEDGER_FILE } from "@/lib/plan/constants";
import { readStateFile } from "@/lib/repo/state-path";
import { follow, unfollow } from "@/lib/server/follow";
import { contextFor } from "@/lib/server/state";
import { invoke } from "@/lib/surfaces/invoke";
import { openApiDocument } from "@/lib/surfaces/openapi";
import { ISSUES_DIR, cloneOf, makeOrigin, type Origin } from "../coordination/clones";
import { type OpenApiDocument, answersValidator } from "../support/openapi-check";
import { ROOT, cleanupRepos, git } from "../support/repo";

const followed: string[] = [];
afterEach(async () => {
  for (const r of followed.splice(0)) await unfollow(r);
});
afterAll(cleanupRepos);

function following(clone: string): string {
  follow(clone, { intervalMs: 600_000 });
  followed.push(clone);
  return clone;
}

const check = answersValidator(openApiDocument() as OpenApiDocument);
/** Run `capability` as the served surfaces do; its answer is held to the document. */
async function command(capability: AnyCapability, repo: string, input: unknown, by = "Alice"): Promise<Record<string, unknown>> {
  const r = await invoke(capability, contextFor(repo, by), input);
  if (!r.ok) throw new Error(`${capability.id} refused: ${r.error.message}`);
  expect(check(httpPath(capability), "POST", 200, r.value)).toEqual([]);
  return r.value as Record<string, unknown>;
}
const lastCommit = (origin: Origin) => ({
  subject: git(origin.bare, "log", "-1", "--format=%an: %s", "main"),
  files: git(origin.bare, "show", "--name-only", "--format=", "main").split("\n").filter(Boolean).sort(),
});
const ledgerBytes = (repo: string) => readStateFile(repo, LEDGER_FILE)?.toString("utf8") ?? "";

describe("a following server's answers fit the document it serves", () => {
  it("pushed: true, and pushed: false with its sync_message, on a move, a claim, evidence, a create and an edit", async () => {
    const origin = makeOrigin(4);
    const a = following(cloneOf(origin, "a"));
    expect(await command(planTransitionCapability, a, { issue: "I0001", transition: "start" })).toMatchObject({ pushed: true });
    expect(await command(planClaimCapability, a, {})).toMatchObject({ pushed: true });
    expect(await command(planEvidenceCapability, a, { record: "I0001", covers: "proof", type: "test", command: "npm test" })).toMatchObject({ pushed: true });
    renameSync(origin.bare, `${origin.bare}.away`);
    try {
      const offline = await command(planTransitionCapability, a, { issue: "I0003", transition: "start" });
      expect(offline).toMatchObject({ pushed: false, sync_message: expect.stringContaining("pushed at the next sync") });
      expect(await command(planCreateCapability, a, { kind: "issue", milestone: "M1", title: "Written offline", add: { acceptance_criteria: ["a"], validation: ["v"] } })).toMatchObject({ pushed: false });
      expect(await command(planEditCapability, a, { id: "I0004", set: { title: "Renamed offline" } })).toMatchObject({ pushed: false });
    } finally {
      renameSync(`${origin.bare}.away`, origin.bare);
    }
  });
});

describe("each command through a following server is one commit on the remote with only its files", () => {
  it("create, edit, evidence: one record file each; an import of several records: one commit holding them", async () => {
    const origin = makeOrigin(2);
    const a = following(cloneOf(origin, "a"));
    writeFileSync(join(a, "NOTES.md"), "a hand edit outside the records\n");

    const created = await command(planCreateCapability, a, { kind: "issue", milestone: "M1", title: "A new one", add: { acceptance_criteria: ["a"], validation: ["v"] } });
    expect(created).toMatchObject({ action: "created", written: true, pushed: true });
    expect(lastCommit(origin)).toMatchObject({ subject: expect.stringMatching(new RegExp(`^Alice: ${String(created.id)}: create: issue ${String(created.id)}; set title=A new one`)), files: [String(created.path)] });

    await command(planEditCapability, a, { id: "I0002", set: { title: "Renamed" } });
    expect(lastCommit(origin).files).toEqual([`${ISSUES_DIR}/I0002.yaml`]);
    expect(git(origin.bare, "show", `main:${ISSUES_DIR}/I0002.yaml`)).toContain("title: Renamed");

    await command(planEvidenceCapability, a, { record: "I0001", covers: "proof", type: "test", command: "npm test" });
    expect(lastCommit(origin).files).toEqual([`${ISSUES_DIR}/I0001.yaml`]);

    const tasks = readFileSync(join(ROOT, "tests", "fixtures", "import", "taskmaster", ".taskmaster", "tasks", "tasks.json"), "utf8");
    const imported = await command(planImportCapability, a, { format: "taskmaster", files: { ".taskmaster/tasks/tasks.json": tasks }, source: "tasks.json" });
    const records = [...(imported.created as { milestones: string[]; issues: string[] }).milestones, ...(imported.created as { issues: string[] }).issues];
    expect(records.length).toBeGreaterThan(1);
    expect(imported.pushed).toBe(true);
    const files = lastCommit(origin).files;
    expect(files.length).toBe(records.length);
    for (const id of records) expect(files.some((f) => f.endsWith(`/${id}.yaml`))).toBe(true);
    expect(git(origin.bare, "rev-list", "--count", "main")).toBe("5"); // the seed, then one commit per command
    expect(git(a, "status", "--porcelain")).toBe("?? NOTES.md");
  });
});

describe("a push the remote keeps rejecting", () => {
  it("three rejected pushes to a reachable remote undo the command and refuse it, naming the remote's commit and its author", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const b = cloneOf(origin, "b");
    git(b, "commit", "-q", "--allow-empty", "-m", "the remote's last commit");
    git(b, "push", "-q", "origin", "HEAD:main");
    const hook = join(origin.bare, "hooks", "pre-receive");
    writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\necho push >> '${origin.bare}/pushes'\necho 'protected: no pushes today' >&2\nexit 1\n`);
    chmodSync(hook, 0o755);
    const head = git(a, "rev-parse", "HEAD");
    const record = readFileSync(join(a, ISSUES_DIR, "I0001.yaml"));
    const ledger = ledgerBytes(a);
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("refused");
    const tip = git(origin.bare, "rev-parse", "main");
    expect(r.error.message).toContain(`origin/main is at ${tip.slice(0, 7)} by Cockpit Tests b <tests@cockpit.invalid>`);
    expect(r.error.message).toContain("rejected 3 times");
    expect(r.error.details).toMatchObject({ remote_commit: tip, remote_author: "Cockpit Tests b <tests@cockpit.invalid>" });
    expect(readFileSync(join(origin.bare, "pushes"), "utf8").trim().split("\n")).toHaveLength(3);
    // Undone byte for byte: HEAD as the remote's (a fetched it), the record and the ledger as before.
    expect(git(a, "rev-parse", "HEAD")).not.toBe(head);
    expect(git(a, "rev-parse", "HEAD")).toBe(tip);
    expect(readFileSync(join(a, ISSUES_DIR, "I0001.yaml")).equals(record)).toBe(true);
    expect(ledgerBytes(a)).toBe(ledger);
    expect(git(a, "status", "--porcelain")).toBe("");
  });
});

describe("a command that would write a record edited by hand", () => {
  it("is refused naming the file, writes nothing (record, ledger, commit) and leaves the hand edit as it was", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const path = join(a, ISSUES_DIR, "I0001.yaml");
    const edited = readFileSync(path, "utf8") + "# a note by hand\n";
    writeFileSync(path, edited);
    const head = git(a, "rev-parse", "HEAD");
    const ledger = ledgerBytes(a);
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("refused");
    expect(r.error.message).toContain(`${ISSUES_DIR}/I0001.yaml has uncommitted changes made by hand`);
    expect(r.error.details).toEqual({ records: [`${ISSUES_DIR}/I0001.yaml`] });
    expect(readFileSync(path, "utf8")).toBe(edited);
    expect(ledgerBytes(a)).toBe(ledger);
    expect(git(a, "rev-parse", "HEAD")).toBe(head);
    expect(git(origin.bare, "rev-parse", "main")).toBe(head);
    expect(git(a, "status", "--porcelain")).toBe(`M ${ISSUES_DIR}/I0001.yaml`); // trimmed: " M", changed and not staged
    // Another record is written and pushed as usual, the hand edit left out.
    expect(await command(planTransitionCapability, a, { issue: "I0002", transition: "start" })).toMatchObject({ pushed: true });
    expect(lastCommit(origin).files).toEqual([`${ISSUES_DIR}/I0002.yaml`]);
  });

  it("is refused too when the hand edit is staged, or made in the index alone, and each stays as it was", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const head = git(a, "rev-parse", "HEAD");
    const ledger = ledgerBytes(a);
    // I0001: edited and staged (the work tree and the index agree, HEAD differs).
    const staged = join(a, ISSUES_DIR, "I0001.yaml");
    const stagedText = readFileSync(staged, "utf8") + "# staged by hand\n";
    writeFileSync(staged, stagedText);
    git(a, "add", `${ISSUES_DIR}/I0001.yaml`);
    // I0002: a change in the index only (the work tree is HEAD's bytes again).
    const indexOnly = join(a, ISSUES_DIR, "I0002.yaml");
    const original = readFileSync(indexOnly, "utf8");
    writeFileSync(indexOnly, original + "# in the index only\n");
    git(a, "add", `${ISSUES_DIR}/I0002.yaml`);
    writeFileSync(indexOnly, original);
    for (const [issue, file] of [["I0001", staged], ["I0002", indexOnly]] as const) {
      const before = readFileSync(file, "utf8");
      const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue, transition: "start" });
      expect(r).toMatchObject({ ok: false, error: { code: "refused", details: { records: [`${ISSUES_DIR}/${issue}.yaml`] } } });
      expect(readFileSync(file, "utf8")).toBe(before);
    }
    expect(ledgerBytes(a)).toBe(ledger);
    expect([git(a, "rev-parse", "HEAD"), git(origin.bare, "rev-parse", "main")]).toEqual([head, head]);
    expect(git(a, "status", "--porcelain")).toBe(`M  ${ISSUES_DIR}/I0001.yaml\nMM ${ISSUES_DIR}/I0002.yaml`);
  });
});
