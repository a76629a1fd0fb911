import { closeSync, constants, fstatSync, ftruncateSync, readdirSync, rmSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { refused } from "../plan/errors";
import { LEDGER_FILE, PROJECT_DIR } from "../plan/constants";
import { escapeControls } from "../plan/control-chars";
import { processWide } from "../process-wide";
import { type GitTextOutput, gitOut } from "./git-run";
import { readLedger } from "./ledger";
import { openStateFile, trackedStateKept, trackedStateStamp } from "./state-path";
import { gitFailure, summarise } from "./commit";
import { gitDirsOf, rememberHead, stampOf } from "./git";
import { isAlive } from "./lock";

// A following server's command as one commit (lib/repo/publish.ts pushes it): which record files
// it wrote and whether a hand had changed one first, its message, and the commit itself, built on
// a private index from HEAD's tree so nothing else staged or changed goes in. The git calls of
// both files, each one bounded by git-run.

export type Out = GitTextOutput;

/** Not while a command waits for its answer: commit and fetch would start `git maintenance` (tidy() runs it from the loop). */
const NO_AUTO_MAINTENANCE = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "maintenance.auto", GIT_CONFIG_VALUE_0: "false" };

/** lib/repo's git (git-run's gitOut), without git's automatic housekeeping. */
export const git = (repo: string, args: string[], env: Record<string, string> = {}, input?: string | Buffer): Promise<Out> => gitOut(repo, args, { ...NO_AUTO_MAINTENANCE, ...env }, input);

export async function must(repo: string, args: string[], env?: Record<string, string>, input?: string | Buffer): Promise<string> {
  const r = await git(repo, args, env, input);
  if (r.status !== 0) throw gitFailure(repo, args[0], r);
  return r.stdout;
}

/** The record files that differ from HEAD (paths relative to the repository). */
export async function dirtyRecords(repo: string): Promise<Set<string>> {
  const r = await git(repo, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", PROJECT_DIR]);
  if (r.status !== 0) throw refused(`this is not a git work tree (${r.stderr}); a following server commits with git`);
  const out = new Set<string>();
  const parts = r.stdout.split("\0");
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].length < 4) continue;
    out.add(parts[i].slice(3));
    if (parts[i][0] === "R" || parts[i][0] === "C") i++;
  }
  return out;
}

