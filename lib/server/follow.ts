import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { resolveConfig, usersFile } from "../config";
import { CapabilityError } from "../plan/errors";
import { processWide } from "../process-wide";
import type { SyncStatus } from "../repo/sync-shapes";
import {
  aheadBehind,
  fetchTarget,
  followTarget,
  moveHead,
  pushWaiting,
  remoteTip,
  revParse,
  tidy,
  undoCommit,
  undoLedgerRange,
  type FollowTarget,
  type PushOutcome,
} from "../repo/publish";
import { ledgerSize, makeCommit, placeCommit, publishMessage, truncateLedger, handEdited } from "../repo/command-commit";
import { gitWhere } from "../repo/git";
import { updateOwn, waitingOwn } from "../repo/own-commits";
import { journalWrites, writeFileAtomic, type WriteJournal } from "../repo/write";
import { PROJECT_DIR } from "../plan/constants";
import { readLedger } from "../repo/ledger";
import { loadPlan } from "../repo";
import { releaseUndoneStarts } from "../coordination/plan-leases";
import type { CockpitConfig } from "../config";
import { currentUsers } from "./security";
import { noteWrite } from "./state";

// `cockpit serve --follow`: the served clone follows its remote. Every interval (and when asked,
// POST /api/v1/sync) it fetches, fast-forwards when the records have no uncommitted change, and
// pushes its own waiting commits; it never resolves a conflict and never touches a hand edit. Each
// command through the server is committed and pushed before it is answered (lib/repo/publish.ts).
// All git work is git-run's child processes: the event loop only waits.

export type SyncStateName = "following" | "held" | "conflict" | "offline" | "off";

export type { SyncStatus };

/** Seconds between syncs by default, and the least allowed. */
export const FOLLOW_INTERVAL_DEFAULT_S = 60;
export const FOLLOW_INTERVAL_MIN_S = 2;

interface Follower {
  repo: string;
  spec: string;
  intervalMs: number;
  target?: FollowTarget;
  status: SyncStatus;
  timer?: NodeJS.Timeout;
  /** The sync running now, or the one already asked for: calls in between share it. */
  pending?: Promise<SyncStatus>;
  /** The one sync asked for while another runs. */
  queued?: Promise<SyncStatus>;
  /** When the last sync started (ms): the loop's next one is an interval after it. */
  startedAt: number;
  /** When the last sync a call asked for (POST /api/v1/sync) started. */
  calledAt?: number;
  /** The one sync the calls of this interval are merged into, due at its end. */
  called?: { promise: Promise<SyncStatus>; timer: NodeJS.Timeout; lastAt: number };
  /** Fetches made by syncs since following began. */
  fetches: number;
  /** `git maintenance run --auto` under way. */
  tidying?: Promise<void>;
}

const followers = processWide("followers", () => new Map<string, Follower>());
const chains = processWide("follow-chains", () => new Map<string, Promise<unknown>>());

/** One git-writing job at a time per repository in this process: commands and syncs queue. */
export function serial<T>(repo: string, job: () => Promise<T>): Promise<T> {
  const before = chains.get(repo) ?? Promise.resolve();
  const run = before.then(job, job);
  chains.set(
    repo,
    run.catch(() => undefined),
  );
  return run;
}

/** What the environment asks of this process: the repository followed and how (COCKPIT_FOLLOW, set by cockpit serve --follow). */
function settingsFromEnv(env = process.env): { repo: string; spec: string; intervalMs: number } | undefined {
  const follow = env.COCKPIT_FOLLOW;
  if (!follow || !env.COCKPIT_REPO) return undefined;
  const seconds = Math.max(FOLLOW_INTERVAL_MIN_S, Number(env.COCKPIT_FOLLOW_INTERVAL) || FOLLOW_INTERVAL_DEFAULT_S);
  return { repo: resolve(env.COCKPIT_REPO), spec: follow === "1" ? "" : follow, intervalMs: seconds * 1000 };
}

const offStatus = (): SyncStatus => ({
  following: false,
  remote: "",
  branch: "",
  state: "off",
  last_fetch_at: null,
  last_fetch_ok: null,
  behind: 0,
  ahead: 0,
  waiting: 0,
  message: "this server does not follow a remote (cockpit serve --follow)",
  undone: [],
  removed_by_remote: null,
});

