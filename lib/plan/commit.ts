import { spawnSync } from "node:child_process";
import { invalidInput, refused } from "../errors";
import { locked } from "./transition";
import { PROJECT_DIR } from "./constants";
import { readLedger } from "./ledger";

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

interface Git {
  status: number;
  stdout: string;
  stderr: string;
}

function git(repo: string, args: string[], env: Record<string, string> = {}): Git {
  const r = spawnSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: "0" } });
  return { status: r.status ?? 1, stdout: r.stdout ?? "", stderr: (r.stderr ?? "").trim() };
}

function mustGit(repo: string, args: string[], env?: Record<string, string>): string {
  const r = git(repo, args, env);
  if (r.status !== 0) throw refused(`git ${args[0]} failed: ${r.stderr || r.stdout.trim()}`);
  return r.stdout;
}

const STATUS_OF: Record<string, PendingFile["status"]> = { M: "modified", A: "added", D: "deleted", R: "added", C: "added", T: "modified", "?": "added" };

/** The changed files of the records' folder, from `git status`. */
function changedFiles(repo: string): { path: string; status: PendingFile["status"] }[] {
  const r = git(repo, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", PROJECT_DIR]);
  if (r.status !== 0) throw refused(`this is not a git work tree (${r.stderr}); the records are committed with git`);
  const out: { path: string; status: PendingFile["status"] }[] = [];
  const parts = r.stdout.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    const code = entry[1] !== " " ? entry[1] : entry[0];
    out.push({ path: entry.slice(3), status: STATUS_OF[code] ?? "modified" });
    if (entry[0] === "R" || entry[0] === "C") i++; // the source path of a rename follows
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function summarise(event: string, payload: Record<string, string>): string {
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
    default:
      return event;
  }
}

/** The ledger lines written since HEAD (their `head` is HEAD), by record. */
function eventsSinceHead(repo: string, head: string): Map<string, PendingEvent[]> {
  const out = new Map<string, PendingEvent[]>();
  for (const row of readLedger(repo).entries as Record<string, string>[]) {
    if (row.head !== head) continue;
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
export function pendingChanges(repo: string): PendingFile[] {
  const head = git(repo, ["rev-parse", "--verify", "-q", "HEAD"]).stdout.trim() || "NONE";
  const events = eventsSinceHead(repo, head);
  return changedFiles(repo).map((f) => {
    const record = recordOf(f.path);
    return { ...f, record, events: record ? (events.get(record) ?? []) : [] };
  });
}

/** How many files of the records' folder differ from HEAD (0 outside a git work tree): the header's count. */
export function uncommittedCount(repo: string): number {
  try {
    return changedFiles(repo).length;
  } catch {
    return 0;
  }
}

/** The commit message: a subject, then one line per file with what was done to it. */
export function commitMessage(files: readonly PendingFile[], subject?: string): string {
  const records = files.filter((f) => f.record).map((f) => f.record);
  const head = subject?.trim() || `plan: ${files.length} record change${files.length === 1 ? "" : "s"}${records.length ? ` (${records.slice(0, 5).join(", ")}${records.length > 5 ? ", …" : ""})` : ""}`;
  const body = files.map((f) => {
    const what = f.events.length ? f.events.map((e) => `${e.summary} [${e.by}]`).join("; ") : `${f.status} by hand`;
    return `- ${f.record || f.path}: ${what}`;
  });
  return [head, "", ...body].join("\n") + "\n";
}

const AUTHOR = /^\s*([^<>]+?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/;

function authorEnv(author: string | undefined): Record<string, string> {
  if (!author) return {};
  const m = AUTHOR.exec(author);
  if (!m) throw invalidInput(`the author is 'Name <email>', not '${author}'`);
  return { GIT_AUTHOR_NAME: m[1], GIT_AUTHOR_EMAIL: m[2], GIT_COMMITTER_NAME: m[1], GIT_COMMITTER_EMAIL: m[2] };
}

/** The remote and branch a push goes to: the branch's upstream, else `origin` (or the only remote). */
function pushTarget(repo: string): { remote: string; branch: string } | undefined {
  const branch = git(repo, ["symbolic-ref", "--short", "-q", "HEAD"]).stdout.trim();
  if (!branch) return undefined;
  const upstream = git(repo, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]);
  if (upstream.status === 0) {
    const [remote, ...rest] = upstream.stdout.trim().split("/");
    return { remote, branch: rest.join("/") };
  }
  const remotes = git(repo, ["remote"]).stdout.split("\n").filter(Boolean);
  const remote = remotes.includes("origin") ? "origin" : remotes.length === 1 ? remotes[0] : undefined;
  return remote ? { remote, branch } : undefined;
}

function push(repo: string, target: { remote: string; branch: string }, pullRebase: boolean, env: Record<string, string>): PushResult {
  const attempt = () => git(repo, ["push", "--porcelain", target.remote, `HEAD:refs/heads/${target.branch}`], env);
  let r = attempt();
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
  const pulled = git(repo, ["pull", "--rebase", "--no-autostash", target.remote, target.branch], env);
  if (pulled.status !== 0) {
    const conflicts = git(repo, ["diff", "--name-only", "--diff-filter=U"]).stdout.split("\n").filter(Boolean);
    git(repo, ["rebase", "--abort"], env);
    return {
      ...target,
      status: "conflict",
      message: `git pull --rebase met a conflict in ${conflicts.join(", ") || "the work tree"}; it was undone and nothing was pushed: resolve it by hand (git pull --rebase)`,
      conflicts,
    };
  }
  r = attempt();
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
  const run = (): CommitResult => {
    const files = pendingChanges(repo);
    const message = commitMessage(files, request.message);
    const base = { dry_run: request.dry_run === true, files, count: files.length, message };
    if (request.dry_run) return { ...base, committed: false };
    if (files.length === 0) {
      // Nothing new to commit; an earlier commit whose push was behind may still go out.
      const target = request.pull_rebase ? pushTarget(repo) : undefined;
      return { ...base, committed: false, ...(target ? { push: push(repo, target, true, env) } : {}) };
    }
    mustGit(repo, ["add", "-A", "--", PROJECT_DIR], env);
    const done = git(repo, ["commit", "-q", "--no-verify", "-m", message, "--", PROJECT_DIR], env);
    if (done.status !== 0) {
      const why = /Please tell me who you are|empty ident|user\.email/.test(done.stderr)
        ? "git knows no author here: set user.name and user.email (git config), or start the server with cockpit serve --author 'Name <email>'"
        : `git commit failed: ${done.stderr || done.stdout.trim()}`;
      throw refused(why);
    }
    const commit = mustGit(repo, ["rev-parse", "HEAD"]).trim();
    const author = mustGit(repo, ["log", "-1", "--format=%an <%ae>"]).trim();
    const result: CommitResult = { ...base, committed: true, commit, author };
    const target = request.push === false ? undefined : pushTarget(repo);
    if (target) result.push = push(repo, target, request.pull_rebase === true, env);
    return result;
  };
  if (request.dry_run) return run();
  return locked(repo, o, run);
}
