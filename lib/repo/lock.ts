import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, renameSync, unlinkSync, watch, type FSWatcher } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { lockWaitMs } from "../config";
import { refused } from "../plan/errors";
import { processWide } from "../process-wide";
import { NO_FOLLOW, makeStateFolders, stateLinkProblem } from "./state-path";
import { writeAll } from "./write";

/** The one lock a repository's plan writers share. */
export const LOCK_FILE = ".ai/local/state/plan.lock";
/** The state paths the lock writes at known names (its temporary files have random ones). */
export const LOCK_STATE = [LOCK_FILE, `${LOCK_FILE}.breaker`] as const;

const { O_CREAT, O_EXCL, O_RDONLY, O_WRONLY } = constants;

/** How long a writer waits for the lock before it gives up (lib/config.ts: a minute unless configured). */
export { lockWaitMs };

/** A lock older than this is taken over even if its pid looks alive (pids are reused). */
const STALE_AFTER_MS = 10 * 60_000;

interface Holder {
  pid: number;
  host: string;
  since: string;
  by: string;
  nonce: string;
}

export class LockBusyError extends Error {
  constructor(readonly holder: Holder | undefined, waitedMs: number) {
    super(
      holder
        ? `the repository is busy: ${holder.by} (pid ${holder.pid} on ${holder.host}) has held the plan lock since ${holder.since}; waited ${Math.round(waitedMs / 1000)} s`
        : `the repository is busy: another writer holds the plan lock; waited ${Math.round(waitedMs / 1000)} s`,
    );
    this.name = "LockBusyError";
  }
}

/** The holder a lock file names; undefined when it is absent, torn, or not a regular file (never followed). */
function readHolder(path: string): Holder | undefined {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | NO_FOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const bytes = Buffer.alloc(4096);
    const n = readSync(fd, bytes, 0, bytes.length, 0);
    return JSON.parse(bytes.toString("utf8", 0, n)) as Holder;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether an entry is at `path`, a link included (not followed). */
function entryAt(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** Whether process `pid` runs on this machine (one we may not signal runs too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isStale(path: string, holder: Holder | undefined): boolean {
  let age: number;
  try {
    age = Date.now() - lstatSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (!holder) return age > 5_000; // a lock file left half-written by a crash
  if (age > STALE_AFTER_MS) return true;
  return holder.host === hostname() && !isAlive(holder.pid);
}

/**
 * Create the lock file with its holder already in it: the holder is written to a private file
 * first and hard-linked into place, so no other writer ever sees a lock file without its holder.
 * Not fsynced: a lock does not outlive a crash of its machine (one left empty is judged stale).
 */
function tryCreate(path: string, holder: Holder): boolean {
  const tmp = `${path}.${holder.nonce}.${process.pid}.tmp`;
  const fd = openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | NO_FOLLOW, 0o644);
  try {
    writeAll(fd, Buffer.from(JSON.stringify(holder)));
  } catch (error) {
    // A full disk: the temporary file goes with the failure.
    closeSync(fd);
    unlinkSync(tmp);
    throw error;
  }
  closeSync(fd);
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Remove a stale lock without ever removing a live one: the breaker is itself an exclusive file,
 * and the lock is removed only if it still carries the nonce that was judged stale.
 */
function breakStale(path: string, stale: Holder | undefined): boolean {
  const breaker = `${path}.breaker`;
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), by: "breaker", nonce: randomBytes(8).toString("hex") };
  if (!tryCreate(breaker, me)) {
    if (isStale(breaker, readHolder(breaker))) {
      try {
        unlinkSync(breaker);
      } catch {
        /* another waiter removed it */
      }
      return true;
    }
    return false;
  }
  try {
    const now = readHolder(path);
    if ((now?.nonce ?? "") === (stale?.nonce ?? "")) {
      const aside = `${path}.stale.${me.nonce}`;
      renameSync(path, aside);
      unlinkSync(aside);
    }
  } catch {
    /* the lock went away on its own */
  } finally {
    unlinkSync(breaker);
  }
  return true;
}

/**
 * Wakes a waiter as soon as the lock file comes or goes (its holder removed it), so the lock does
 * not sit free while its waiters sleep; the pause is only a fallback where nothing is reported.
 * Other files of the folder (the ledger, the waiters' own temporary files) wake no one.
 */
class LockWake {
  private watcher?: FSWatcher;
  private wake?: () => void;
  private changed = false;

  constructor(path: string) {
    const name = basename(path);
    try {
      this.watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
        if (file !== null && file !== name) return;
        this.changed = true;
        this.wake?.();
      });
      this.watcher.on("error", () => this.close());
    } catch {
      this.watcher = undefined;
    }
  }

  /** Resolves after `ms`, or earlier once the folder changed (at once if it changed since the last pause). */
  pause(ms: number): Promise<void> {
    if (this.changed) {
      this.changed = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.changed = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

// Writers inside one process queue here first, so the file lock is contended only across processes.
const queues = processWide("plan-lock-queues", () => new Map<string, Promise<unknown>>());

/**
 * Run `fn` holding the repository's plan lock: derive, guard, write and ledger append happen
 * inside it. A stale lock left by a dead process is recovered; a wait past `lockWaitMs()` throws
 * `LockBusyError` naming the holder.
 */
export async function withPlanLock<T>(repo: string, by: string, fn: () => T | Promise<T>): Promise<T> {
  const key = join(repo, LOCK_FILE);
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  try {
    await previous.catch(() => undefined);
    return await holdFileLock(repo, key, by, fn);
  } finally {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

async function holdFileLock<T>(repo: string, path: string, by: string, fn: () => T | Promise<T>): Promise<T> {
  // Never through a link: a lock file or folder that is one is refused, not waited on nor broken.
  for (const rel of LOCK_STATE) {
    const problem = stateLinkProblem(repo, rel);
    if (problem) throw refused(problem);
  }
  makeStateFolders(repo, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), by, nonce: randomBytes(8).toString("hex") };
  const started = Date.now();
  const limit = lockWaitMs();
  let pause = 2;
  let wake: LockWake | undefined;
  try {
    // A held lock is seen by a look at its file: a waiter writes its holder file only to try a free one.
    while (entryAt(path) || !tryCreate(path, { ...me, since: new Date().toISOString() })) {
      const holder = readHolder(path);
      if (isStale(path, holder) && breakStale(path, holder)) continue;
      const waited = Date.now() - started;
      if (waited >= limit) throw new LockBusyError(holder, waited);
      wake ??= new LockWake(path);
      await wake.pause(Math.min(pause + Math.random() * pause, limit - waited));
      pause = Math.min(pause * 2, 50);
    }
  } finally {
    wake?.close();
  }
  try {
    return await fn();
  } finally {
    const holder = readHolder(path);
    if (holder?.nonce === me.nonce) unlinkSync(path);
  }
}