/** The follower of `repo` when this process follows it (cockpit serve --follow), started on first ask. */
export function followerOf(repo: string): Follower | undefined {
  const key = resolve(repo);
  const known = followers.get(key);
  if (known) return known;
  const settings = settingsFromEnv();
  return settings && settings.repo === key ? follow(key, settings) : undefined;
}

/** Follow `repo`'s remote from now on in this process: a sync at once, then one every interval. */
export function follow(repo: string, settings: { spec?: string; intervalMs?: number } = {}): Follower {
  const key = resolve(repo);
  const intervalMs = Math.max(FOLLOW_INTERVAL_MIN_S * 1000, settings.intervalMs ?? FOLLOW_INTERVAL_DEFAULT_S * 1000);
  const f: Follower = { repo: key, spec: settings.spec ?? "", intervalMs, startedAt: 0, fetches: 0, status: { ...offStatus(), following: true, state: "following", message: "not fetched yet" } };
  followers.set(key, f);
  void sync(f);
  loop(f);
  return f;
}

/** The loop: a sync an interval after the last one started (a call's sync puts the next one off). */
function loop(f: Follower): void {
  f.timer = setTimeout(() => {
    if (followers.get(f.repo) !== f) return;
    if (Date.now() - f.startedAt >= f.intervalMs) void sync(f);
    loop(f);
  }, Math.max(50, f.startedAt + f.intervalMs - Date.now()));
  f.timer.unref();
}

/** Stop following `repo` (the tests' servers in one process); waits for the sync under way. */
export async function unfollow(repo: string): Promise<void> {
  const f = followers.get(resolve(repo));
  if (!f) return;
  clearTimeout(f.timer);
  if (f.called) clearTimeout(f.called.timer);
  followers.delete(f.repo);
  await f.queued;
  await f.pending;
  await f.tidying;
}

/** Start following when this process is asked to (the server's start calls it). */
export function startFollowing(): void {
  const settings = settingsFromEnv();
  if (settings) followerOf(settings.repo);
}

async function targetOf(f: Follower): Promise<FollowTarget> {
  f.target ??= await followTarget(f.repo, f.spec || undefined);
  f.status.remote = f.target.remote;
  f.status.branch = f.target.branch;
  return f.target;
}

/** What waits is this server's own commits the remote lacks; behind, what the remote has beyond HEAD. */
async function counts(f: Follower, t: FollowTarget): Promise<void> {
  const { behind } = await aheadBehind(f.repo, t);
  f.status.behind = behind;
  f.status.waiting = f.status.ahead = (await waitingOwn(f.repo)).length;
}

function outcomeState(f: Follower, outcome: PushOutcome): void {
  f.status.waiting = outcome.waiting;
  if (outcome.removed) f.status.removed_by_remote = outcome.removed;
  if (outcome.status === "conflict" || outcome.status === "held" || outcome.status === "offline") {
    f.status.state = outcome.status;
    f.status.message = outcome.status === "conflict" ? `following is paused: ${outcome.message}` : outcome.message;
  }
}

/** How many undone commands the state keeps (the newest). */
const UNDONE_KEPT = 5;

/**
 * The waiting commands the push found the remote had decided against are out of HEAD already:
 * their ledger lines get plan_undo lines, their leases end, and the state names them.
 */
async function settleUndone(f: Follower, outcome: PushOutcome, config?: CockpitConfig): Promise<void> {
  if (!outcome.undone?.length) return;
  const at = new Date().toISOString();
  const starts: string[] = [];
  for (const u of outcome.undone) {
    for (const line of await undoLedgerRange(f.repo, u.ledger)) if (line.event === "plan_start") starts.push(line.record);
  }
  const told = outcome.undone.map((u) => ({ command: u.command, record: u.record, remote_commit: u.remote_commit, author: u.remote_author, at }));
  f.status.undone = [...told.reverse(), ...f.status.undone].slice(0, UNDONE_KEPT);
  noteWrite(f.repo);
  await releaseUndoneStarts(f.repo, () => loadPlan(f.repo), starts, config);
}

