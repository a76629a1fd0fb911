import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { join, resolve, sep } from "node:path";
import { refused } from "../plan/errors";
import { processWide } from "../process-wide";
import { git } from "./git-run";
import { stampOf } from "./git";
import { discoverGit } from "./git-discovery";

// The Cockpit's own state (the ledger, the plan lock, the holder id, the SQLite store) lives in
// `.ai/local/` of the clone, untracked. A repository is data: it may commit a link there, or the
// state itself, so every folder from the repository down and the file are looked at with lstat,
// files are opened with O_NOFOLLOW, and a write that needs a state path that is a link, not a
// plain folder or file, outside the repository or tracked by git is refused before anything is
// written. A read skips such a file, with a warning.

/** The folder of the clone's own state. */
export const LOCAL_DIR = ".ai/local";

/** Open flags that never follow a link at the last name nor wait on a FIFO (neither exists on Windows). */
export const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The names from the repository down to a state file; a path outside `.ai/local/` is a programming error. */
function namesOf(rel: string): string[] {
  const names = rel.replace(/\/$/, "").split("/");
  if (!rel.startsWith(`${LOCAL_DIR}/`) || names.some((n) => n === "" || n === "." || n === "..")) {
    throw new Error(`'${rel}' is not a path under ${LOCAL_DIR}/`);
  }
  return names;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "a file";
}

function linkTarget(abs: string): string {
  try {
    const target = readlinkSync(abs);
    return ` (to ${JSON.stringify(target.length > 200 ? `${target.slice(0, 200)}…` : target)})`;
  } catch {
    return "";
  }
}

const untrack = (entry: string) => `; it is tracked by git, so untrack it too: git rm --cached -- ${entry} (and list ${LOCAL_DIR}/ in .gitignore)`;

/** The tracked entry at or above `sub` (a tracked link `.ai/local` covers everything under it). */
function trackedEntry(sub: string, tracked: ReadonlySet<string> | undefined): string | undefined {
  if (!tracked) return undefined;
  const names = sub.split("/");
  for (let i = 1; i <= names.length; i++) {
    const entry = names.slice(0, i).join("/");
    if (tracked.has(entry)) return entry;
  }
  return undefined;
}

/**
 * Why `rel` cannot be the Cockpit's state by what is on disk now, or undefined. A `rel` that ends
 * in "/" is a folder of state files (the undo store): it must be a plain folder.
 */
