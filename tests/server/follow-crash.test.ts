// A following server killed (SIGKILL, the whole process group) while its push runs: `cockpit
// serve --follow` started as the product starts it, a move over HTTP, a pre-receive hook on the
// test's own bare origin that holds the push open long enough to kill the server in it. Then the
// next start must leave the clone, the ledger and the origin agreeing, with nothing waiting.

import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { planTransitionCapability } from "@/lib/capabilities/plan-transition";
import { httpPath } from "@/lib/capabilities/projection";
import { LEDGER_FILE } from "@/lib/plan/constants";
import { readStateFile } from "@/lib/repo/state-path";
import { invoke } from "@/lib/surfaces/invoke";
import { contextFor } from "@/lib/server/state";
import { ISSUES_DIR, cloneOf, makeOrigin, type Origin } from "../coordination/clones";
import { ensureCliBuilt } from "../support/processes";
import { cleanupRepos, git } from "../support/repo";
import { startServe, type ServeProcess } from "../support/serve-process";
import { cleanup, ensureBuild } from "../surfaces/helpers";

let dist = "";
beforeAll(async () => {
  ensureCliBuilt();
  dist = await ensureBuild();
}, 600_000);
const running: ServeProcess[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});
afterAll(() => {
  cleanupRepos();
  cleanup(); // the copy of the build
});

/** The origin's pre-receive hook: the first push after `slow` is made waits in it, saying so in `in-push` with its process group. */
function holdNextPush(origin: Origin, seconds: number): void {
  const hook = join(origin.bare, "hooks", "pre-receive");
  writeFileSync(
    hook,
    [
      "#!/bin/sh",
      "cat >/dev/null",
      `if [ -e '${origin.bare}/slow' ]; then`,
      `  rm -f '${origin.bare}/slow'`,
      `  ps -o pgid= $$ | tr -d ' ' > '${origin.bare}/in-push'`,
      `  sleep ${seconds}`,
      "fi",
      "exit 0",
      "",
    ].join("\n"),
  );
  chmodSync(hook, 0o755);
  writeFileSync(join(origin.bare, "slow"), "");
}

async function serve(clone: string): Promise<ServeProcess> {
  // An interval long enough that only the start's own sync and the move's push touch the origin.
  const s = await startServe(clone, ["--follow", "--follow-interval", "600"], { env: { COCKPIT_DIST_DIR: dist } });
  running.push(s);
  return s;
}

const poll = async <T>(what: () => Promise<T> | T, ok: (v: T) => boolean, ms: number): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};

const syncState = async (s: ServeProcess) => (await (await fetch(`${s.url}/api/v1/sync`)).json()) as { state: string; message: string; waiting: number; ahead: number; behind: number; last_fetch_ok: boolean | null };
const ledgerStarts = (clone: string, id: string) =>
  (readStateFile(clone, LEDGER_FILE)?.toString("utf8") ?? "")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string; issue?: string })
    .filter((e) => e.event === "plan_start" && e.issue === id).length;

/**
 * Start a following server, let a teammate push (so the server's push is a rebased copy of its
 * commit), move I0001 over HTTP, and kill the server's process group while the hook holds the push.
 * `alsoThePush`: kill the push's own processes too (a machine going down: the push never lands);
 * otherwise the push, orphaned, finishes after the server died.
 */
async function crashMidPush(alsoThePush: boolean): Promise<{ origin: Origin; clone: string }> {
  const origin = makeOrigin(3);
  const clone = cloneOf(origin, "server");
  const first = await serve(clone);
  await poll(() => syncState(first), (s) => s.message.startsWith("synced with"), 20_000);
  const teammate = cloneOf(origin, "teammate");
  await invoke(planTransitionCapability, contextFor(teammate), { issue: "I0002", transition: "start" });
  git(teammate, "commit", "-qam", "I0002: start by a teammate");
  git(teammate, "push", "-q", "origin", "HEAD:main");
  holdNextPush(origin, alsoThePush ? 30 : 4);
  const move = fetch(`${first.url}${httpPath(planTransitionCapability)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ issue: "I0001", transition: "start" }),
  }).then(
    (r) => r.status,
    () => "no answer",
  );
  const inPush = join(origin.bare, "in-push");
  await poll(() => existsSync(inPush) && readFileSync(inPush, "utf8").trim() !== "", Boolean, 30_000);
  expect(existsSync(inPush)).toBe(true);
  await first.kill();
  if (alsoThePush) process.kill(-Number(readFileSync(inPush, "utf8").trim()), "SIGKILL");
  // A server killed mid-push never answers: the caller is not told it was done.
  expect(await move).toBe("no answer");
  // What the crash left: the move committed here, the ledger line written, not (yet) on the origin.
  expect(git(clone, "log", "-1", "--format=%s")).toBe("I0001: start");
  expect(ledgerStarts(clone, "I0001")).toBe(1);
  return { origin, clone };
}

/** After the next start's sync: the origin has the move once, and the clone, its record and its ledger agree with it. */
async function expectConsistent(origin: Origin, clone: string, s: ServeProcess): Promise<void> {
  // The start's own sync, finished: the message says so only at its end.
  const state = await poll(() => syncState(s), (v) => v.message.startsWith("synced with") || v.state !== "following", 30_000);
  expect(state).toMatchObject({ state: "following", waiting: 0, ahead: 0, behind: 0 });
  const subjects = git(origin.bare, "log", "main", "--format=%s").split("\n");
  expect(subjects.filter((x) => x === "I0001: start")).toHaveLength(1);
  expect(subjects.filter((x) => x === "I0002: start by a teammate")).toHaveLength(1);
  expect(git(clone, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
  expect(git(clone, "status", "--porcelain", "--", ".ai/repo")).toBe("");
  for (const id of ["I0001", "I0002"]) {
    expect(git(clone, "hash-object", "--", `${ISSUES_DIR}/${id}.yaml`)).toBe(git(origin.bare, "rev-parse", `main:${ISSUES_DIR}/${id}.yaml`));
    expect(readFileSync(join(clone, ISSUES_DIR, `${id}.yaml`), "utf8")).toMatch(/^started_at:/m);
  }
  expect(ledgerStarts(clone, "I0001")).toBe(1);
  // The plan the restarted server serves says what the origin says.
  const plan = (await (await fetch(`${s.url}${httpPath({ id: "plan.issues" })}`)).json()) as { issues: { id: string; status: string }[] };
  expect(plan.issues.filter((i) => i.status === "ACTIVE").map((i) => i.id)).toEqual(["I0001", "I0002"]);
}

describe("a following server killed mid-push", () => {
  it("when the push dies with it: the next start pushes what waits, once", async () => {
    const { origin, clone } = await crashMidPush(true);
    expect(git(origin.bare, "log", "main", "--format=%s").split("\n")).not.toContain("I0001: start");
    await expectConsistent(origin, clone, await serve(clone));
  }, 300_000);

  it("when the orphaned push lands after the server died: the next start finds its copy on the origin, and nothing is pushed twice or paused", async () => {
    const { origin, clone } = await crashMidPush(false);
    await poll(() => git(origin.bare, "log", "main", "--format=%s").split("\n"), (s) => s.includes("I0001: start"), 30_000);
    // The origin has the replayed copy: the clone was moved onto it, and the server recorded it, before the push began.
    expect(git(clone, "rev-parse", "HEAD")).toBe(git(origin.bare, "rev-parse", "main"));
    await expectConsistent(origin, clone, await serve(clone));
  }, 300_000);
});
