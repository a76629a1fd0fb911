import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { processWide } from "../process-wide";
import { git } from "./git-run";

/** Git's trimmed output when it exits 0 with some; undefined otherwise. A limit past is a refusal. */
async function ask(repo: string, args: string[]): Promise<string | undefined> {
  const r = await git(repo, args);
  if (r.status !== 0) return undefined;
  const out = r.stdout.toString("utf8").trim();
  return out === "" ? undefined : out;
}

/** `git rev-parse HEAD`, or `NONE` when there is no commit (or no repository). */
export async function gitHead(repo: string): Promise<string> {
  return (await ask(repo, ["rev-parse", "--verify", "-q", "HEAD"])) ?? "NONE";
}

/** `git symbolic-ref --short HEAD`, or `DETACHED`. */
export async function gitBranch(repo: string): Promise<string> {
  return (await ask(repo, ["symbolic-ref", "--short", "-q", "HEAD"])) ?? "DETACHED";
}

export interface GitWhere {
  head: string;
  branch: string;
}

// The head and branch change only when HEAD, the branch it names or packed-refs change: git is
// asked again only then (two processes per ledger line cost more than the rest of a move).
interface Remembered {
  dirs: { gitDir: string; commonDir: string } | undefined;
  fingerprint?: string;
  where?: GitWhere;
}

const remembered = processWide("git-heads", () => new Map<string, Remembered>());

async function gitDirs(repo: string): Promise<Remembered["dirs"]> {
  const out = await ask(repo, ["rev-parse", "--git-dir", "--git-common-dir"]);
  const [gitDir, commonDir] = out?.split("\n") ?? [];
  if (!gitDir || !commonDir) return undefined;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(repo, p));
  return { gitDir: abs(gitDir), commonDir: abs(commonDir) };
}

/** A file's identity and times ("-" when there is none): a file git replaces by a rename gets a new one. */
export function stampOf(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : "-";
}

/** What HEAD, its branch's ref and packed-refs are now; undefined when it cannot be told. */
function fingerprintOf(dirs: NonNullable<Remembered["dirs"]>): string | undefined {
  try {
    // Only a regular file is read: a FIFO or a device in its place would hold the event loop.
    const headPath = join(dirs.gitDir, "HEAD");
    if (!statSync(headPath).isFile()) return undefined;
    const head = readFileSync(headPath, "utf8");
    const ref = /^ref: (refs\/\S+)\s*$/.exec(head)?.[1];
    const refStamp = ref && !ref.includes("..") ? stampOf(join(dirs.commonDir, ref)) + stampOf(join(dirs.gitDir, ref)) : "";
    return `${head}\0${refStamp}\0${stampOf(join(dirs.commonDir, "packed-refs"))}\0${stampOf(join(dirs.commonDir, "reftable"))}`;
  } catch {
    return undefined;
  }
}

/** The repository's git folder and common folder (absolute), asked once per process; undefined outside a repository. */
export async function gitDirsOf(repo: string): Promise<{ gitDir: string; commonDir: string } | undefined> {
  let memo = remembered.get(repo);
  if (!memo) {
    memo = { dirs: await gitDirs(repo) };
    remembered.set(repo, memo);
  }
  return memo.dirs;
}

/** `gitHead` and `gitBranch` together, from real git, asked again only when HEAD or its ref moved. */
export async function gitWhere(repo: string): Promise<GitWhere> {
  await gitDirsOf(repo);
  const memo = remembered.get(repo)!;
  const fingerprint = memo.dirs ? fingerprintOf(memo.dirs) : undefined;
  if (fingerprint !== undefined && fingerprint === memo.fingerprint && memo.where) return memo.where;
  const [head, branch] = await Promise.all([gitHead(repo), gitBranch(repo)]);
  const where = { head, branch };
  // Kept only if nothing moved while git was asked.
  if (fingerprint !== undefined && memo.dirs && fingerprintOf(memo.dirs) === fingerprint) {
    memo.fingerprint = fingerprint;
    memo.where = where;
  }
  return where;
}

/**
 * HEAD's branch now names `commit`, moved there by this process (git update-ref): remembered
 * without asking git, when the branch's own file says so (a packed or detached one is asked again).
 */
export function rememberHead(repo: string, commit: string): void {
  const memo = remembered.get(repo);
  if (!memo?.dirs) return;
  const fingerprint = fingerprintOf(memo.dirs);
  let branch: string;
  try {
    const ref = /^ref: refs\/heads\/(\S+)\s*$/.exec(readFileSync(join(memo.dirs.gitDir, "HEAD"), "utf8"))?.[1];
    if (!ref || ref.includes("..")) return;
    const path = join(memo.dirs.commonDir, "refs", "heads", ref);
    if (!statSync(path).isFile() || readFileSync(path, "utf8").trim() !== commit) return;
    branch = ref;
  } catch {
    return;
  }
  // Kept only if nothing moved while the branch's file was read.
  if (fingerprint === undefined || fingerprintOf(memo.dirs) !== fingerprint) return;
  memo.fingerprint = fingerprint;
  memo.where = { head: commit, branch };
}

/** A commit's subject (its message's first line), by its full sha; undefined when git has none. */
export async function gitCommitSubject(repo: string, sha: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{40,64}$/.test(sha)) return undefined;
  return ask(repo, ["show", "-s", "--no-show-signature", "--format=%s", "--end-of-options", sha]);
}