function onDiskProblem(repo: string, rel: string, tracked?: ReadonlySet<string>, looks: Looks = freshLooks()): string | undefined {
  const names = namesOf(rel);
  const folderOnly = rel.endsWith("/");
  let deepest: string | undefined;
  for (let i = 1; i <= names.length; i++) {
    const sub = names.slice(0, i).join("/");
    const abs = join(repo, sub);
    const look = looks.stats.get(abs) ?? lookAt(abs);
    looks.stats.set(abs, look);
    if (!("st" in look)) {
      if (look.code === "ENOENT") break; // made when first needed
      return `${sub} cannot be looked at (${look.code})`;
    }
    const st = look.st;
    const entry = trackedEntry(sub, tracked);
    const also = entry ? untrack(entry) : "";
    if (st.isSymbolicLink()) {
      return `${sub} is a symbolic link${linkTarget(abs)}, and the Cockpit never reads or writes its own state through a link: remove the link ${sub} (the Cockpit makes its state again)${also}`;
    }
    const last = i === names.length && !folderOnly;
    if (!last && !st.isDirectory()) return `${sub} is ${kindOf(st)}, not a folder, so the Cockpit cannot keep its state in it: remove ${sub}${also}`;
    if (last && !st.isFile()) return `${sub} is ${kindOf(st)}, not a regular file, so the Cockpit cannot keep its state in it: remove ${sub}${also}`;
    deepest = sub;
  }
  if (deepest !== undefined) {
    // A file was seen not to be a link, so its folder's real path places it: a file (the lock)
    // may be removed by its holder between the look and here, its folder is not.
    const folder = deepest === names.join("/") && names.length > 1 && !folderOnly ? names.slice(0, -1).join("/") : deepest;
    const root = realRoot(repo);
    const at = join(repo, folder);
    let real = looks.reals.get(at);
    if (real === undefined) {
      try {
        real = realpathSync(at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined; // gone: made again when needed
        throw error;
      }
      looks.reals.set(at, real);
    }
    if (real !== root && !real.startsWith(root + sep)) return `${folder} lies outside the repository (${JSON.stringify(real)}), and the Cockpit keeps its state inside it`;
  }
  return undefined;
}

/**
 * What one check of state paths found: each path's lstat (or the error's code) and each folder's
 * real path. The state files of one check share their folders, which are looked at once.
 */
interface Looks {
  stats: Map<string, { st: Stats } | { code: string }>;
  reals: Map<string, string>;
}

const freshLooks = (): Looks => ({ stats: new Map(), reals: new Map() });

function lookAt(abs: string): { st: Stats } | { code: string } {
  try {
    return { st: lstatSync(abs) };
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

const roots = processWide("state-path-roots", () => new Map<string, string>());

function realRoot(repo: string): string {
  let root = roots.get(repo);
  if (root === undefined) {
    root = realpathSync(repo);
    roots.set(repo, root);
  }
  return root;
}

// What git tracks under `.ai/local`, kept while git's index is the same file with the same size and
// times (git replaces the index by a rename on every change): one `git ls-files` per index change,
// not one per move.
interface TrackedMemo {
  index: string;
  stamp?: string;
  paths?: ReadonlySet<string>;
}

const trackedMemos = processWide("state-path-tracked", () => new Map<string, TrackedMemo>());

/**
 * The index of a repository at the top of its work tree, found without starting git (a command
 * pays for one git process less): `.git` is the folder, or a file naming it (a linked worktree).
 * Undefined when git must say (a subfolder of a work tree, GIT_DIR or GIT_INDEX_FILE set).
 */
function indexOf(repo: string): string | undefined {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_INDEX_FILE !== undefined) return undefined;
  const dotGit = join(repo, ".git");
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (st?.isDirectory()) return join(dotGit, "index");
  if (!st?.isFile()) return undefined;
  const gitdir = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
  return gitdir ? join(resolve(repo, gitdir), "index") : undefined;
}

async function askIndex(repo: string): Promise<string | undefined> {
  const where = await git(repo, ["rev-parse", "--git-path", "index"]);
  return where.status === 0 ? resolve(repo, where.stdout.toString("utf8").trim()) : undefined;
}

/** The paths git tracks under `.ai/local` of `repo` (none outside a git work tree). */
export async function trackedState(repo: string): Promise<ReadonlySet<string>> {
  let memo = trackedMemos.get(repo);
  // A repository whose .git went away since it was asked is asked again.
  if (memo && memo.index === join(repo, ".git", "index") && lstatSync(join(repo, ".git"), { throwIfNoEntry: false }) === undefined) {
    trackedMemos.delete(repo);
    memo = undefined;
  }
  if (!memo) {
    // No .git in or above the folder: not a work tree, and git need not be asked so (asked again next time: one may be made).
    const index = indexOf(repo) ?? (discoverGit(repo).kind === "none" ? undefined : await askIndex(repo));
    if (index === undefined) return new Set(); // not a git work tree: nothing is tracked
    memo = { index };
    trackedMemos.set(repo, memo);
  }
  const stamp = stampOf(memo.index);
  if (memo.paths && stamp === memo.stamp) return memo.paths;
  const listed = await git(repo, ["--literal-pathspecs", "ls-files", "-z", "--", LOCAL_DIR]);
  if (listed.status !== 0) throw refused(`git ls-files cannot tell whether ${LOCAL_DIR} is tracked (${listed.stderr}); the Cockpit does not write its state until it can`);
  const paths = new Set(listed.stdout.toString("utf8").split("\0").filter((p) => p !== ""));
  // Kept only if the index did not change while git read it.
  if (stampOf(memo.index) === stamp) {
    memo.stamp = stamp;
    memo.paths = paths;
  }
  return paths;
}

/** The index's stamp now, when its tracked paths under `.ai/local` are known for it (else undefined). */
export function trackedStateStamp(repo: string): string | undefined {
  const memo = trackedMemos.get(repo);
  if (!memo?.paths || stampOf(memo.index) !== memo.stamp) return undefined;
  return memo.stamp;
}

/**
 * This process just had git rewrite the index with entries outside `.ai/local` only (a following
 * server's commit of record files), from the index `before` names (trackedStateStamp): what it
 * tracks under `.ai/local` is what it was, so the next write needs no `git ls-files` again.
 */
export function trackedStateKept(repo: string, before: string | undefined): void {
  const memo = trackedMemos.get(repo);
  if (before === undefined || !memo?.paths || memo.stamp !== before) return;
  memo.stamp = stampOf(memo.index);
}

/**
 * Why `rel` cannot be written as the Cockpit's state (link, kind, place or tracked), or undefined.
 * A folder (`rel` ending in "/") is refused when git tracks anything in it too: a state file
 * whose name is not known before the write (the undo store's N.json) may be any of them.
 */
export async function stateProblem(repo: string, rel: string): Promise<string | undefined> {
  return firstStateProblem(repo, [rel]);
}

/** The first reason any of `rels` cannot be written as the Cockpit's state, or undefined: their shared folders are looked at once. */
export async function firstStateProblem(repo: string, rels: readonly string[]): Promise<string | undefined> {
  const tracked = await trackedState(repo);
  const looks = freshLooks();
  for (const rel of rels) {
    const problem = trackedProblem(repo, rel, tracked, looks);
    if (problem) return problem;
  }
  return undefined;
}

/** Why one state path cannot be written: what is on disk, then what git tracks. */
function trackedProblem(repo: string, rel: string, tracked: ReadonlySet<string>, looks: Looks): string | undefined {
  const problem = onDiskProblem(repo, rel, tracked, looks);
  if (problem) return problem;
  const folder = rel.endsWith("/") ? rel.slice(0, -1) : undefined;
  const entry = trackedEntry(folder ?? rel, tracked) ?? (folder === undefined ? undefined : [...tracked].sort().find((p) => p.startsWith(rel)));
  if (!entry) return undefined;
  const untracked = folder !== undefined && entry !== folder && entry.startsWith(rel) ? `git rm -r --cached -- ${folder}` : `git rm --cached -- ${entry}`;
  return `${entry} is tracked by git, but it is the Cockpit's own state, this clone's alone: untrack it with ${untracked} (and list ${LOCAL_DIR}/ in .gitignore)`;
}

/**
 * Refuse (exit 15, HTTP 422) unless every one of `paths` may be written as the Cockpit's state.
 * Called before anything of the write is, so a refusal writes nothing anywhere.
 */
export async function requireState(repo: string, paths: readonly string[]): Promise<void> {
  const problem = await firstStateProblem(repo, paths);
  if (problem) throw refused(problem);
}

/** Why `rel` cannot be the Cockpit's state by what is on disk now (links, kinds, place), or undefined; no git. */
export function stateLinkProblem(repo: string, rel: string): string | undefined {
  return onDiskProblem(repo, rel);
}

/** Make the folders of state file `rel` one at a time, refusing any that is a link or not a folder. */
export function makeStateFolders(repo: string, rel: string): void {
  const names = namesOf(rel);
  for (let i = 1; i < names.length; i++) {
    const sub = names.slice(0, i).join("/");
    const abs = join(repo, sub);
    try {
      mkdirSync(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const st = lstatSync(abs);
    if (st.isSymbolicLink() || !st.isDirectory()) throw refused(onDiskProblem(repo, rel) ?? `${sub} is not a folder: remove it`);
  }
}

/**
 * Open state file `rel` with `flags` (numbers of fs.constants): its folders are made and checked
 * first, the file itself is never followed (O_NOFOLLOW) nor waited on (a FIFO), and it must be a
 * regular file. A refusal names the path and the fix.
 */
export function openStateFile(repo: string, rel: string, flags: number, mode = 0o644): number {
  const problem = onDiskProblem(repo, rel);
  if (problem) throw refused(problem);
  if (flags & constants.O_CREAT) makeStateFolders(repo, rel);
  let fd: number;
  try {
    fd = openSync(join(repo, rel), flags | NO_FOLLOW, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENXIO") throw refused(onDiskProblem(repo, rel) ?? `${rel} is not a regular file: remove it`);
    throw error;
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw refused(`${rel} is ${kindOf(st)}, not a regular file, so the Cockpit cannot keep its state in it: remove ${rel}`);
  }
  return fd;
}

const warned = processWide("state-path-warned", () => new Set<string>());

/** Say once per process on stderr (a server's log) what a read skipped. */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  if (warned.size > 1000) warned.clear();
  warned.add(key);
  console.error(`[cockpit] ${message}`);
}

/**
 * A state file's bytes from `from` for an answer: undefined when it is absent, and, with a
 * warning, when it is reached through a link or is not a regular file (a read answers without it).
 */
export function readStateFile(repo: string, rel: string, from = 0): Buffer | undefined {
  const problem = onDiskProblem(repo, rel);
  if (problem) {
    warnOnce(`${repo}\0${rel}\0${problem}`, `${problem}; it is not read`);
    return undefined;
  }
  let fd: number;
  try {
    fd = openStateFile(repo, rel, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    warnOnce(`${repo}\0${rel}\0open`, `${rel} is not read: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(Math.max(0, size - from));
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
