import { existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundleScript, deadPid, libPath, runNode } from "@/tests/support/processes";
import { LOCK, cleanupRepos, tempDir } from "@/tests/support/repo";
import { LOCK_FILE, LockBusyError, lockWaitMs, withPlanLock } from "./lock";

// The plan lock: one writer per repository at a time, across processes (the file) and inside one
// process (the queue). A lock left by a dead process is recovered; a live holder makes a waiter
// give up after COCKPIT_LOCK_WAIT_MS with a message that names it.

afterAll(cleanupRepos);

const savedWait = process.env.COCKPIT_LOCK_WAIT_MS;
beforeEach(() => {
  delete process.env.COCKPIT_LOCK_WAIT_MS;
});
afterEach(() => {
  if (savedWait === undefined) delete process.env.COCKPIT_LOCK_WAIT_MS;
  else process.env.COCKPIT_LOCK_WAIT_MS = savedWait;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function repoDir(): string {
  return tempDir("cockpit-lock-");
}

function writeLock(repo: string, holder: unknown, ageMs = 0): string {
  const path = join(repo, LOCK);
  mkdirSync(join(repo, ".ai/local/state"), { recursive: true });
  writeFileSync(path, typeof holder === "string" ? holder : JSON.stringify(holder));
  if (ageMs > 0) {
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(path, t, t);
  }
  return path;
}

function stateFiles(repo: string): string[] {
  const dir = join(repo, ".ai/local/state");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

async function busy(p: Promise<unknown>): Promise<LockBusyError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(LockBusyError);
    return e as LockBusyError;
  }
  throw new Error("expected the lock to be busy");
}

describe("lockWaitMs", () => {
  it("is a minute by default; COCKPIT_LOCK_WAIT_MS overrides it when it is a positive number", () => {
    expect(lockWaitMs()).toBe(60_000);
    process.env.COCKPIT_LOCK_WAIT_MS = "500";
    expect(lockWaitMs()).toBe(500);
    for (const bad of ["", "0", "-5", "soon", "Infinity"]) {
      process.env.COCKPIT_LOCK_WAIT_MS = bad;
      expect(lockWaitMs(), bad).toBe(60_000);
    }
  });
});

describe("withPlanLock in one process", () => {
  it("holds .ai/local/state/plan.lock (naming this process) while fn runs, and removes it after", async () => {
    const repo = repoDir();
    expect(LOCK_FILE).toBe(LOCK);
    const value = await withPlanLock(repo, "tests/1", () => {
      const holder = JSON.parse(readFileSync(join(repo, LOCK), "utf8"));
      expect(Object.keys(holder)).toEqual(["pid", "host", "since", "by", "nonce"]);
      expect(holder).toMatchObject({ pid: process.pid, host: hostname(), by: "tests/1" });
      expect(new Date(holder.since).toISOString()).toBe(holder.since);
      expect(holder.nonce).toMatch(/^[0-9a-f]{16}$/);
      return 42;
    });
    expect(value).toBe(42);
    expect(stateFiles(repo)).toEqual([]);
  });

  it("releases the lock when fn throws, and rethrows the same error", async () => {
    const repo = repoDir();
    const boom = new Error("boom");
    await expect(
      withPlanLock(repo, "t", async () => {
        await sleep(5);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(stateFiles(repo)).toEqual([]);
    expect(await withPlanLock(repo, "t", () => "again")).toBe("again");
  });

  it("serialises callers of one repository, first come first served", async () => {
    const repo = repoDir();
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withPlanLock(repo, `t${i}`, async () => {
          inside++;
          most = Math.max(most, inside);
          order.push(i);
          await sleep(i % 3);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(stateFiles(repo)).toEqual([]);
  });

  it("a failing caller does not stop the queue", async () => {
    const repo = repoDir();
    const results = await Promise.allSettled([
      withPlanLock(repo, "a", () => "a"),
      withPlanLock(repo, "b", () => {
        throw new Error("b");
      }),
      withPlanLock(repo, "c", () => "c"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("two repositories do not wait for each other", async () => {
    const a = repoDir();
    const b = repoDir();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = withPlanLock(a, "a", () => gate);
    const second = await withPlanLock(b, "b", () => "b ran while a held its lock");
    expect(second).toBe("b ran while a held its lock");
    release();
    await first;
  });
});

describe("a lock someone else holds", () => {
  it("a live holder: the waiter gives up after COCKPIT_LOCK_WAIT_MS, naming the holder; the lock is untouched", async () => {
    const repo = repoDir();
    const holder = { pid: process.pid, host: hostname(), since: "2026-10-20T10:00:00.000Z", by: "agent/7", nonce: "0123456789abcdef" };
    const path = writeLock(repo, holder);
    const before = readFileSync(path);
    process.env.COCKPIT_LOCK_WAIT_MS = "300";
    const t = Date.now();
    let ran = false;
    const e = await busy(withPlanLock(repo, "me", () => (ran = true)));
    const waited = Date.now() - t;
    expect(ran).toBe(false);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(5_000);
    expect(e.message).toBe(
      `the repository is busy: agent/7 (pid ${process.pid} on ${hostname()}) has held the plan lock since 2026-10-20T10:00:00.000Z; waited 0 s`,
    );
    expect(e.holder).toEqual(holder);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("a holder on another host is not judged by its pid while the lock is fresh", async () => {
    const repo = repoDir();
    const path = writeLock(repo, { pid: deadPid(), host: `not-${hostname()}`, since: "x", by: "far/1", nonce: "n" });
    process.env.COCKPIT_LOCK_WAIT_MS = "200";
    const e = await busy(withPlanLock(repo, "me", () => undefined));
    expect(e.message).toMatch(/^the repository is busy: far\/1 \(pid \d+ on not-/);
    expect(existsSync(path)).toBe(true);
  });

  it("a lock file without a readable holder (a writer caught between create and write) is busy while fresh", async () => {
    const repo = repoDir();
    writeLock(repo, "");
    process.env.COCKPIT_LOCK_WAIT_MS = "200";
    const e = await busy(withPlanLock(repo, "me", () => undefined));
    expect(e.message).toBe("the repository is busy: another writer holds the plan lock; waited 0 s");
  });
});

describe("stale locks are recovered", () => {
  it("a lock left by a dead process on this host is taken over at once", async () => {
    const repo = repoDir();
    writeLock(repo, { pid: deadPid(), host: hostname(), since: new Date().toISOString(), by: "ghost/1", nonce: "dead" });
    process.env.COCKPIT_LOCK_WAIT_MS = "2000";
    const t = Date.now();
    expect(await withPlanLock(repo, "me", () => JSON.parse(readFileSync(join(repo, LOCK), "utf8")).by)).toBe("me");
    expect(Date.now() - t).toBeLessThan(1_500);
    expect(stateFiles(repo)).toEqual([]); // no breaker, no set-aside lock left behind
  });

  it("a lock older than ten minutes is taken over even when its pid looks alive or is on another host", async () => {
    for (const holder of [
      { pid: process.pid, host: hostname(), since: "old", by: "hung/1", nonce: "a" },
      { pid: 1, host: `not-${hostname()}`, since: "old", by: "far/1", nonce: "b" },
    ]) {
      const repo = repoDir();
      writeLock(repo, holder, 11 * 60_000);
      process.env.COCKPIT_LOCK_WAIT_MS = "2000";
      expect(await withPlanLock(repo, "me", () => "ok")).toBe("ok");
      expect(stateFiles(repo)).toEqual([]);
    }
  });

  it("an unreadable (empty or garbage) lock file older than five seconds is taken over", async () => {
    for (const content of ["", "{half", "null"]) {
      const repo = repoDir();
      writeLock(repo, content, 6_000);
      process.env.COCKPIT_LOCK_WAIT_MS = "2000";
      expect(await withPlanLock(repo, "me", () => "ok"), JSON.stringify(content)).toBe("ok");
    }
  });

  it("a breaker file left by a dead process does not stop the recovery", async () => {
    const repo = repoDir();
    writeLock(repo, { pid: deadPid(), host: hostname(), since: "x", by: "ghost/1", nonce: "dead" });
    writeFileSync(join(repo, `${LOCK}.breaker`), JSON.stringify({ pid: deadPid(), host: hostname(), since: "x", by: "breaker", nonce: "b" }));
    process.env.COCKPIT_LOCK_WAIT_MS = "2000";
    expect(await withPlanLock(repo, "me", () => "ok")).toBe("ok");
    expect(stateFiles(repo)).toEqual([]);
  });

  // BUG (see the report): tryCreate creates the lock file empty and writes its holder afterwards,
  // and an unreadable lock older than 5 s is judged left by a crash. A live writer that stalls
  // between the two (I/O pressure, a paused process) has its lock broken and a second writer
  // enters beside it. Here the stall is made deterministic with SIGSTOP: catch a looping writer
  // inside that window, freeze it for 5.5 s, take the lock, let the writer go on.
  it(
    "a writer paused between creating the lock file and writing its holder keeps the lock (no two writers inside at once)",
    async () => {
      const repo = repoDir();
      mkdirSync(join(repo, ".ai/local/state"), { recursive: true });
      const lock = join(repo, LOCK);
      const script = bundleScript(
        "lock-looper",
        `import { readFileSync, writeSync } from "node:fs";
         import { withPlanLock } from ${libPath("repo/lock")};
         const [repo, lock] = process.argv.slice(2);
         (async () => {
           for (;;) {
             await withPlanLock(repo, "looper/1", () => {
               let by = "";
               try { by = JSON.parse(readFileSync(lock, "utf8")).by; } catch { by = "?"; }
               if (by !== "looper/1") writeSync(1, "OVERLAP with " + by + "\\n");
             });
           }
         })();`,
      );
      const { spawn } = await import("node:child_process");
      const child = spawn(process.execPath, [script, repo, lock], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      const closed = new Promise<void>((r) => child.on("close", () => r()));
      const read = () => {
        try {
          return readFileSync(lock, "utf8");
        } catch {
          return undefined;
        }
      };
      try {
        await sleep(300); // let it start looping
        let frozen = false;
        const deadline = Date.now() + 5_000;
        while (!frozen && Date.now() < deadline) {
          const until = Date.now() + 50;
          while (Date.now() < until && read() !== "") {
            /* poll for the window */
          }
          if (read() !== "" && Date.now() >= until) {
            await sleep(1);
            continue;
          }
          process.kill(child.pid!, "SIGSTOP");
          await sleep(30);
          if (read() === "") frozen = true;
          else {
            process.kill(child.pid!, "SIGCONT");
            await sleep(5);
          }
        }
        // with a lock that is never visible without its holder there is no window to catch
        if (!frozen) return;
        await sleep(5_500); // the paused writer's empty lock is now "older than five seconds"
        process.env.COCKPIT_LOCK_WAIT_MS = "20000";
        await withPlanLock(repo, "second/1", async () => {
          process.kill(child.pid!, "SIGCONT");
          await sleep(1_500); // the looper finishes its tryCreate and enters its critical section
        });
        expect(out, "two writers held the plan lock at the same time").toBe("");
      } finally {
        child.kill("SIGKILL");
        await closed;
      }
    },
    30_000,
  );

  // BUG (see the report): while a live process holds the breaker of a stale lock, holdFileLock
  // retries `tryCreate → isStale → breakStale → continue` without sleeping and without checking
  // the wait limit: a synchronous busy loop that blocks the event loop and ignores
  // COCKPIT_LOCK_WAIT_MS. Run in a child process so that the hang cannot hang the test runner.
  it("a stale lock whose breaker is held by a live process: the waiter still gives up after COCKPIT_LOCK_WAIT_MS", async () => {
    const repo = repoDir();
    writeLock(repo, { pid: deadPid(), host: hostname(), since: "x", by: "ghost/1", nonce: "dead" });
    writeFileSync(join(repo, `${LOCK}.breaker`), JSON.stringify({ pid: process.pid, host: hostname(), since: "x", by: "breaker", nonce: "live" }));
    const script = bundleScript(
      "wait-on-breaker",
      `import { withPlanLock } from ${libPath("repo/lock")};
       const timer = setInterval(() => process.stdout.write("tick\\n"), 50);
       withPlanLock(process.argv[2], "waiter/1", () => "acquired").then(
         (v) => { clearInterval(timer); console.log("resolved " + v); },
         (e) => { clearInterval(timer); console.log("rejected " + e.message); },
       );`,
    );
    const r = await runNode(script, [repo], { env: { COCKPIT_LOCK_WAIT_MS: "300" }, timeoutMs: 4_000 });
    expect(r.timedOut, "the waiter spun past its wait limit and had to be killed").toBe(false);
    expect(r.stdout).toMatch(/rejected the repository is busy|resolved acquired/);
    expect(r.stdout).toContain("tick"); // the event loop was never blocked
  });
});
