// A following server against a remote that others push to in hostile ways: backdated commits, a
// force-push that removes a leaked file, a commit carrying a copy of the server's trailer, and a
// remote that answers slowly. Real git (a bare origin, clones), the server's follower in this
// process; after each, the origin holds nothing the server should not have pushed and the ledger
// agrees with the records.

import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { planStatusCapability } from "@/lib/capabilities/plan-status";
import { planTransitionCapability } from "@/lib/capabilities/plan-transition";
import { LEDGER_FILE } from "@/lib/plan/constants";
import { readStateFile } from "@/lib/repo/state-path";
import { follow, followerOf, sync, unfollow } from "@/lib/server/follow";
import { contextFor } from "@/lib/server/state";
import { invoke } from "@/lib/surfaces/invoke";
import { runPlanCommand } from "@/lib/surfaces/cli/plan";
import { ISSUES_DIR, cloneOf, makeOrigin, type Origin } from "../coordination/clones";
import { cleanupRepos, git } from "../support/repo";

const followed: string[] = [];
afterEach(async () => {
  for (const r of followed.splice(0)) await unfollow(r);
});
afterAll(cleanupRepos);

/** A following server on a clone of `origin`, its first sync done; no loop sync during a test. */
async function server(origin: Origin): Promise<string> {
  const clone = cloneOf(origin, "server");
  follow(clone, { intervalMs: 600_000 });
  followed.push(clone);
  await followerOf(clone)!.pending;
  return clone;
}

const start = async (clone: string, issue: string) => {
  const r = await invoke(planTransitionCapability, contextFor(clone, "Alice"), { issue, transition: "start" });
  expect(r.ok).toBe(true);
  return (r as { value: { pushed?: boolean } }).value.pushed;
};
const offline = (origin: Origin, clone: string) => git(clone, "remote", "set-url", "origin", `${origin.bare}.gone`);
const online = (origin: Origin, clone: string) => git(clone, "remote", "set-url", "origin", origin.bare);
const commitsOn = (origin: Origin) => git(origin.bare, "rev-list", "main").split("\n").filter(Boolean);
const subjectsOn = (origin: Origin) => git(origin.bare, "log", "main", "--format=%s").split("\n");
const isStarted = (text: string) => /^started_at:/m.test(text);

/** The issues the ledger says are started (plan_start lines not undone) and those the records say are: equal. */
function expectLedgerAgrees(clone: string, ids: readonly string[]): void {
  const rows = (readStateFile(clone, LEDGER_FILE)?.toString("utf8") ?? "").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { event: string; issue?: string; undoes?: string });
  const undone = new Set(rows.filter((r) => r.event === "plan_undo").map((r) => Number(r.undoes)));
  const byLedger = ids.filter((id) => rows.some((r, i) => r.event === "plan_start" && r.issue === id && !undone.has(i + 1)));
  const byRecords = ids.filter((id) => isStarted(readFileSync(join(clone, ISSUES_DIR, `${id}.yaml`), "utf8")));
  expect(byLedger).toEqual(byRecords);
}

/** A teammate's clone, committing what `change` does to it. */
function teammateCommits(origin: Origin, name: string, commits: { message: string; change: (dir: string) => void; env?: Record<string, string> }[]): string {
  const b = cloneOf(origin, name);
  for (const c of commits) {
    c.change(b);
    git(b, "add", "-A");
    // The support helper's git takes no environment: a commit with its own dates is made directly.
    execFileSync("git", ["-C", b, "commit", "-q", "--allow-empty", "-m", c.message], { env: { ...process.env, ...c.env }, stdio: "pipe" });
  }
  return b;
}