/** The ledger's length in bytes (0 when there is none yet). */
export function ledgerSize(repo: string): number {
  let fd: number;
  try {
    fd = openStateFile(repo, LEDGER_FILE, constants.O_RDONLY);
  } catch {
    return 0;
  }
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** Cut the ledger back to `size` bytes: the lines an undone command wrote are gone, byte for byte. */
export function truncateLedger(repo: string, size: number): void {
  if (ledgerSize(repo) <= size) return;
  const fd = openStateFile(repo, LEDGER_FILE, constants.O_RDWR);
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

export const oneLine = (text: string) => escapeControls(text).replaceAll("\n", "\\x0a");

/** The trailer that names one command's commit, so its rebased copy is known again (as Gerrit's Change-Id). */
export const COMMAND_TRAILER = "Cockpit-Command";

/** `BK-020: start`, then each ledger line's details on indented lines, then the command's trailer. */
export function publishMessage(repo: string, ledgerFrom: number, files: readonly string[], command = randomBytes(8).toString("hex")): string {
  const rows = readLedger(repo, ledgerFrom).entries as Record<string, string>[];
  const subjects: string[] = [];
  const details: string[] = [];
  for (const row of rows) {
    const { ts, event, head: _h, branch: _b, by, session: _s, ...payload } = row;
    const record = row.record ?? row.issue ?? "";
    subjects.push(`${oneLine(record)}${record ? ": " : ""}${oneLine(summarise(event, payload))}`);
    details.push(`    ${oneLine(event)} at ${oneLine(ts)} by ${oneLine(by ?? "")}`);
    for (const [k, v] of Object.entries(payload)) details.push(`      ${oneLine(k)}: ${oneLine(String(v))}`);
  }
  const subject = subjects.length === 0 ? `plan: ${files.length} record file${files.length === 1 ? "" : "s"}` : subjects.length <= 3 ? subjects.join("; ") : `${subjects.slice(0, 3).join("; ")}; …`;
  return [subject, "", ...(details.length ? details : files.map((f) => `    ${oneLine(f)}`)), "", `${COMMAND_TRAILER}: ${command}`].join("\n") + "\n";
}

/** The blob id git gives `bytes` (as `git hash-object`, without filters), in the repository's object format. */
function blobId(bytes: Buffer, idLength: number): string {
  return createHash(idLength === 64 ? "sha256" : "sha1")
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest("hex");
}

/** A record file a command wrote: its path in the repository, and its bytes before the command (null: none). */
export interface Written {
  path: string;
  before: Buffer | null;
}

const isZero = (id: string) => /^0+$/.test(id);

/**
 * The written files that held an uncommitted change (staged or not) before the command wrote them:
 * their bytes then were not HEAD's, or the index had another entry than HEAD's. One
 * `git status` of those paths, whose entries name HEAD's and the index's object ids; the index is
 * not written. A file git reports unchanged was written back to HEAD's bytes: if its bytes before
 * were other, a hand had changed it.
 */
export async function handEdited(repo: string, written: readonly Written[]): Promise<string[]> {
  const out = await must(repo, ["status", "--porcelain=v2", "-z", "--no-renames", "--untracked-files=all", "--", ...written.map((w) => w.path)]);
  // "1 XY sub mH mI mW hH hI path", "u …" (a conflict), "? path" (untracked).
  const seen = new Map<string, { head?: string; index?: string; conflict?: boolean }>();
  for (const row of out.split("\0")) {
    if (row.startsWith("? ")) seen.set(row.slice(2), {});
    else if (row.startsWith("u ")) seen.set(row.split(" ").slice(10).join(" "), { conflict: true });
    else if (row.startsWith("1 ")) {
      const f = row.split(" ");
      seen.set(f.slice(8).join(" "), { head: isZero(f[6]) ? undefined : f[6], index: isZero(f[7]) ? undefined : f[7] });
    }
  }
  const edited: string[] = [];
  for (const w of written) {
    const entry = seen.get(w.path);
    let clean: boolean;
    if (!entry) clean = false; // written back to HEAD's bytes, which it did not hold before
    else if (entry.conflict || entry.head !== entry.index) clean = false;
    else if (w.before === null || entry.head === undefined) clean = (w.before === null) === (entry.head === undefined);
    else {
      const head = entry.head;
      // Bytes as committed, or as a checkout writes them (an attribute's line endings): git's own hash says.
      clean = blobId(w.before, head.length) === head || (await must(repo, ["hash-object", "--stdin", `--path=${w.path}`], {}, w.before)).trim() === head;
    }
    if (!clean) edited.push(w.path);
  }
  return edited;
}

/** The repository's git folders; a refusal outside a git work tree (a following server commits with git). */
export async function gitFolders(repo: string): Promise<{ gitDir: string; commonDir: string }> {
  const dirs = await gitDirsOf(repo);
  if (!dirs) throw refused("this is not a git work tree; a following server commits with git");
  return dirs;
}

/**
 * A commit of `files` (added, changed or deleted since `parent`, as the work tree has them) with
 * `message`, on `parent`, built on a private index from `parent`'s tree, so nothing else staged or
 * changed goes in. Nothing points to it yet (placeCommit does): a commit never placed is garbage
 * git collects, so it may be made before the files are known to be the command's alone.
 */
export async function makeCommit(repo: string, parent: string | undefined, files: readonly string[], message: string, env: Record<string, string>): Promise<string> {
  if (files.some((f) => !f.startsWith(`${PROJECT_DIR}/`))) throw refused(`a following server commits record files only, not ${files.find((f) => !f.startsWith(`${PROJECT_DIR}/`))}`);
  const tree = await treeOf(repo, parent, files);
  const made = await git(repo, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], env, message);
  const kept = privateIndexes.get(repo);
  if (kept) kept.tree = made.status === 0 ? made.stdout.trim() : undefined;
  if (made.status !== 0) {
    if (/Please tell me who you are|empty ident|user\.email/.test(made.stderr)) {
      throw refused("git knows no author here: set user.name and user.email (git config), or start the server with cockpit serve --author 'Name <email>'");
    }
    throw gitFailure(repo, "commit", made);
  }
  return made.stdout.trim();
}

/**
 * Make the commit (being made on `parent` by makeCommit, holding `files`) HEAD's: the real index
 * takes the files' new entries meanwhile (their bytes are already in the work tree), then HEAD
 * moves to it, only from `parent`. A locked index refuses before anything is committed; a commit
 * git refuses, or a HEAD that moved meanwhile, puts the index entries back.
 */
export async function placeCommit(repo: string, parent: string | undefined, made: Promise<string>, files: readonly string[], subject: string): Promise<string> {
  const tracked = trackedStateStamp(repo);
  const indexed = must(repo, ["update-index", "--add", "--remove", "--", ...files]).then(() => trackedStateKept(repo, tracked));
  indexed.catch(() => undefined);
  let commit: string;
  try {
    [commit] = await Promise.all([made, indexed]);
    await must(repo, ["update-ref", "-m", `commit: ${subject}`, "HEAD", commit, parent ?? ""]);
  } catch (error) {
    privateIndexes.delete(repo);
    if (await indexed.then(() => true, () => false)) {
      await git(repo, parent ? ["reset", "-q", parent, "--", ...files] : ["rm", "-q", "--cached", "--ignore-unmatch", "--", ...files]);
    }
    throw error;
  }
  // The private index holds the new commit's tree: the next command on it starts from there.
  const kept = privateIndexes.get(repo);
  if (kept?.stamp && kept.tree === commit) kept.commit = commit;
  rememberHead(repo, commit);
  return commit;
}

/**
 * Each repository's private index for commits, and the commit whose tree it holds (none: read it
 * again). One file per process under git's folder; a file left by a process gone is removed.
 */
interface PrivateIndex {
  path: string;
  /** The commit whose tree the file holds, and the file's stamp then (a file changed since is read again). */
  commit?: string;
  stamp?: string;
  /** The commit last made from the file's tree (placed, it becomes `commit`). */
  tree?: string;
}

const privateIndexes = processWide("publish-private-indexes", () => new Map<string, PrivateIndex>());

async function privateIndex(repo: string): Promise<PrivateIndex> {
  let kept = privateIndexes.get(repo);
  if (!kept) {
    const dir = (await gitFolders(repo)).gitDir;
    for (const name of readdirSync(dir)) {
      const pid = /^cockpit-commit-index-(\d+)$/.exec(name)?.[1];
      if (pid && Number(pid) !== process.pid && !isAlive(Number(pid))) rmSync(join(dir, name), { force: true });
    }
    kept = { path: join(dir, `cockpit-commit-index-${process.pid}`) };
    privateIndexes.set(repo, kept);
  }
  return kept;
}

/** The tree of `parent` with `files` as the work tree has them (added, changed or removed), built on the private index. */
async function treeOf(repo: string, parent: string | undefined, files: readonly string[]): Promise<string> {
  const kept = await privateIndex(repo);
  const index = { GIT_INDEX_FILE: kept.path };
  const current = parent !== undefined && kept.commit === parent && kept.stamp !== undefined && stampOf(kept.path) === kept.stamp;
  kept.commit = kept.stamp = kept.tree = undefined;
  if (!current) await must(repo, ["read-tree", ...(parent ? [parent] : ["--empty"])], index);
  await must(repo, ["update-index", "--add", "--remove", "--", ...files], index);
  // Every entry is the parent's (its objects are in the repository) or one update-index just wrote:
  // git need not look each of them up again (over 10k records, that halves the write-tree).
  const tree = (await must(repo, ["write-tree", "--missing-ok"], index)).trim();
  kept.stamp = stampOf(kept.path);
  return tree;
}
