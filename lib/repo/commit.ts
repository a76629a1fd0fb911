import { isAbsolute, relative } from "node:path";
import { CapabilityError, invalidInput, refused } from "../plan/errors";
import { type GitTextOutput as Git, gitOut as git } from "./git-run";
import { PROJECT_DIR } from "../plan/constants";
import { controlProblem, escapeControls } from "../plan/control-chars";
import { readLedger } from "./ledger";
import { locked } from "./transition";
import { ownValue } from "../plan/own";
import { COORDINATION_EVENTS } from "../plan/events";

// Commit what the Cockpit left in the work tree: the changed files of the records' folder, with
// the moves and edits behind them (the ledger lines written since HEAD), by git's own commit of
// that folder only; then push when a remote is configured. A push that is behind says so, a
// rebase that conflicts is shown and undone, never resolved.

export interface PendingEvent {
  ts: string;
  event: string;
  by: string;
  /** The event in words: `start`, `edit: set priority=p0`, `evidence proof (test)`. */
  summary: string;
}

export interface PendingFile {
  /** Relative to the repository. */
  path: string;
  status: "modified" | "added" | "deleted";
  /** The record the file holds (its name without `.yaml`), or "" for other files of the folder. */
  record: string;
  events: PendingEvent[];
}

export interface PushResult {
  remote: string;
  branch: string;
  /** pushed: the remote has the commit; behind: the remote has commits this clone lacks; conflict: pull --rebase met a conflict (undone); failed: anything else. */
  status: "pushed" | "behind" | "conflict" | "failed";
  message: string;
  conflicts?: string[];
}

export interface CommitResult {
  dry_run: boolean;
  committed: boolean;
  files: PendingFile[];
  count: number;
  message: string;
  commit?: string;
  author?: string;
  push?: PushResult;
}

export interface CommitRequest {
  /** The first line of the message (default: what changed, in words). */
  message?: string;
  /** Push after committing when a remote is configured (default true). */
  push?: boolean;
  /** When the push is behind: `git pull --rebase`, then push again. */
  pull_rebase?: boolean;
  dry_run?: boolean;
}

export interface CommitOptions {
  /** `Name <email>`: the commit's author (and committer) instead of git's config. */
  author?: string;
  by?: string;
  /** The person or agent who asked for the commit (a signed-in user): the commit's author name. */
  actor?: string;
}


const INDEX_LOCK = /Unable to create '([^']*index\.lock)': File exists/;

/** Why a git call failed, in words; a leftover index.lock is named with how to clear it safely. */
export function gitFailure(repo: string, verb: string, r: Pick<Git, "stdout" | "stderr">): CapabilityError {
  const lock = INDEX_LOCK.exec(r.stderr)?.[1];
  if (lock) {
    const rel = relative(repo, lock);
    const shown = rel === "" || rel.startsWith("..") || isAbsolute(rel) ? lock : rel;
    return refused(
      `git ${verb} cannot lock the index: ${shown} exists, left by a git process that is still running or was stopped midway (a killed commit); check that no git process is running in this repository (ps), then remove ${shown}`,
    );
  }
  return refused(`git ${verb} failed: ${r.stderr || r.stdout.trim()}`);
}

async function mustGit(repo: string, args: string[], env?: Record<string, string>): Promise<string> {
  const r = await git(repo, args, env);
  if (r.status !== 0) throw gitFailure(repo, args[0], r);
  return r.stdout;
}

const STATUS_OF: Record<string, PendingFile["status"]> = { M: "modified", A: "added", D: "deleted", R: "added", C: "added", T: "modified", "?": "added" };

