// A following server's commands and syncs with real git: a bare origin, clones of it, commands run
// as the served surfaces run them (invoke with the served context), each clone following the
// origin in this process as `cockpit serve --follow` makes its process do.

import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { planClaimCapability } from "@/lib/capabilities/plan-claim";
import { planTransitionCapability } from "@/lib/capabilities/plan-transition";
import { authorEnv, emailOf, follow, type SyncStatus, syncStatus, unfollow, sync, followerOf } from "@/lib/server/follow";
import { runUsersCommand } from "@/lib/surfaces/cli/users";
import { contextFor } from "@/lib/server/state";
import { invoke } from "@/lib/surfaces/invoke";
import { LEDGER_FILE } from "@/lib/plan/constants";
import { readStateFile } from "@/lib/repo/state-path";
import { ISSUES_DIR, cloneOf, makeOrigin } from "../coordination/clones";
import { cleanupRepos, git, tempDir } from "../support/repo";

const followed: string[] = [];
afterEach(async () => {
  for (const r of followed.splice(0)) await unfollow(r);
});
afterAll(cleanupRepos);

function following(clone: string, intervalMs = 2000): string {
  follow(clone, { intervalMs });
  followed.push(clone);
  return clone;
}

/** ACTIVE once started (a status is derived from the stamps; these tests only start issues). */
const statusOf = (repo: string, id: string) => (/^started_at:/m.test(readFileSync(join(repo, ISSUES_DIR, `${id}.yaml`), "utf8")) ? "ACTIVE" : "READY");
const originLog = (bare: string, ...args: string[]) => git(bare, "log", "main", ...args);
/** A teammate's clone starts `issue` (or claims the next one) and pushes it, as a plain git user would. */
async function teammatePushes(b: string, issue: string | undefined, message: string): Promise<void> {
  if (issue) await invoke(planTransitionCapability, contextFor(b), { issue, transition: "start" });
  else await invoke(planClaimCapability, contextFor(b), {});
  git(b, "commit", "-qam", message);
  git(b, "push", "-q", "origin", "HEAD:main");
}
const ledgerBytes = (repo: string) => readStateFile(repo, LEDGER_FILE)?.toString("utf8") ?? "";

