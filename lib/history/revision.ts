import { invalidInput } from "../plan/errors";
import { gitText } from "../repo/git-run";
import { dayName, isoOfSeconds } from "../repo/git-time";
import { processWide } from "../process-wide";

export { isoOfSeconds };

/** Where an answer was read: the revision as asked, the commit it named, and that commit's time. */
export interface Revision {
  rev: string;
  /** The full sha; null for the empty plan before the first commit (or the files as they are now). */
  commit: string | null;
  /** ISO UTC, seconds; null with `commit`. */
  committed_at: string | null;
}

/** What git says of the folder a repository's plan lives in. */
export interface RepoGit {
  /** The folder's path inside the work tree, with a trailing slash ("" at the top). */
  prefix: string;
  isShallow: boolean;
  /** Bytes of an object id: 20 (SHA-1) or 32 (SHA-256). */
  idBytes: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The forms `at`, `since` and `until` accept, for the refusal of any other. */
export const REVISION_FORMS =
  "a commit id (4 to 64 hex digits), a branch, tag or ref name (main, v1.2, origin/main, refs/heads/main, HEAD) optionally followed by ~N or ^N (HEAD~3, main^2), a date (2026-11-30) or an ISO time (2026-11-30T09:00:00Z)";

const HEX = /^[0-9a-fA-F]{4,64}$/;
/** What may follow a ref name: ~N and ^N steps (N optional, at most 9 digits), and ^{commit}. */
const SUFFIXES = /^(?:~\d{0,9}|\^\d{0,9}|\^\{commit\})*$/;
// ASCII controls, DEL, space and the characters git gives a meaning in a revision.
const REF_FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

/** Whether `name` is a ref name as `git check-ref-format --allow-onelevel` allows it (its rules, in code). */
export function isRefName(name: string): boolean {
  if (name === "" || name === "@" || REF_FORBIDDEN.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((c) => !c.startsWith(".") && !c.endsWith(".lock"));
}

/**
 * Refuses `at` unless it has one of REVISION_FORMS: no form of git's own that searches commit
 * messages (`:/text`, `^{/regex}`), reads the reflog (`@{1}`), names a range or a path, whatever
 * it costs git, reaches git.
 */
export function checkRevisionForm(at: string): void {
  if (DATE.test(at) || TIME.test(at) || HEX.test(at)) return;
  const notAForm = () => invalidInput(`'${at.replace(/[\x00-\x1f\x7f]/g, "?")}' is not a revision the Cockpit reads; give ${REVISION_FORMS}`);
  // git would read a name that starts with "-" as an option (--output=FILE writes); no revision is spelt so.
  if (at.startsWith("-")) throw notAForm();
  const steps = at.search(/[~^]/);
  const name = steps < 0 ? at : at.slice(0, steps);
  if (isRefName(name) && SUFFIXES.test(at.slice(name.length))) return;
  throw notAForm();
}


/** The UTC day of an instant, YYYY-MM-DD. */
export function dayOfSeconds(seconds: number): string {
  return Number.isSafeInteger(seconds) ? dayName(Math.floor(seconds / 86_400)) : new Date(seconds * 1000).toISOString().slice(0, 10);
}

/**
 * `at` as an instant when it is a date or an ISO time (a date alone: the end of that UTC day),
 * in seconds; undefined when it is a revision name. A date that does not exist is refused.
 */
export function instantOf(at: string): number | undefined {
  const d = DATE.exec(at);
  if (d) {
    const ms = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), 23, 59, 59);
    if (new Date(ms).toISOString().slice(0, 10) !== at) throw invalidInput(`'${at}' is not a date; a date is YYYY-MM-DD, as 2026-11-30`);
    return ms / 1000;
  }
  const t = TIME.exec(at);
  if (!t) return undefined;
  const ms = Date.parse(t[7] ? at : `${at}Z`);
  const day = Date.UTC(Number(t[1]), Number(t[2]) - 1, Number(t[3]));
  if (Number.isNaN(ms) || new Date(day).toISOString().slice(0, 10) !== at.slice(0, 10) || Number(t[4]) > 23 || Number(t[5]) > 59 || Number(t[6] ?? 0) > 59) {
    throw invalidInput(`'${at}' is not a time; an ISO time is YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM], as 2026-11-30T09:00:00Z`);
  }
  return Math.floor(ms / 1000);
}

/**
 * What git says of `repo`'s folder, or a refusal naming why there is no history to read (`asked`:
 * the revision the question named, if it named one).
 */
