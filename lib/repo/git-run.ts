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

/** A git process as every call starts one: its own process group, kept in `running` until it is gone. */
function startGit(repo: string, args: readonly string[], env: NodeJS.ProcessEnv, stdin: "ignore" | "pipe" | NodeJS.ReadableStream, stdout: "pipe" | "ignore"): ChildProcess {
  // Its own process group, so a limit stops git's own children too (a remote helper, an
  // upload-pack), which would otherwise hold the pipes open after git itself is gone.
  return tracked(spawn("git", [...SAFE_CONFIG, ...args], { cwd: repo, env, stdio: [stdin as "pipe", stdout, "pipe"], detached: true }));
}

/** Writes `input` to the process's standard input, if there is one; git gone early is told by its exit code. */
function feed(child: ChildProcess, input: string | Buffer | undefined): void {
  if (input === undefined) return;
  child.stdin!.on("error", () => undefined);
  child.stdin!.end(input);
}

/**
 * Waits until every one of `children` is gone, within `timeoutMs`: past it, or when `stop` is
 * called (a size limit), every one is killed with its group and `done` rejects with that refusal.
 * `done` resolves with each one's exit code, in order; a process that could not be started is a
 * refusal saying so. The first 64 KiB of what they write to standard error is kept.
 */
function watchGit(children: readonly ChildProcess[], args: readonly string[], timeoutMs: number): { done: Promise<{ codes: number[]; stderr: string }>; stop: (e: Error) => void } {
  const err: Buffer[] = [];
  let errBytes = 0;
  for (const child of children) {
    child.stderr!.on("data", (b: Buffer) => {
      if (errBytes < 64 * 1024) err.push(b);
      errBytes += b.length;
    });
  }
  let stopped: Error | undefined;
  const stop = (e: Error) => {
    if (stopped) return;
    stopped = e;
    for (const child of children) killGroup(child);
  };
  const done = new Promise<{ codes: number[]; stderr: string }>((resolve, reject) => {
    const timer = setTimeout(() => stop(limitRefusal(args, "time", timeoutMs)), timeoutMs);
    const codes: number[] = [];
    let open = children.length;
    let failed: Error | undefined;
    children.forEach((child, i) => {
      let settled = false;
      const settle = (code: number | null, e?: Error) => {
        if (settled) return;
        settled = true;
        if (e) failed ??= e;
        codes[i] = code ?? 1;
        if (--open > 0) return;
        clearTimeout(timer);
        if (stopped) reject(stopped);
        else if (failed) reject(refused(`git could not be started: ${failed.message}`));
        else resolve({ codes, stderr: Buffer.concat(err).toString("utf8").trim() });
      };
      child.on("error", (e) => settle(null, e));
      child.on("close", (code) => settle(code));
    });
  });
  return { done, stop };
}

/** Run git in `repo` without holding the event loop; a refusal when a limit stops it. */
export async function git(repo: string, args: readonly string[], options: GitCallOptions = {}): Promise<GitOutput> {
  const maxBytes = options.maxBytes ?? GIT_OUTPUT_LIMIT;
  const child = startGit(repo, args, environment(options.env), options.input === undefined ? "ignore" : "pipe", "pipe");
  const { done, stop } = watchGit([child], args, options.timeoutMs ?? GIT_TIMEOUT_MS);
  const out: Buffer[] = [];
  let outBytes = 0;
  child.stdout!.on("data", (b: Buffer) => {
    outBytes += b.length;
    if (outBytes > maxBytes) return stop(limitRefusal(args, "size", maxBytes));
    out.push(b);
  });
  feed(child, options.input);
  const { codes, stderr } = await done;
  return { status: codes[0], stdout: Buffer.concat(out), stderr };
}

/**
 * Run git and hand its standard output to `onChunk` piece by piece, as it comes: git's pipe is
 * paused while a piece is handled and resumed on a later turn of the event loop (setImmediate), so
 * nothing of it is held here and other requests are answered meanwhile. Bounded in time as `git`
 * is; a throw from `onChunk` stops git and rejects with it.
 */
export async function gitEach(repo: string, args: readonly string[], onChunk: (chunk: Buffer) => void, options: Omit<GitCallOptions, "maxBytes"> = {}): Promise<{ status: number; stderr: string }> {
  const child = startGit(repo, args, environment(options.env), options.input === undefined ? "ignore" : "pipe", "pipe");
  const { done, stop } = watchGit([child], args, options.timeoutMs ?? GIT_TIMEOUT_MS);
  const out = child.stdout!;
  out.on("data", (b: Buffer) => {
    out.pause();
    try {
      onChunk(b);
    } catch (e) {
      return stop(e instanceof Error ? e : new Error(String(e)));
    }
    setImmediate(() => out.resume());
  });
  feed(child, options.input);
  const { codes, stderr } = await done;
  return { status: codes[0], stderr };
}

/** A git call's answer as text. */
export interface GitTextOutput {
  status: number;
  stdout: string;
  stderr: string;
}

/** The verbs that talk to a remote (and the housekeeping that may follow one): they get GIT_REMOTE_TIMEOUT_MS. */
const REMOTE_VERBS = new Set(["fetch", "push", "pull", "maintenance"]);

/** Git's answer as text, its time limit by its verb (a remote's verbs get the remote's limit). */
export async function gitOut(repo: string, args: readonly string[], env: Record<string, string> = {}, input?: string | Buffer): Promise<GitTextOutput> {
  const r = await git(repo, args, { env, input, ...(REMOTE_VERBS.has(args[0]) ? { timeoutMs: GIT_REMOTE_TIMEOUT_MS } : {}) });
  return { status: r.status, stdout: r.stdout.toString("utf8"), stderr: r.stderr };
}

/** Git's standard output as text when it exits 0; undefined otherwise (the caller says what that means). */
export async function gitText(repo: string, args: readonly string[], options?: GitCallOptions): Promise<string | undefined> {
  const r = await git(repo, args, options);
  return r.status === 0 ? r.stdout.toString("utf8") : undefined;
}

/**
 * Two git processes, the first one's standard output the second one's standard input (as a
 * shell's `|` would join them, with no shell): bounded as `git` bounds one, the time limit
 * counting for both. The second one writes where its arguments say (an `--output` file), so both
 * run to the end while the caller holds the event loop. The first non-zero exit code, or 0.
 */
export async function gitPipe(repo: string, first: readonly string[], second: readonly string[], options: Omit<GitCallOptions, "maxBytes"> = {}): Promise<{ status: number; stderr: string }> {
  const env = environment(options.env);
  const a = startGit(repo, first, env, options.input === undefined ? "ignore" : "pipe", "pipe");
  const b = startGit(repo, second, env, a.stdout!, "ignore");
  // The second process holds the pipe's read end now: this process's copy is closed, so the
  // first one sees a broken pipe (rather than blocking) if the second one stops early.
  a.stdout!.destroy();
  const { done } = watchGit([a, b], second, options.timeoutMs ?? GIT_TIMEOUT_MS);
  feed(a, options.input);
  const { codes, stderr } = await done;
  return { status: codes.find((c) => c !== 0) ?? 0, stderr };
}