describe("a following server's commands", () => {
  it("commits only the moved record, with the move as its message and the person as its author, and pushes it before answering", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    writeFileSync(join(a, "NOTES.md"), "a hand edit outside the records\n");
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    expect(r.ok).toBe(true);
    expect((r as { value: { pushed?: boolean } }).value.pushed).toBe(true);
    const message = originLog(origin.bare, "-1", "--format=%an%n%B");
    expect(message.split("\n")[0]).toBe("Alice");
    expect(message.split("\n")[1]).toBe("I0001: start");
    expect(message).toMatch(/\n {4}plan_start at /);
    expect(git(origin.bare, "show", "--name-only", "--format=", "main")).toBe(`${ISSUES_DIR}/I0001.yaml`);
    expect(git(a, "status", "--porcelain")).toBe("?? NOTES.md");
    expect((await syncStatus(a)).waiting).toBe(0);
  });

  it("a leftover .git/index.lock is refused naming it and how to check that no git process runs, not with git's raw message; nothing is written", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const record = readFileSync(join(a, ISSUES_DIR, "I0001.yaml"), "utf8");
    const [head, ledger, remote] = [git(a, "rev-parse", "HEAD"), ledgerBytes(a), git(origin.bare, "rev-parse", "main")];
    writeFileSync(join(a, ".git", "index.lock"), ""); // what a killed commit leaves
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    expect(readFileSync(join(a, ISSUES_DIR, "I0001.yaml"), "utf8")).toBe(record);
    expect([git(a, "rev-parse", "HEAD"), ledgerBytes(a), git(origin.bare, "rev-parse", "main")]).toEqual([head, ledger, remote]);
    expect(r).toMatchObject({ ok: false, error: { code: "refused" } });
    const message = (r as { error: { message: string } }).error.message;
    expect(message).toContain("cannot lock the index: .git/index.lock exists");
    expect(message).toContain("check that no git process is running in this repository (ps), then remove .git/index.lock");
    expect(message).not.toContain("fatal:");
  });

  it("commits only the record even when someone staged a change by hand, which stays staged", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    writeFileSync(join(a, "NOTES.md"), "staged by hand\n");
    git(a, "add", "NOTES.md");
    expect((await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0002", transition: "start" })).ok).toBe(true);
    expect(git(origin.bare, "show", "--name-only", "--format=", "main")).toBe(`${ISSUES_DIR}/I0002.yaml`);
    expect(git(a, "status", "--porcelain")).toBe("A  NOTES.md");
  });

  it("authors a signed-in user's move 'Name <email>' from the users file; without an address, the name with --author's, else git's config", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const users = join(tempDir("cockpit-users-"), "users.yaml");
    for (const [name, ...email] of [["ada", "--email", "ada@team.example"], ["bob"]]) {
      expect(await runUsersCommand(["add", name, ...email, "--users", users], { out: () => undefined, err: () => undefined })).toBe(0);
    }
    const authorOf = async (by: string, issue: string) => {
      expect((await invoke(planTransitionCapability, contextFor(a, by), { issue, transition: "start" })).ok).toBe(true);
      return originLog(origin.bare, "-1", "--format=%an <%ae>");
    };
    const env = { COCKPIT_USERS: process.env.COCKPIT_USERS, COCKPIT_AUTHOR: process.env.COCKPIT_AUTHOR };
    try {
      process.env.COCKPIT_USERS = users;
      expect(await authorOf("ada", "I0001")).toBe("ada <ada@team.example>");
      expect(await authorOf("bob", "I0002")).toBe("bob <tests@cockpit.invalid>");
      process.env.COCKPIT_AUTHOR = "Team Server <server@team.example>";
      expect(emailOf("bob")).toBeUndefined();
      expect(authorEnv("bob", emailOf("bob"))).toMatchObject({ GIT_AUTHOR_NAME: "bob", GIT_AUTHOR_EMAIL: "server@team.example" });
      expect(await authorOf("bob", "I0003")).toBe("bob <server@team.example>");
    } finally {
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("undoes a move whose record the remote changed first, byte for byte, and refuses it naming the remote commit and author", async () => {
    const origin = makeOrigin(3);
    // No loop sync but the first (done before b pushes): b's push is met by the move's own push.
    const a = following(cloneOf(origin, "a"), 600_000);
    await followerOf(a)!.pending;
    const b = cloneOf(origin, "b");
    await teammatePushes(b, "I0002", "I0002: start by b");
    const head = git(a, "rev-parse", "HEAD");
    const record = readFileSync(join(a, ISSUES_DIR, "I0002.yaml"));
    const ledger = ledgerBytes(a);
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0002", transition: "start" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("refused");
    expect(r.error.message).toContain("Cockpit Tests b");
    expect(r.error.details?.remote_commit).toBe(git(origin.bare, "rev-parse", "main"));
    expect(git(a, "rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(join(a, ISSUES_DIR, "I0002.yaml")).equals(record)).toBe(true);
    expect(ledgerBytes(a)).toBe(ledger);
    expect(git(a, "status", "--porcelain")).toBe("");
  });

  it("a claim that loses to the remote takes the next ready issue", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const b = cloneOf(origin, "b");
    await teammatePushes(b, undefined, "claim by b");
    const r = await invoke(planClaimCapability, contextFor(a, "Alice"), {});
    expect(r.ok).toBe(true);
    expect((r as { value: { issue: string } }).value.issue).toBe("I0002");
    expect(statusOf(a, "I0001")).toBe("ACTIVE");
    expect(originLog(origin.bare, "--format=%s").split("\n").slice(0, 2)).toEqual(["I0002: start", "claim by b"]);
  });

  it("answers pushed: false when the remote cannot be reached, and pushes what waits at the next sync", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    renameSync(origin.bare, `${origin.bare}.away`);
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0003", transition: "start" });
    expect(r.ok && (r.value as { pushed?: boolean }).pushed).toBe(false);
    expect((await syncStatus(a)).waiting).toBe(1);
    renameSync(`${origin.bare}.away`, origin.bare);
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "following", waiting: 0, last_fetch_ok: true });
    expect(originLog(origin.bare, "-1", "--format=%s")).toBe("I0003: start");
  });
});