describe("a following server against a hostile remote", () => {
  it("backdated commits on the remote: it pushes its own waiting command only, not the remote's older history again", async () => {
    const origin = makeOrigin(3);
    const a = await server(origin);
    offline(origin, a);
    expect(await start(a, "I0001")).toBe(false);
    const old = { GIT_COMMITTER_DATE: "2001-01-01T00:00:00Z", GIT_AUTHOR_DATE: "2001-01-01T00:00:00Z" };
    const b = teammateCommits(
      origin,
      "b",
      Array.from({ length: 8 }, (_, i) => ({ message: `backdated ${i + 1}`, change: (dir: string) => writeFileSync(join(dir, `note-${i}.txt`), `${i}\n`), env: old })),
    );
    git(b, "push", "-q", "origin", "HEAD:main");
    const before = commitsOn(origin);
    online(origin, a);
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "following", waiting: 0, ahead: 0, behind: 0 });
    const after = commitsOn(origin);
    expect(after.length).toBe(before.length + 1);
    expect(after.slice(1)).toEqual(before);
    expect(subjectsOn(origin)[0]).toBe("I0001: start");
    expect(git(a, "rev-parse", "HEAD")).toBe(after[0]);
    expectLedgerAgrees(a, ["I0001", "I0002", "I0003"]);
  });

  it("a force-push that removes a leaked file: it moves to the remote's tip, says what was removed, and never pushes it back", async () => {
    const origin = makeOrigin(3);
    const a = await server(origin);
    const b = teammateCommits(origin, "b", [{ message: "add leaked.env", change: (dir) => writeFileSync(join(dir, "leaked.env"), "TOKEN=secret\n") }]);
    git(b, "push", "-q", "origin", "HEAD:main");
    await sync(followerOf(a)!);
    expect(existsSync(join(a, "leaked.env"))).toBe(true);
    const leaked = git(b, "rev-parse", "HEAD");
    // Removed again: the branch is put back where it was before it.
    git(b, "push", "-q", "--force", "origin", "HEAD~1:main");
    // A command waits meanwhile (the remote out of reach): it is the only thing the server pushes.
    offline(origin, a);
    expect(await start(a, "I0002")).toBe(false);
    online(origin, a);
    const s = await sync(followerOf(a)!);
    expect(git(origin.bare, "rev-list", "main", "--", "leaked.env")).toBe("");
    expect(subjectsOn(origin)[0]).toBe("I0002: start");
    expect(commitsOn(origin)).toHaveLength(2); // the seed, then the server's command
    expect(s).toMatchObject({ state: "following", waiting: 0, removed_by_remote: { count: 1, commits: [leaked.slice(0, 7)], at: expect.any(String) } });
    // The command line says it too, in the header's words.
    const said: string[] = [];
    expect(await runPlanCommand(["sync-status", "--repo", a], { out: (t) => said.push(t), err: () => undefined })).toBe(0);
    // (A line longer than the terminal wraps, indented: read as one.)
    expect(said.join("\n").replace(/\n {2}/g, " ")).toContain(`\nremoved: origin/main removed 1 commit (a force-push): ${leaked.slice(0, 7)}; seen ${s.removed_by_remote!.at}, not pushed again\n`);
    expect(git(a, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
    expect(existsSync(join(a, "leaked.env"))).toBe(false);
    // A later command and a later sync push nothing of it either.
    expect(await start(a, "I0003")).toBe(true);
    await sync(followerOf(a)!);
    expect(git(origin.bare, "rev-list", "main", "--", "leaked.env")).toBe("");
    expect(git(origin.bare, "branch", "--contains", leaked)).toBe("");
    expectLedgerAgrees(a, ["I0001", "I0002", "I0003"]);
  });

  it("a force-push that puts back a commit carrying a copy of the server's trailer: nothing of the server's is undone, the ledger agrees", async () => {
    const origin = makeOrigin(3);
    const a = await server(origin);
    expect(await start(a, "I0001")).toBe(true);
    const message = git(a, "log", "-1", "--format=%B");
    const b = cloneOf(origin, "b");
    const record = join(b, ISSUES_DIR, "I0001.yaml");
    const started = readFileSync(record, "utf8");
    // b's commit copies the server's move (its detail lines and its Cockpit-Command trailer) onto its own edit.
    writeFileSync(record, started + "# forged\n");
    git(b, "commit", "-qam", message);
    git(b, "push", "-q", "origin", "HEAD:main");
    await sync(followerOf(a)!);
    // Then forced over with another change of the same record.
    git(b, "reset", "-q", "--hard", "HEAD~1");
    writeFileSync(record, started + "# another note\n");
    git(b, "commit", "-qam", "a note on I0001");
    git(b, "push", "-q", "--force", "origin", "HEAD:main");
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "following", waiting: 0, undone: [], removed_by_remote: { count: 1 } });
    const rows = (readStateFile(a, LEDGER_FILE)?.toString("utf8") ?? "").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { event: string });
    expect(rows.filter((r) => r.event === "plan_undo")).toEqual([]);
    expect(isStarted(git(origin.bare, "show", `main:${ISSUES_DIR}/I0001.yaml`))).toBe(true);
    expect(git(a, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
    expectLedgerAgrees(a, ["I0001", "I0002", "I0003"]);
  });

  it("a remote that answers slowly: other requests are answered while the push waits, and it pushes its own command once", async () => {
    const origin = makeOrigin(3);
    const a = await server(origin);
    offline(origin, a);
    expect(await start(a, "I0001")).toBe(false);
    online(origin, a);
    // The origin's pre-receive hook holds a push until the test releases it (a file), for at most 60 s.
    const [inPush, release] = [join(origin.bare, "in-push"), join(origin.bare, "release")];
    const hook = join(origin.bare, "hooks", "pre-receive");
    writeFileSync(hook, ["#!/bin/sh", "cat >/dev/null", `: > '${inPush}'`, "n=0", `while [ ! -e '${release}' ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done`, "exit 0", ""].join("\n"));
    chmodSync(hook, 0o755);
    let settled = false;
    const syncing = sync(followerOf(a)!).finally(() => (settled = true));
    while (!existsSync(inPush)) await new Promise((r) => setTimeout(r, 50));
    const status = await invoke(planStatusCapability, contextFor(a), {});
    expect(status.ok).toBe(true);
    expect(settled).toBe(false);
    writeFileSync(release, "");
    const s = await syncing;
    expect(s).toMatchObject({ state: "following", waiting: 0 });
    expect(subjectsOn(origin).filter((x) => x === "I0001: start")).toHaveLength(1);
    expect(commitsOn(origin)).toHaveLength(2);
    renameSync(hook, `${hook}.off`);
    expectLedgerAgrees(a, ["I0001", "I0002", "I0003"]);
  });
});