/** One sync: fetch, then move onto the remote's tip with this server's waiting commits pushed (pushWaiting). */
async function syncOnce(f: Follower): Promise<SyncStatus> {
  const t = await targetOf(f);
  f.fetches++;
  const before = await remoteTip(f.repo, t);
  const fetched = await fetchTarget(f.repo, t);
  f.status.last_fetch_at = new Date().toISOString();
  f.status.last_fetch_ok = fetched.ok;
  if (!fetched.ok) {
    f.status.state = "offline";
    f.status.message = fetched.message;
    f.status.waiting = (await waitingOwn(f.repo)).length;
    return f.status;
  }
  const head = await revParse(f.repo, "HEAD");
  const outcome = await pushWaiting(f.repo, t, undefined, undefined, { before });
  await settleUndone(f, outcome);
  outcomeState(f, outcome);
  if ((await revParse(f.repo, "HEAD")) !== head) noteWrite(f.repo);
  await counts(f, t);
  if (outcome.status !== "pushed") return f.status;
  f.status.state = "following";
  f.status.message = `synced with ${t.remote}/${t.branch}`;
  return f.status;
}

/** git's housekeeping after a sync, outside the queue of commands (git's own locks keep it apart); one at a time. */
function tidyAfter(f: Follower): void {
  if (f.tidying || followers.get(f.repo) !== f) return;
  f.tidying = tidy(f.repo)
    .catch(() => undefined)
    .finally(() => (f.tidying = undefined));
}

/**
 * Sync now, or join one: while a sync runs, every call in the meantime shares one more sync that
 * starts when it ends (so a push announced mid-fetch is not missed), and no call makes a third.
 */
export function sync(f: Follower): Promise<SyncStatus> {
  if (f.queued) return f.queued;
  const start = (): Promise<SyncStatus> => {
    f.startedAt = Date.now();
    const run = serial(f.repo, () => syncOnce(f)).catch((error: unknown) => {
      f.status.state = "offline";
      f.status.message = error instanceof Error ? error.message : String(error);
      return f.status;
    });
    void run.then(() => tidyAfter(f));
    return run;
  };
  if (!f.pending) {
    f.pending = start().finally(() => (f.pending = undefined));
    return f.pending;
  }
  f.queued = f.pending.then(() => {
    f.queued = undefined;
    f.pending = start().finally(() => (f.pending = undefined));
    return f.pending;
  });
  return f.queued;
}

/**
 * A sync a call asks for, merged with the others of one interval: the first call after a quiet
 * interval syncs at once (or right after the sync under way); the calls within an interval of it
 * share one more sync at that interval's end. A webhook storm makes one fetch an interval.
 */
export function callSync(f: Follower): Promise<SyncStatus> {
  const now = Date.now();
  if (f.called) {
    f.called.lastAt = now;
    return f.called.promise;
  }
  const wait = (f.calledAt ?? -Infinity) + f.intervalMs - now;
  if (wait <= 0) {
    f.calledAt = now;
    return sync(f);
  }
  const called = { lastAt: now } as NonNullable<Follower["called"]>;
  called.promise = new Promise<SyncStatus>((done) => {
    called.timer = setTimeout(() => {
      f.called = undefined;
      f.calledAt = Date.now();
      // The loop's sync may have started since the last of these calls: that one serves them.
      done(f.startedAt >= called.lastAt ? (f.pending ?? Promise.resolve({ ...f.status })) : sync(f));
    }, wait);
  });
  called.timer.unref();
  f.called = called;
  return called.promise;
}

/** Ask for a sync (POST /api/v1/sync): started or merged (callSync), not awaited; the state as it is now. */
export function requestSync(repo: string): SyncStatus {
  const f = followerOf(repo);
  if (!f) return offStatus();
  void callSync(f);
  return { ...f.status };
}

/** The state of following (plan.sync_status); outside a following server, what git says of the clone without fetching. */
export async function syncStatus(repo: string): Promise<SyncStatus> {
  const f = followerOf(repo);
  if (f) return { ...f.status };
  const out = offStatus();
  try {
    const t = await followTarget(repo);
    out.remote = t.remote;
    out.branch = t.branch;
    const { ahead, behind } = await aheadBehind(repo, t);
    Object.assign(out, { ahead, behind });
  } catch {
    /* not a clone with a remote: off, with nothing to count */
  }
  return out;
}