describe("the follow loop", () => {
  it("fast-forwards to a teammate's push within two intervals, and uncommitted hand edits hold it", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const b = cloneOf(origin, "b");
    await teammatePushes(b, "I0001", "start by b");
    await expect.poll(() => statusOf(a, "I0001"), { timeout: 4000, interval: 100 }).toBe("ACTIVE");
    writeFileSync(join(a, ISSUES_DIR, "I0003.yaml"), readFileSync(join(a, ISSUES_DIR, "I0003.yaml"), "utf8") + "# by hand\n");
    await teammatePushes(b, "I0002", "start 2 by b");
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "held", behind: 1 });
    expect(s.message).toContain("I0003.yaml");
    expect(statusOf(a, "I0002")).toBe("READY");
  });

  it("pauses on a commit made by hand in the clone (a following server pushes only its own), and shows it; nothing is undone or pushed", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    // a's way to the origin is cut until b's commit is there, so its loop cannot push first.
    git(a, "remote", "set-url", "origin", `${origin.bare}.gone`);
    writeFileSync(join(a, ISSUES_DIR, "I0001.yaml"), readFileSync(join(a, ISSUES_DIR, "I0001.yaml"), "utf8") + "# by hand\n");
    git(a, "commit", "-qam", "I0001: a note by hand");
    const b = cloneOf(origin, "b");
    await teammatePushes(b, "I0001", "start by b");
    git(a, "remote", "set-url", "origin", origin.bare);
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "conflict", waiting: 0, undone: [] });
    expect(s.message).toContain(`${git(a, "rev-parse", "--short=7", "HEAD")} I0001: a note by hand`);
    expect(originLog(origin.bare, "-1", "--format=%s")).toBe("start by b");
    expect(git(a, "status", "--porcelain")).toBe("");
    expect(git(a, "log", "-1", "--format=%s")).toBe("I0001: a note by hand");
  });
});

describe("a command answered offline (pushed: false)", () => {
  it("is undone at the next sync when the remote changed its record first: record, commit, a plan_undo line; the others are pushed, and the state names it", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    renameSync(origin.bare, `${origin.bare}.away`);
    const ledger = ledgerBytes(a);
    const first = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    const second = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0003", transition: "start" });
    expect(first.ok && second.ok && [(first.value as { pushed?: boolean }).pushed, (second.value as { pushed?: boolean }).pushed]).toEqual([false, false]);
    const startLine = ledger.split("\n").filter(Boolean).length + 1;
    renameSync(`${origin.bare}.away`, origin.bare);
    const b = cloneOf(origin, "b");
    await teammatePushes(b, "I0001", "start by b");
    const theirs = git(origin.bare, "rev-parse", "main");
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "following", waiting: 0, ahead: 0, behind: 0 });
    expect(s.undone).toEqual([{ command: "I0001: start", record: `${ISSUES_DIR}/I0001.yaml`, remote_commit: theirs, author: "Cockpit Tests b <tests@cockpit.invalid>", at: expect.any(String) }]);
    // The clone is the origin: b's start of I0001 (byte for byte its file), then a's I0003 alone.
    expect(git(a, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
    expect(git(a, "status", "--porcelain")).toBe("");
    expect(readFileSync(join(a, ISSUES_DIR, "I0001.yaml"), "utf8")).toBe(git(origin.bare, "show", `main:${ISSUES_DIR}/I0001.yaml`) + "\n");
    expect(originLog(origin.bare, "--format=%an: %s").split("\n").slice(0, 2)).toEqual(["Alice: I0003: start", "Cockpit Tests b: start by b"]);
    // The ledger keeps its lines (their numbers are ledger_ids); one more line undoes the start.
    const lines = ledgerBytes(a).split("\n").filter(Boolean);
    expect(lines.length).toBe(startLine + 2);
    expect(JSON.parse(lines[startLine - 1])).toMatchObject({ event: "plan_start", issue: "I0001" });
    expect(JSON.parse(lines[startLine + 1])).toMatchObject({ event: "plan_undo", record: "I0001", undoes: String(startLine), undone: "plan_start", by: "cockpit/follow" });
    // A later command is decided at once.
    const later = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0002", transition: "start" });
    expect(later.ok && (later.value as { pushed?: boolean }).pushed).toBe(true);
  });

  it("is undone when a later command's push meets the conflict, which is then pushed and answered pushed: true", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    git(a, "remote", "set-url", "origin", `${origin.bare}.gone`);
    const offline = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    expect(offline.ok && (offline.value as { pushed?: boolean }).pushed).toBe(false);
    const b = cloneOf(origin, "b");
    await teammatePushes(b, "I0001", "start by b");
    git(a, "remote", "set-url", "origin", origin.bare);
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0002", transition: "start" });
    expect(r.ok && (r.value as { pushed?: boolean }).pushed).toBe(true);
    expect(originLog(origin.bare, "--format=%s").split("\n").slice(0, 2)).toEqual(["I0002: start", "start by b"]);
    expect((await syncStatus(a)).undone.map((u) => u.command)).toEqual(["I0001: start"]);
    expect(git(a, "status", "--porcelain")).toBe("");
    expect(git(a, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
  });
});

