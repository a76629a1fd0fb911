import { type ChildProcess, spawn } from "node:child_process";
import { refused } from "../plan/errors";
import { processWide } from "../process-wide";

// Every git process the Cockpit starts goes through here, so each one is bounded: in time (killed
// past its limit, and the answer is a refusal naming the limit), in what it may print (killed past
// the cap, so no repository can make the Cockpit hold a gigabyte of git's output), and in what it
// may do on its own: no prompt, no fsmonitor command from the repository's config, no optional
// index writes from a read. A repository is data: its content reaches git as standard input or as
// one argument after `--end-of-options` or `--`, never as a command line of its own.

/** What an ordinary git call may take. */
export const GIT_TIMEOUT_MS = 10_000;
/** What a call that talks to a remote may take (fetch, push). */
export const GIT_REMOTE_TIMEOUT_MS = 60_000;
/** What an ordinary git call may print before it is stopped. */
export const GIT_OUTPUT_LIMIT = 256 * 1024 * 1024;

export interface GitCallOptions {
  /** Standard input (a batch of object names, a commit message). */
  input?: string | Buffer;
  /** Milliseconds before the process is killed (default GIT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Bytes of standard output before the process is killed (default GIT_OUTPUT_LIMIT). */
  maxBytes?: number;
  /** Added to the environment (an author, GIT_INDEX_FILE). */
  env?: Record<string, string>;
}

export interface GitOutput {
  /** Git's exit code; never null (a process killed by a limit is a thrown refusal instead). */
  status: number;
  stdout: Buffer;
  stderr: string;
}

/** Options git reads before the subcommand: nothing a repository's config names is run. */
const SAFE_CONFIG = ["-c", "core.fsmonitor=false", "-c", "core.pager=cat"];

function environment(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    ...extra,
  };
}

/**
 * The git processes running now. Each runs in a process group of its own (so a limit stops its
 * children too), which also means it would outlive this process: a command line that exits while
 * one still reads (a read started early, then not needed) stops it as it goes.
 */
const running = processWide("git-running", () => {
  const set = new Set<ChildProcess>();
  process.once("exit", () => {
    for (const child of set) killGroup(child);
  });
  return set;
});

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** Keeps `child` in `running` until it is gone. */
function tracked(child: ChildProcess): ChildProcess {
  if (child.pid === undefined) return child;
  running.add(child);
  child.once("close", () => running.delete(child));
  child.once("error", () => running.delete(child));
  return child;
}

function limitRefusal(args: readonly string[], what: "time" | "size", limit: number): Error {
  const verb = args.find((a) => !a.startsWith("-")) ?? "git";
  return what === "time"
    ? refused(`git ${verb} took longer than ${Math.round(limit / 100) / 10} s and was stopped; the repository's history may be too large to answer this, or git is busy (another git process, a lock)`)
    : refused(`git ${verb} printed more than ${Math.round(limit / (1024 * 1024))} MiB and was stopped; ask for less (a narrower revision range or record)`);
}

/** Run git in `repo` without holding the event loop; a refusal when a limit stops it. */
export function git(repo: string, args: readonly string[], options: GitCallOptions = {}): Promise<GitOutput> {
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? GIT_OUTPUT_LIMIT;
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn("git", [...SAFE_CONFIG, ...args], {
        cwd: repo,
        env: environment(options.env),
        stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        // Its own process group, so a limit stops git's own children too (a remote helper, an
        // upload-pack), which would otherwise hold the pipes open after git itself is gone.
        detached: true,
      }),
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let stopped: Error | undefined;
    const stop = (e: Error) => {
      if (stopped) return;
      stopped = e;
      killGroup(child);
    };
    const timer = setTimeout(() => stop(limitRefusal(args, "time", timeoutMs)), timeoutMs);
    child.stdout!.on("data", (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxBytes) return stop(limitRefusal(args, "size", maxBytes));
      out.push(b);
    });
    child.stderr!.on("data", (b: Buffer) => {
      if (errBytes < 64 * 1024) err.push(b);
      errBytes += b.length;
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(refused(`git could not be started: ${e.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (stopped) return reject(stopped);
      resolve({ status: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8").trim() });
    });
    if (options.input !== undefined) {
      child.stdin!.on("error", () => undefined); // git gone early: its exit code says why
      child.stdin!.end(options.input);
    }
  });
}

/** Git's standard output as text when it exits 0; undefined otherwise (the caller says what that means). */
export async function gitText(repo: string, args: readonly string[], options?: GitCallOptions): Promise<string | undefined> {
  const r = await git(repo, args, options);
  return r.status === 0 ? r.stdout.toString("utf8") : undefined;
}

/**
 * Two git processes, the first one's standard output the second one's standard input (as a
 * shell's `|` would join them, with no shell): each bounded as `git` bounds one, the time limit
 * counting for both. The second one writes where its arguments say (an `--output` file), so both
 * run to the end while the caller holds the event loop. The first non-zero exit code, or 0.
 */
export function gitPipe(repo: string, first: readonly string[], second: readonly string[], options: Omit<GitCallOptions, "maxBytes"> = {}): Promise<{ status: number; stderr: string }> {
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const env = environment(options.env);
    const a = tracked(spawn("git", [...SAFE_CONFIG, ...first], { cwd: repo, env, stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], detached: true }));
    const b = tracked(spawn("git", [...SAFE_CONFIG, ...second], { cwd: repo, env, stdio: [a.stdout!, "ignore", "pipe"], detached: true }));
    // The second process holds the pipe's read end now: this process's copy is closed, so the
    // first one sees a broken pipe (rather than blocking) if the second one stops early.
    a.stdout!.destroy();
    const err: string[] = [];
    for (const child of [a, b]) child.stderr!.on("data", (d: Buffer) => err.join("").length < 64 * 1024 && err.push(d.toString("utf8")));
    let stopped: Error | undefined;
    const stop = (e: Error) => {
      if (stopped) return;
      stopped = e;
      for (const child of [a, b]) killGroup(child);
    };
    const timer = setTimeout(() => stop(limitRefusal(second, "time", timeoutMs)), timeoutMs);
    const codes: number[] = [];
    let open = 2;
    let failed: Error | undefined;
    const done = (code: number | null, e?: Error) => {
      if (e) failed ??= e;
      codes.push(code ?? 1);
      if (--open > 0) return;
      clearTimeout(timer);
      if (stopped) return reject(stopped);
      if (failed) return reject(refused(`git could not be started: ${failed.message}`));
      resolve({ status: codes.find((c) => c !== 0) ?? 0, stderr: err.join("").trim() });
    };
    for (const child of [a, b]) {
      let settled = false;
      child.on("error", (e) => !settled && ((settled = true), done(null, e)));
      child.on("close", (code) => !settled && ((settled = true), done(code)));
    }
    if (options.input !== undefined) {
      a.stdin!.on("error", () => undefined);
      a.stdin!.end(options.input);
    }
  });
}