export async function repoGit(repo: string, asked?: string): Promise<RepoGit> {
  const out = await gitText(repo, ["rev-parse", "--show-prefix", "--is-shallow-repository", "--show-object-format"]);
  if (out === undefined) {
    throw invalidInput(
      asked === undefined
        ? "this repository's folder is not a git repository, so it has no history to read; the answers without a revision read the files as they are"
        : `this repository's folder is not a git repository, so it has no revision '${asked}'; leave out the revision to read the files as they are`,
    );
  }
  const [prefix = "", shallow = "false", format = "sha1"] = out.split("\n");
  return { prefix, isShallow: shallow === "true", idBytes: format === "sha256" ? 32 : 20 };
}

/** The reads of a first-parent history under way, by repository: questions asked at once share one git log. */
const historiesReading = processWide("first-parent-reading", () => new Map<string, Promise<[string, number][]>>());

/** HEAD's first-parent history, newest first: [sha, committer time in seconds]. Empty before the first commit. */
export function firstParentHistory(repo: string): Promise<[string, number][]> {
  let reading = historiesReading.get(repo);
  if (!reading) {
    reading = readFirstParentHistory(repo).finally(() => historiesReading.delete(repo));
    historiesReading.set(repo, reading);
  }
  return reading;
}

async function readFirstParentHistory(repo: string): Promise<[string, number][]> {
  const out = await gitText(repo, ["log", "--first-parent", "--format=%H %ct", "HEAD", "--"]);
  if (out === undefined) return [];
  const list: [string, number][] = [];
  for (const line of out.split("\n")) {
    if (line === "") continue;
    const space = line.indexOf(" ");
    list.push([line.slice(0, space), Number(line.slice(space + 1))]);
  }
  return list;
}

/** Commit times by sha (a commit never changes). */
const timesKept = processWide("commit-times", () => new Map<string, number>());

/** The commit time of each commit (full ids), asked of git in one run. */
export async function commitTimes(repo: string, commits: readonly string[]): Promise<number[]> {
  const missing = [...new Set(commits.filter((c) => !timesKept.has(c)))];
  if (missing.length > 0) {
    for (const c of missing) if (!/^[0-9a-f]{40,64}$/.test(c)) throw invalidInput(`no commit ${c} in this repository`);
    // git prints the time alone, whatever the commit object holds (a message of any size).
    const out = await gitText(repo, ["log", "--no-walk=unsorted", "--format=%H %ct", "--stdin"], { input: missing.join("\n") + "\n" });
    if (timesKept.size > 100_000) timesKept.clear();
    for (const line of (out ?? "").split("\n")) {
      const [sha, time] = line.split(" ");
      if (sha && time) timesKept.set(sha, Number(time));
    }
    for (const c of missing) if (!timesKept.has(c)) throw invalidInput(`no commit ${c} in this repository`);
  }
  return commits.map((c) => timesKept.get(c)!);
}

function notFoundRevision(git: RepoGit, rev: string): Error {
  if (git.isShallow) {
    return invalidInput(`no revision '${rev}' in this repository: the clone is shallow and may not hold it; fetch the history (git fetch --unshallow) or ask for a later revision`);
  }
  return invalidInput(`no revision '${rev}' in this repository`);
}

/**
 * The commit `at` names: a git revision (sha, branch, tag, HEAD~3), or a date or ISO time (the last
 * commit at or before it on HEAD's first-parent history; null before the first commit).
 */
export async function resolveRevision(repo: string, at: string, given?: RepoGit): Promise<Revision> {
  checkRevisionForm(at);
  const instant = instantOf(at);
  const git = given ?? (await repoGit(repo, at));
  if (instant !== undefined) {
    const history = await firstParentHistory(repo);
    const hit = history.find(([, time]) => time <= instant);
    if (hit) return { rev: at, commit: hit[0], committed_at: isoOfSeconds(hit[1]) };
    if (git.isShallow && history.length > 0) {
      throw invalidInput(`'${at}' is before the oldest commit this shallow clone holds (${isoOfSeconds(history[history.length - 1][1])}); fetch the history (git fetch --unshallow)`);
    }
    return { rev: at, commit: null, committed_at: null };
  }
  // checkRevisionForm refused "-…" and control characters; kept as the last guard before git's argv.
  if (at.startsWith("-") || /[\0\n\r]/.test(at)) throw notFoundRevision(git, at);
  const out = await gitText(repo, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${at}^{commit}`]);
  const sha = out?.trim();
  if (!sha || !/^[0-9a-f]{40,64}$/.test(sha)) throw notFoundRevision(git, at);
  const [time] = await commitTimes(repo, [sha]);
  return { rev: at, commit: sha, committed_at: isoOfSeconds(time) };
}
