import { closeSync, constants, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeAll } from "./write";
import { git, gitFolders, must } from "./command-commit";

// The commits a following server made, kept in git's folder of the clone (which no checkout
// writes, so a repository cannot plant one): what it pushes is exactly those the remote lacks,
// never a set computed from a walk of the remote's history, its dates or its messages' trailers.

/** One command's commit, as this server made it. */
export interface OwnCommit {
  /** The commit HEAD holds (after a replay, the replayed copy once HEAD moved to it). */
  commit: string;
  /** Its replayed copy, while HEAD has not moved to it yet (a push of it may have landed). */
  copy?: string;
  /** The command's own id (its commit's Cockpit-Command trailer, for readers). */
  command: string;
  subject: string;
  files: string[];
  /** The ledger bytes its lines took, [from, to): their plan_undo lines, if it is undone. */
  ledger: { from: number; to: number };
  /** The remote has it (a push landed): kept a while, to tell when the remote removes it. */
  landed?: boolean;
}

export interface OwnState {
  /** The remote's tip as this server last saw it: a later tip that does not contain it is a force-push. */
  seen?: string;
  commits: OwnCommit[];
}

/** The landed commits kept to tell a force-push that removed them; older ones are forgotten. */
const LANDED_KEPT = 50;
const FILE = "cockpit-follow-commits.json";

const pathOf = async (repo: string) => join((await gitFolders(repo)).gitDir, FILE);

const isOwn = (v: unknown): v is OwnCommit => {
  const c = v as Partial<OwnCommit> | null;
  return typeof c === "object" && c !== null && typeof c.commit === "string" && typeof c.command === "string" && Array.isArray(c.files) && typeof c.ledger?.from === "number";
};

export async function readOwn(repo: string): Promise<OwnState> {
  try {
    const value = JSON.parse(readFileSync(await pathOf(repo), "utf8")) as Partial<OwnState>;
    return { seen: typeof value.seen === "string" ? value.seen : undefined, commits: (value.commits ?? []).filter(isOwn) };
  } catch {
    return { commits: [] };
  }
}

/** Written whole to a new file, then renamed over the old one: a crash leaves one or the other. */
export async function writeOwn(repo: string, state: OwnState): Promise<void> {
  const landed = state.commits.filter((c) => c.landed);
  const kept = state.commits.filter((c) => !c.landed || landed.indexOf(c) >= landed.length - LANDED_KEPT);
  const path = await pathOf(repo);
  const temp = `${path}.${process.pid}`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeAll(fd, Buffer.from(JSON.stringify({ seen: state.seen, commits: kept }) + "\n", "utf8"));
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Change the kept state in one step. */
export async function updateOwn(repo: string, change: (state: OwnState) => void): Promise<void> {
  const state = await readOwn(repo);
  change(state);
  await writeOwn(repo, state);
}

/** The commits of this server the remote lacks, oldest first (no git: the kept state says). */
export async function waitingOwn(repo: string): Promise<OwnCommit[]> {
  return (await readOwn(repo)).commits.filter((c) => !c.landed);
}

/** Whether `a` is `b` or an ancestor of it (git's answer is exact whatever the commits' dates). */
export async function isAncestor(repo: string, a: string, b: string | undefined): Promise<boolean> {
  if (!b) return false;
  return a === b || (await git(repo, ["merge-base", "--is-ancestor", a, b])).status === 0;
}

/** The blob of `file` in `rev`, "" when it has none. */
export async function blobAt(repo: string, rev: string, file: string): Promise<string> {
  return (await git(repo, ["rev-parse", "--verify", "-q", `${rev}:${file}`])).stdout.trim();
}

/** The commits the remote lost from `seen` to `remote` (a force-push): how many, and the first ones' short ids. */
export async function removedBetween(repo: string, seen: string, remote: string): Promise<{ count: number; commits: string[] }> {
  const base = (await git(repo, ["merge-base", seen, remote])).stdout.trim();
  // Below a common commit, every commit of `seen` is one of `remote`: the walk stops there.
  const ids = (await must(repo, ["rev-list", "--max-count=1000", seen, ...(base ? ["--not", base] : [])])).split("\n").filter(Boolean);
  return { count: ids.length, commits: ids.slice(0, 20).map((id) => id.slice(0, 7)) };
}