describe("a waiting command the remote seems to have", () => {
  it("is landed only when the remote has that very commit; another's commit carrying its trailer is a change by another, and the command is undone", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    git(a, "remote", "set-url", "origin", `${origin.bare}.gone`);
    const offline = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    expect(offline.ok && (offline.value as { pushed?: boolean }).pushed).toBe(false);
    const message = git(a, "log", "-1", "--format=%B");
    // b copies a's message (its details and its Cockpit-Command trailer) onto its own change of the record.
    const b = cloneOf(origin, "b");
    writeFileSync(join(b, ISSUES_DIR, "I0001.yaml"), readFileSync(join(b, ISSUES_DIR, "I0001.yaml"), "utf8") + "# b's edit\n");
    git(b, "commit", "-qam", message);
    git(b, "push", "-q", "origin", "HEAD:main");
    git(a, "remote", "set-url", "origin", origin.bare);
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "following", waiting: 0 });
    expect(s.undone.map((u) => u.command)).toEqual(["I0001: start"]);
    expect(git(a, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
    expect(statusOf(a, "I0001")).toBe("READY");
    expect(ledgerBytes(a).split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { event: string }).event).slice(-2)).toEqual(["plan_start", "plan_undo"]);
  });
});

describe("the race: two following servers on one origin", () => {
  /** 2 × 20 claims at once on 40 ready issues; the origin's history, claim by claim. */
  async function race(cut?: { clone: number }): Promise<{ started: string[]; answered: string[]; refusals: string[]; pushed: string[]; states: SyncStatus[] }> {
    const origin = makeOrigin(40);
    const clones = [following(cloneOf(origin, "a")), following(cloneOf(origin, "b"))];
    const answered: string[] = [];
    const refusals: string[] = [];
    const pushed: string[] = [];
    const one = async (clone: string, n: number) => {
      // A claim that lost to the other server 3 times is refused (422); its caller asks again.
      for (let i = 0, tries = 0; i < 20 && tries < 80; tries++) {
        // This server's way to the origin is cut (its remote's path is gone), then restored.
        if (cut && n === cut.clone && i === 5 && tries === i) git(clone, "remote", "set-url", "origin", `${origin.bare}.gone`);
        if (cut && n === cut.clone && i === 10) git(clone, "remote", "set-url", "origin", origin.bare);
        const r = await invoke(planClaimCapability, contextFor(clone, `server-${n}`), {});
        if (r.ok) {
          answered.push((r.value as { issue: string }).issue);
          if ((r.value as { pushed?: boolean }).pushed) pushed.push((r.value as { issue: string }).issue);
          i++;
        } else refusals.push(r.error.message);
      }
    };
    await Promise.all(clones.map((c, n) => one(c, n)));
    for (const c of clones) await sync(followerOf(c)!);
    // A claim answered offline that the remote decided against is undone (the state names it): its caller claims again.
    for (const [n, c] of clones.entries()) {
      for (const _ of (await syncStatus(c)).undone) {
        const r = await invoke(planClaimCapability, contextFor(c, `server-${n}`), {});
        if (r.ok && (r.value as { pushed?: boolean }).pushed) pushed.push((r.value as { issue: string }).issue);
      }
    }
    const started = originLog(origin.bare, "--format=%s").split("\n").filter((s) => s.endsWith(": start")).map((s) => s.split(":")[0]);
    const states = await Promise.all(clones.map((c) => syncStatus(c)));
    return { started, answered, refusals, pushed, states };
  }

  it("gives 40 distinct issues, each started once on the origin", async () => {
    const { started, answered, refusals } = await race();
    for (const why of refusals) expect(why).toMatch(/^origin\/main changed \S+ first, in [0-9a-f]{7} by server-[01] <.*this command was undone/);
    expect(answered.length).toBe(40);
    expect(started.length).toBe(40);
    expect(new Set(started).size).toBe(40);
    expect(new Set(answered).size).toBe(answered.length);
    for (const id of answered) expect(started).toContain(id);
  }, 240_000);

  it("does the same with one server's origin gone for a while: its claims wait, then are pushed or undone (and claimed again)", async () => {
    const { started, pushed, states } = await race({ clone: 1 });
    expect(started.length).toBe(40);
    expect(new Set(started).size).toBe(40);
    for (const id of pushed) expect(started).toContain(id);
    for (const s of states) expect(s).toMatchObject({ state: "following", waiting: 0 });
  }, 240_000);
});