/** The changed files of the records' folder, from `git status`. */
async function changedFiles(repo: string): Promise<{ path: string; status: PendingFile["status"] }[]> {
  const r = await git(repo, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", PROJECT_DIR]);
  if (r.status !== 0) throw refused(`this is not a git work tree (${r.stderr}); the records are committed with git`);
  const out: { path: string; status: PendingFile["status"] }[] = [];
  const parts = r.stdout.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    const code = entry[1] !== " " ? entry[1] : entry[0];
    out.push({ path: entry.slice(3), status: ownValue(STATUS_OF, code) ?? "modified" });
    if (entry[0] === "R" || entry[0] === "C") i++; // the source path of a rename follows
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function summarise(event: string, payload: Record<string, string>): string {
  switch (event) {
    case "plan_start":
      return "start";
    case "plan_verify":
      return "verify";
    case "plan_done":
      return "done";
    case "plan_evidence":
      return `evidence ${payload.covers} (${payload.type})`;
    case "plan_adopt":
      return `adopt ${payload.stamps}`;
    case "plan_record_created":
      return `create: ${payload.changes}`;
    case "plan_record_edited":
      return `edit: ${payload.changes}`;
    case "plan_undo":
      return `undo of ledger line ${payload.undoes} (${payload.undone})`;
    case "plan_reclaim":
      return `taken over from ${payload.previous} (epoch ${payload.epoch})${payload.reason ? `: ${payload.reason}` : ""}`;
    case "plan_imported":
      return `imported from ${payload.source}`;
    default:
      return event;
  }
}

/** The ledger lines written since HEAD (their `head` is HEAD), by record. */
function eventsSinceHead(repo: string, head: string): Map<string, PendingEvent[]> {
  const out = new Map<string, PendingEvent[]>();
  for (const row of readLedger(repo).entries as Record<string, string>[]) {
    if (row.head !== head || COORDINATION_EVENTS.has(row.event)) continue;
    const record = row.record ?? row.issue;
    if (!record) continue;
    const { ts, event, head: _h, branch: _b, by, session: _s, ...payload } = row;
    const list = out.get(record) ?? [];
    list.push({ ts, event, by, summary: summarise(event, payload) });
    out.set(record, list);
  }
  return out;
}

function recordOf(path: string): string {
  const m = /\/(?:issues|milestones)\/([^/]+)\.yaml$/.exec(path);
  return m ? m[1] : "";
}

/** The uncommitted record changes, with the moves and edits behind them. */
export async function pendingChanges(repo: string): Promise<PendingFile[]> {
  const head = (await git(repo, ["rev-parse", "--verify", "-q", "HEAD"])).stdout.trim() || "NONE";
  const events = eventsSinceHead(repo, head);
  return (await changedFiles(repo)).map((f) => {
    const record = recordOf(f.path);
    return { ...f, record, events: record ? (events.get(record) ?? []) : [] };
  });
}

/** How many files of the records' folder differ from HEAD (0 outside a git work tree): the header's count. */
export async function uncommittedCount(repo: string): Promise<number> {
  try {
    return (await changedFiles(repo)).length;
  } catch {
    return 0;
  }
}

// The message is built from data, never by it: every value is escaped (`\x00`), a name stays on
// its line, and a prose value's own lines are indented under its entry, where git reads no trailer.
const oneLine = (text: string) => escapeControls(text).replaceAll("\n", "\\x0a");
const indented = (text: string) => escapeControls(text).replaceAll("\n", "\n    ");

/**
 * The trailer of a commit that only records moves and edits made through the Cockpit (every file's
 * change has ledger lines behind it): its committer did none of them, the `[by]` of each entry did,
 * so /people does not count its author as a person for it (lib/people/facts.ts).
 */
export const MOVES_TRAILER = "Cockpit-Records: moves";

/** The commit message: a subject, then one entry per file with what was done to it (and the moves' trailer when nothing was changed by hand). */
export function commitMessage(files: readonly PendingFile[], subject?: string): string {
  const records = files.filter((f) => f.record).map((f) => oneLine(f.record));
  const head = subject?.trim() ? oneLine(subject.trim()) : `plan: ${files.length} record change${files.length === 1 ? "" : "s"}${records.length ? ` (${records.slice(0, 5).join(", ")}${records.length > 5 ? ", …" : ""})` : ""}`;
  const body = files.map((f) => {
    const what = f.events.length ? f.events.map((e) => `${indented(e.summary)} [${oneLine(e.by)}]`).join("; ") : `${f.status} by hand`;
    return `- ${oneLine(f.record || f.path)}: ${what}`;
  });
  const movesOnly = files.length > 0 && files.every((f) => f.events.length > 0);
  return [head, "", ...body, ...(movesOnly ? ["", MOVES_TRAILER] : [])].join("\n") + "\n";
}

const AUTHOR = /^\s*([^<>]+?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/;

function authorEnv(author: string | undefined): Record<string, string> {
  if (!author) return {};
  const m = AUTHOR.exec(author);
  if (!m) throw invalidInput(`the author is 'Name <email>', not '${author}'`);
  return { GIT_AUTHOR_NAME: m[1], GIT_AUTHOR_EMAIL: m[2], GIT_COMMITTER_NAME: m[1], GIT_COMMITTER_EMAIL: m[2] };
}

/** The remote and branch a push goes to: the branch's upstream, else `origin` (or the only remote). */
async function pushTarget(repo: string): Promise<{ remote: string; branch: string } | undefined> {
  const branch = (await git(repo, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim();
  if (!branch) return undefined;
  const upstream = await git(repo, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]);
  if (upstream.status === 0) {
    const [remote, ...rest] = upstream.stdout.trim().split("/");
    return { remote, branch: rest.join("/") };
  }
  const remotes = (await git(repo, ["remote"])).stdout.split("\n").filter(Boolean);
  const remote = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0] : undefined;
  return remote ? { remote, branch } : undefined;
}

/** Push the commit; a push stopped by its time limit is a failed push, and the commit stays. */
async function push(repo: string, target: { remote: string; branch: string }, pullRebase: boolean, env: Record<string, string>): Promise<PushResult> {
  try {
    return await pushOrRebase(repo, target, pullRebase, env);
  } catch (error) {
    if (!(error instanceof CapabilityError)) throw error;
    return { ...target, status: "failed", message: `${error.message}; the commit is kept here` };
  }
}

async function pushOrRebase(repo: string, target: { remote: string; branch: string }, pullRebase: boolean, env: Record<string, string>): Promise<PushResult> {
  const attempt = () => git(repo, ["push", "--porcelain", "--end-of-options", target.remote, `HEAD:refs/heads/${target.branch}`], env);
  let r = await attempt();
  if (r.status === 0) return { ...target, status: "pushed", message: `pushed to ${target.remote}/${target.branch}` };
  const rejected = /\[rejected\]|non-fast-forward|fetch first|\(behind\)/.test(r.stdout + r.stderr);
  if (!rejected) return { ...target, status: "failed", message: `git push failed: ${r.stderr || r.stdout.trim()}` };
  if (!pullRebase) {
    return {
      ...target,
      status: "behind",
      message: `${target.remote}/${target.branch} has commits this clone does not have; the commit is kept here. Pull them with pull_rebase (git pull --rebase), then push`,
    };
  }
  const pulled = await git(repo, ["pull", "--rebase", "--no-autostash", "--end-of-options", target.remote, target.branch], env).catch(async (error: unknown) => {
    await git(repo, ["rebase", "--abort"], env).catch(() => undefined); // a pull stopped midway is undone
    throw error;
  });
  if (pulled.status !== 0) {
    const conflicts = (await git(repo, ["diff", "--name-only", "--diff-filter=U"])).stdout.split("\n").filter(Boolean);
    await git(repo, ["rebase", "--abort"], env);
    return {
      ...target,
      status: "conflict",
      message: `git pull --rebase met a conflict in ${conflicts.join(", ") || "the work tree"}; it was undone and nothing was pushed: resolve it by hand (git pull --rebase)`,
      conflicts,
    };
  }
  r = await attempt();
  if (r.status === 0) return { ...target, status: "pushed", message: `rebased on ${target.remote}/${target.branch} and pushed` };
  return { ...target, status: "failed", message: `git push failed after the rebase: ${r.stderr || r.stdout.trim()}` };
}

/**
 * Commit the records' folder (plan.commit). A dry run lists what would be committed. Runs under
 * the plan lock, so no move or edit lands between the listing and the commit.
 */
export async function commitRecords(repo: string, request: CommitRequest, o: CommitOptions = {}): Promise<CommitResult> {
  // A named caller is the author; the server's identity (--author, or git's config) commits.
  const env = { ...authorEnv(o.author), ...(o.actor ? { GIT_AUTHOR_NAME: o.actor } : {}) };
  const subjectProblem = request.message === undefined ? undefined : controlProblem("message", request.message, false);
  if (subjectProblem) throw invalidInput(`${subjectProblem} (the message is the commit's first line)`);
  const run = async (): Promise<CommitResult> => {
    const files = await pendingChanges(repo);
    const message = commitMessage(files, request.message);
    const base = { dry_run: request.dry_run === true, files, count: files.length, message };
    if (request.dry_run) return { ...base, committed: false };
    if (files.length === 0) {
      // Nothing new to commit; an earlier commit whose push was behind may still go out.
      const target = request.pull_rebase ? await pushTarget(repo) : undefined;
      return { ...base, committed: false, ...(target ? { push: await push(repo, target, true, env) } : {}) };
    }
    await mustGit(repo, ["add", "-A", "--", PROJECT_DIR], env);
    // The message goes in on standard input, kept as built (verbatim): the dry run shows what is stored.
    const done = await git(repo, ["commit", "-q", "--no-verify", "--cleanup=verbatim", "-F", "-", "--", PROJECT_DIR], env, message);
    if (done.status !== 0) {
      if (/Please tell me who you are|empty ident|user\.email/.test(done.stderr)) {
        throw refused("git knows no author here: set user.name and user.email (git config), or start the server with cockpit serve --author 'Name <email>'");
      }
      throw gitFailure(repo, "commit", done);
    }
    const commit = (await mustGit(repo, ["rev-parse", "HEAD"])).trim();
    const author = (await mustGit(repo, ["log", "-1", "--format=%an <%ae>"])).trim();
    const result: CommitResult = { ...base, committed: true, commit, author };
    const target = request.push === false ? undefined : await pushTarget(repo);
    if (target) result.push = await push(repo, target, request.pull_rebase === true, env);
    return result;
  };
  if (request.dry_run) return run();
  return locked(repo, o, run);
}