const AUTHOR = /^\s*([^<>]+?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/;

/** The commit's author: the signed-in person (name, and email when known), else --author, else git's config. */
export function authorEnv(by: string | undefined, email: string | undefined, env?: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const configured = AUTHOR.exec(resolveConfig({}, env).author ?? "");
  const out: Record<string, string> = {};
  if (configured) Object.assign(out, { GIT_AUTHOR_NAME: configured[1], GIT_AUTHOR_EMAIL: configured[2], GIT_COMMITTER_NAME: configured[1], GIT_COMMITTER_EMAIL: configured[2] });
  if (by && !by.startsWith("cockpit/")) out.GIT_AUTHOR_NAME = by;
  if (by && email) out.GIT_AUTHOR_EMAIL = email;
  return out;
}

/** The signed-in person's address, from the users file this server reads (cockpit users add NAME --email ADDR). */
export function emailOf(by: string | undefined, file = usersFile()): string | undefined {
  if (!by || !file) return undefined;
  return currentUsers(file).users.find((u) => u.name === by)?.email;
}

function withPushed<T>(value: T, pushed: boolean, message: string): T {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return { ...value, pushed, ...(pushed ? {} : { sync_message: message }) };
}

/** Whether a file's bytes differ from `before` (null: no file). */
function changedSince(path: string, before: Buffer | null): boolean {
  const now = bytesOf(path);
  return now === null || before === null ? now !== before : !now.equals(before);
}

function bytesOf(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** The issues the ledger lines from byte `from` start: their leases end when those lines are undone. */
const startsSince = (repo: string, from: number) =>
  readLedger(repo, from)
    .entries.filter((e) => e.event === "plan_start" && typeof e.issue === "string")
    .map((e) => e.issue as string);

/** A command's commit, made: what it answered, and what takes it back (none when it wrote no record). */
interface MadeCommand<T> {
  value: T;
  commit?: string;
  parent?: string;
  trailer: string;
  files: string[];
  ledgerBefore: number;
}

/**
 * Run the command and commit what it wrote (only its record files) on HEAD. A command that writes
 * a record someone edited by hand (uncommitted) is taken back and refused: following never
 * commits, nor takes back, a hand edit; a commit git refuses takes the command back too.
 */
async function commitCommand<T>(f: Follower, command: { by?: string; email?: string; config?: CockpitConfig }, run: () => Promise<T>): Promise<MadeCommand<T>> {
  const email = command.email ?? emailOf(command.by);
  const ledgerBefore = ledgerSize(f.repo);
  const where = await gitWhere(f.repo);
  const parent = where.head === "NONE" ? undefined : where.head;
  const journal: WriteJournal = new Map();
  const value = await journalWrites(journal, run);
  // The command's own record files, as it wrote them (each one's bytes before, to tell a hand edit).
  const written = [...journal]
    .map(([abs, before]) => ({ path: relative(f.repo, abs).split(sep).join("/"), before }))
    .filter((w) => w.path.startsWith(`${PROJECT_DIR}/`) && changedSince(join(f.repo, w.path), w.before))
    .sort((a, b) => a.path.localeCompare(b.path));
  const files = written.map((w) => w.path);
  const trailer = randomBytes(8).toString("hex");
  if (written.length === 0) return { value, trailer, files, ledgerBefore };
  // The command taken back whole: every file it wrote as it was, its ledger lines and leases gone.
  const takeBack = async () => {
    for (const w of written) {
      if (w.before === null) rmSync(join(f.repo, w.path), { force: true });
      else writeFileAtomic(join(f.repo, w.path), w.before);
    }
    const starts = startsSince(f.repo, ledgerBefore);
    truncateLedger(f.repo, ledgerBefore);
    noteWrite(f.repo);
    await releaseUndoneStarts(f.repo, () => loadPlan(f.repo), starts, command.config);
  };
  const orTakeBack = <V>(step: Promise<V>) =>
    step.catch(async (error: unknown) => {
      await takeBack();
      throw error;
    });
  // The commit is made (not placed) while git says whether the files were the command's alone.
  const message = publishMessage(f.repo, ledgerBefore, files, trailer);
  const made = makeCommit(f.repo, parent, files, message, authorEnv(command.by, email));
  made.catch(() => undefined);
  const names = await orTakeBack(handEdited(f.repo, written));
  if (names.length) {
    // Its change would be mixed with the hand edit in one file: neither can be committed alone.
    await made.catch(() => undefined);
    await takeBack();
    throw new CapabilityError(
      "refused",
      `${names.join(", ")} ${names.length === 1 ? "has" : "have"} uncommitted changes made by hand, and this command writes ${names.length === 1 ? "it" : "them"}; a following server commits only what a command writes and never a hand edit, so nothing was written. Commit or discard the hand edit, then try again`,
      { records: names },
    );
  }
  const subject = message.split("\n")[0];
  const commit = await orTakeBack(placeCommit(f.repo, parent, made, files, subject));
  const ledger = { from: ledgerBefore, to: ledgerSize(f.repo) };
  await updateOwn(f.repo, (s) => void s.commits.push({ commit, command: trailer, subject, files, ledger }));
  return { value, commit, parent, trailer, files, ledgerBefore };
}

/** The answer of a command whose push was decided: pushed, or waiting (offline) with why. */
async function answerPushed<T>(f: Follower, t: FollowTarget, value: T, outcome: PushOutcome, config?: CockpitConfig): Promise<T> {
  await settleUndone(f, outcome, config);
  if (outcome.status !== "pushed") return withPushed(value, false, outcome.status === "offline" ? `${outcome.message}; written here, it will be pushed at the next sync` : outcome.message);
  if (outcome.level) Object.assign(f.status, { ahead: 0, behind: 0 });
  else await counts(f, t).catch(() => undefined);
  if (f.status.state !== "conflict") Object.assign(f.status, { state: "following", message: `synced with ${t.remote}/${t.branch}` });
  return withPushed(value, true, outcome.message);
}

/** The refusal of a command the remote decided against (its record changed first, or 3 rejected pushes). */
function lostRefusal(t: FollowTarget, outcome: PushOutcome): CapabilityError {
  const where = `${t.remote}/${t.branch}`;
  if (outcome.conflict) {
    const c = outcome.conflict;
    return new CapabilityError("refused", `${where} changed ${c.record} first, in ${c.remote_commit.slice(0, 7)} by ${c.remote_author}; this command was undone and nothing was written`, {
      remote_commit: c.remote_commit,
      remote_author: c.remote_author,
      record: c.record,
    });
  }
  const r = outcome.remote;
  return new CapabilityError("refused", `${outcome.message}${r ? `; ${where} is at ${r.commit.slice(0, 7)} by ${r.author}` : ""}; this command was undone and nothing was written`, r ? { remote_commit: r.commit, remote_author: r.author } : undefined);
}

/**
 * Run a command on a following server: what it writes is committed (only those files) and pushed
 * before it is answered. When the remote changed the same record first (or rejects the push 3
 * times), the command is undone (record, ledger, commit) and refused; a capability that declares
 * `publish.retry` runs again on the remote's tip instead, up to that many times in all.
 */
export function publishCommand<T>(repo: string, command: { tries: number; by?: string; email?: string; config?: CockpitConfig }, run: () => Promise<T>): Promise<T> {
  const f = followerOf(repo)!;
  return serial(f.repo, async () => {
    const t = await targetOf(f);
    for (let tries = 1; ; tries++) {
      const made = await commitCommand(f, command, run);
      if (!made.commit) return made.value;
      const outcome = await pushWaiting(f.repo, t, made.trailer, made.parent ? { commit: made.commit, parent: made.parent } : undefined);
      outcomeState(f, outcome);
      const lost = outcome.status === "failed" || outcome.conflict?.own === true;
      const head = lost && made.parent ? await revParse(f.repo, "HEAD") : undefined;
      const before = head ? await revParse(f.repo, `${head}^`) : undefined;
      if (!head || !before) return answerPushed(f, t, made.value, outcome, command.config);
      // The command is HEAD (replayed, when older commands were undone below it): undone first,
      // so its ledger lines are cut before the older commands' plan_undo lines are written.
      const starts = startsSince(f.repo, made.ledgerBefore);
      await undoCommit(f.repo, head, before, made.files);
      await updateOwn(f.repo, (s) => void (s.commits = s.commits.filter((c) => c.command !== made.trailer)));
      truncateLedger(f.repo, made.ledgerBefore);
      await settleUndone(f, outcome, command.config);
      noteWrite(f.repo);
      await releaseUndoneStarts(f.repo, () => loadPlan(f.repo), starts, command.config);
      if (f.status.state === "conflict") Object.assign(f.status, { state: "following", message: `synced with ${t.remote}/${t.branch}` });
      f.status.waiting = (await waitingOwn(f.repo)).length;
      const remote = await revParse(f.repo, `refs/remotes/${t.remote}/${t.branch}`);
      if (outcome.status === "conflict" && tries < command.tries && remote && f.status.waiting === 0 && (await moveHead(f.repo, remote)).ok) {
        noteWrite(f.repo);
        continue; // what it took is taken on the remote now: it runs again there (a claim takes the next ready issue)
      }
      throw lostRefusal(t, outcome);
    }
  });
}
