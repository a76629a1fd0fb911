import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { processWide } from "../process-wide";

function git(repo: string, args: string[]): string | undefined {
  const r = spawnSync("git", args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
  const out = r.stdout.trim();
  return out === "" ? undefined : out;
}

/** `git rev-parse HEAD`, or `NONE` when there is no commit (or no repository). */
export function gitHead(repo: string): string {
  return git(repo, ["rev-parse", "--verify", "-q", "HEAD"]) ?? "NONE";
}

/** `git symbolic-ref --short HEAD`, or `DETACHED`. */
export function gitBranch(repo: string): string {
  return git(repo, ["symbolic-ref", "--short", "-q", "HEAD"]) ?? "DETACHED";
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

function gitDirs(repo: string): Remembered["dirs"] {
  const out = git(repo, ["rev-parse", "--git-dir", "--git-common-dir"]);
  const [gitDir, commonDir] = out?.split("\n") ?? [];
  if (!gitDir || !commonDir) return undefined;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(repo, p));
  return { gitDir: abs(gitDir), commonDir: abs(commonDir) };
}

function stampOf(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : "-";
}

/** What HEAD, its branch's ref and packed-refs are now; undefined when it cannot be told. */
function fingerprintOf(dirs: NonNullable<Remembered["dirs"]>): string | undefined {
  try {
    const head = readFileSync(join(dirs.gitDir, "HEAD"), "utf8");
    const ref = /^ref: (refs\/\S+)\s*$/.exec(head)?.[1];
    const refStamp = ref && !ref.includes("..") ? stampOf(join(dirs.commonDir, ref)) + stampOf(join(dirs.gitDir, ref)) : "";
    return `${head}\0${refStamp}\0${stampOf(join(dirs.commonDir, "packed-refs"))}\0${stampOf(join(dirs.commonDir, "reftable"))}`;
  } catch {
    return undefined;
  }
}

/** `gitHead` and `gitBranch` together, from real git, asked again only when HEAD or its ref moved. */
export function gitWhere(repo: string): GitWhere {
  let memo = remembered.get(repo);
  if (!memo) {
    memo = { dirs: gitDirs(repo) };
    remembered.set(repo, memo);
  }
  const fingerprint = memo.dirs ? fingerprintOf(memo.dirs) : undefined;
  if (fingerprint !== undefined && fingerprint === memo.fingerprint && memo.where) return memo.where;
  const where = { head: gitHead(repo), branch: gitBranch(repo) };
  // Kept only if nothing moved while git was asked.
  if (fingerprint !== undefined && memo.dirs && fingerprintOf(memo.dirs) === fingerprint) {
    memo.fingerprint = fingerprint;
    memo.where = where;
  }
  return where;
}
