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

function following(clone: string): string {
  follow(clone, { intervalMs: 2000 });
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

  it("a leftover .git/index.lock is refused naming it and how to check that no git process runs, not with git's raw message", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    writeFileSync(join(a, ".git", "index.lock"), ""); // what a killed commit leaves
    const r = await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
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
      for (const [k, v] of Object.entries(env)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    }
  });

  it("undoes a move whose record the remote changed first, byte for byte, and refuses it naming the remote commit and author", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
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

  it("pauses on a conflict between a waiting commit and the remote, and shows it", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    renameSync(origin.bare, `${origin.bare}.away`);
    await invoke(planTransitionCapability, contextFor(a, "Alice"), { issue: "I0001", transition: "start" });
    renameSync(`${origin.bare}.away`, origin.bare);
    const b = cloneOf(origin, "b");
    await teammatePushes(b, "I0001", "start by b");
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "conflict", waiting: 1 });
    expect(s.message).toContain("I0001.yaml");
    expect(git(a, "status", "--porcelain")).toBe("");
    expect(git(a, "log", "-1", "--format=%s")).toBe("I0001: start");
  });
});

describe("a waiting commit the remote seems to have", () => {
  it("is pushed already only when the remote has that very command (its trailer), rebased; the same change made by another is a conflict", async () => {
    const origin = makeOrigin(3);
    const a = following(cloneOf(origin, "a"));
    const b = cloneOf(origin, "b");
    // The same bytes, the same author and date, in both clones: only the command trailer differs.
    const edit = (clone: string, trailer: string) => {
      writeFileSync(join(clone, ISSUES_DIR, "I0001.yaml"), readFileSync(join(clone, ISSUES_DIR, "I0001.yaml"), "utf8") + "# the same edit\n");
      git(clone, "-c", "user.name=Same", "-c", "user.email=same@team.example", "commit", "-qam", `I0001: start\n\nCockpit-Command: ${trailer}`, "--date=2026-12-01T10:00:00Z");
    };
    // a's way to the origin is cut until b's commit is there, so its loop cannot push first.
    git(a, "remote", "set-url", "origin", `${origin.bare}.gone`);
    edit(a, "aaaaaaaaaaaaaaaa");
    edit(b, "bbbbbbbbbbbbbbbb");
    git(b, "push", "-q", "origin", "HEAD:main");
    git(a, "remote", "set-url", "origin", origin.bare);
    const s = await sync(followerOf(a)!);
    expect(s).toMatchObject({ state: "conflict", waiting: 1 });
    expect(git(a, "log", "-1", "--format=%(trailers:key=Cockpit-Command,valueonly)")).toBe("aaaaaaaaaaaaaaaa");
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

  it("does the same with one server's origin gone for a while (its claims wait, then are pushed, or wait paused on a conflict it shows)", async () => {
    const { started, pushed, states } = await race({ clone: 1 });
    // No issue is started twice on the origin, and every claim answered as pushed is there.
    expect(new Set(started).size).toBe(started.length);
    for (const id of pushed) expect(started).toContain(id);
    // What the cut server claimed meanwhile is pushed since, or waits, paused, on a conflict it shows.
    expect(started.length + states[1].waiting).toBe(40);
    if (states[1].waiting > 0) expect(states[1].state).toBe("conflict");
  }, 240_000);
});
