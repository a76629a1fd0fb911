import { lstatSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { CapabilityError, refused } from "../plan/errors";
import { LEDGER_FILE } from "../plan/constants";
import { stampNow } from "./transition";
import { appendLedger, envelope } from "./ledger";
import { readStateFile } from "./state-path";
import { markUndone, readUndo } from "./undo-store";
import { COMMAND_TRAILER, type Out, git, gitFolders, must, oneLine } from "./command-commit";

// A following server's commands, each one a commit on the remote: the records a command wrote are
// committed at once (that file only, the move as its message, the person as its author), then
// fetched, rebased and pushed. The remote decides: when it already changed the same record, the
// command is undone byte for byte (record, ledger line and commit) and refused. Rebasing is done on
// a private index, never in the work tree, so nobody's uncommitted changes are touched.

export interface FollowTarget {
  remote: string;
  branch: string;
}

export interface PushOutcome {
  /** pushed: the remote has every commit; offline: the remote could not be reached (they wait); conflict: the remote changed a record a waiting commit changes. */
  status: "pushed" | "offline" | "conflict" | "failed";
  message: string;
  /** Commits the remote lacks after this try. */
  waiting: number;
  /** pushed, and HEAD is the remote's tip now (nothing ahead or behind). */
  level?: boolean;
  /** The conflicting waiting commit, and the remote commit that changed its record first. */
  conflict?: { local: string; remote_commit: string; remote_author: string; record: string; own?: boolean };
  /** failed: the remote's tip as last fetched, and its author (what the rejected pushes met). */
  remote?: { commit: string; author: string };
  /** Waiting commands (commits with a Cockpit-Command trailer) the remote decided against: dropped from HEAD; their ledger lines are still to be undone (undoLedgerOf). */
  undone?: UndoneCommit[];
}

/** A waiting command of this server undone because the remote changed its record first. */
export interface UndoneCommit {
  /** Its commit's subject: `BK-020: start`. */
  command: string;
  /** The command's trailer, and its commit's message (whose details name its ledger lines). */
  trailer: string;
  message: string;
  record: string;
  remote_commit: string;
  remote_author: string;
}

/** The housekeeping commit and fetch leave out (`git maintenance run --auto`): the follow loop's, never a command's. */
export async function tidy(repo: string): Promise<void> {
  await git(repo, ["maintenance", "run", "--auto", "--quiet"]);
}

const lines = (s: string) => s.split("\n").filter(Boolean);
const remoteRef = (t: FollowTarget) => `refs/remotes/${t.remote}/${t.branch}`;

/** The remote and branch to follow: `REMOTE/BRANCH` as given, else the upstream, else `origin/<branch>`. */
export async function followTarget(repo: string, spec?: string): Promise<FollowTarget> {
  const remotes = lines((await git(repo, ["remote"])).stdout);
  if (spec) {
    const remote = remotes.filter((r) => spec.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
    if (!remote) throw refused(`--follow ${spec}: no remote of this clone is named by it (remotes: ${remotes.join(", ") || "none"})`);
    return { remote, branch: spec.slice(remote.length + 1) };
  }
  const upstream = await git(repo, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]);
  if (upstream.status === 0) {
    const name = upstream.stdout.trim();
    const remote = remotes.filter((r) => name.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
    if (remote) return { remote, branch: name.slice(remote.length + 1) };
  }
  const branch = (await git(repo, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim();
  if (!branch) throw refused("--follow needs a branch checked out (HEAD is detached)");
  return { remote: "origin", branch };
}


/**
 * A remote-tracking ref's commit, read from its own file when it has one (no git process for a
 * value git keeps in a file); else git's answer (packed refs, another ref store).
 */
async function remoteTip(repo: string, t: FollowTarget): Promise<string | undefined> {
  const ref = remoteRef(t);
  if (/^[\w./-]+$/.test(ref) && !ref.split("/").some((part) => part === "" || part.startsWith(".") || part.endsWith(".lock"))) {
    try {
      const path = join((await gitFolders(repo)).commonDir, ref);
      if (lstatSync(path).isFile()) {
        const id = readFileSync(path, "utf8").trim();
        if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(id)) return id;
      }
    } catch {
      /* no file of its own: git knows */
    }
  }
  return revParse(repo, ref);
}


/** Undo `commit` (HEAD, whose parent is `parent`): HEAD, index and the files back as they were before it. */
export async function undoCommit(repo: string, commit: string, parent: string, files: readonly string[]): Promise<void> {
  await must(repo, ["update-ref", "-m", "cockpit: undo a command the remote refused", "HEAD", parent, commit]);
  await restoreFiles(repo, parent, files);
}

/** `files` (index and work tree) back as `rev` has them: checked out, or removed when it has none. */
export async function restoreFiles(repo: string, parent: string, files: readonly string[]): Promise<void> {
  if (files.length === 0) return;
  const inParent = new Set(lines(await must(repo, ["ls-tree", "-r", "--name-only", parent, "--", ...files])));
  const kept = files.filter((f) => inParent.has(f));
  if (kept.length) await must(repo, ["checkout", "-q", parent, "--", ...kept]);
  const gone = files.filter((f) => !inParent.has(f));
  if (gone.length) {
    await must(repo, ["rm", "-q", "--cached", "--ignore-unmatch", "--", ...gone]);
    for (const f of gone) {
      try {
        unlinkSync(join(repo, f));
      } catch {
        /* already gone */
      }
    }
  }
}

/** Fetch the followed branch; false when the remote cannot be reached. */
export async function fetchTarget(repo: string, t: FollowTarget): Promise<{ ok: boolean; message: string }> {
  try {
    const r = await git(repo, ["fetch", "--quiet", "--no-tags", "--end-of-options", t.remote, `+refs/heads/${t.branch}:${remoteRef(t)}`]);
    if (r.status === 0) return { ok: true, message: `fetched ${t.remote}/${t.branch}` };
    return { ok: false, message: `git fetch ${t.remote} failed: ${r.stderr || r.stdout.trim()}` };
  } catch (error) {
    if (error instanceof CapabilityError) return { ok: false, message: error.message };
    throw error;
  }
}

export async function revParse(repo: string, rev: string): Promise<string | undefined> {
  const r = await git(repo, ["rev-parse", "--verify", "-q", `${rev}^{commit}`]);
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Commits HEAD has that the remote branch (as last fetched) lacks, oldest first. */
export async function waitingCommits(repo: string, t: FollowTarget): Promise<string[]> {
  return waitingSince(repo, await revParse(repo, remoteRef(t)));
}

const waitingSince = async (repo: string, remote: string | undefined) => lines(await must(repo, ["rev-list", "--reverse", "HEAD", ...(remote ? ["--not", remote] : [])]));

/** Behind and ahead counts of HEAD against the fetched remote branch. */
export async function aheadBehind(repo: string, t: FollowTarget): Promise<{ ahead: number; behind: number }> {
  const remote = await revParse(repo, remoteRef(t));
  if (!remote) return { ahead: (await waitingCommits(repo, t)).length, behind: 0 };
  const [ahead, behind] = (await must(repo, ["rev-list", "--left-right", "--count", `HEAD...${remote}`])).trim().split(/\s+/).map(Number);
  return { ahead, behind };
}

/** Move HEAD (and the files it changes) to `to`; refused by git when that would overwrite an uncommitted change. */
export async function moveHead(repo: string, to: string): Promise<{ ok: boolean; message: string }> {
  const head = await revParse(repo, "HEAD");
  if (head === to) return { ok: true, message: "up to date" };
  const r = await git(repo, ["read-tree", "-m", "-u", "HEAD", to]);
  if (r.status !== 0) return { ok: false, message: r.stderr || r.stdout.trim() };
  await must(repo, ["update-ref", "-m", "cockpit: follow the remote", "HEAD", to, ...(head ? [head] : [])]);
  return { ok: true, message: `moved to ${to.slice(0, 7)}` };
}

const changedBy = async (repo: string, commit: string) => lines(await must(repo, ["diff-tree", "--no-commit-id", "--name-only", "-r", "--root", commit]));

/** Replay `commits` on `onto` through a private index, keeping each one's author, date and message. */
async function replay(repo: string, commits: readonly string[], onto: string): Promise<string> {
  let tip = onto;
  const env = { GIT_INDEX_FILE: join((await gitFolders(repo)).gitDir, `cockpit-follow-index-${process.pid}`) };
  try {
    for (const c of commits) {
      await must(repo, ["read-tree", tip], env);
      for (const f of await changedBy(repo, c)) {
        const entry = (await must(repo, ["ls-tree", c, "--", f])).trim();
        if (entry) {
          const [meta] = entry.split("\t");
          const [mode, , blob] = meta.split(" ");
          await must(repo, ["update-index", "--add", "--cacheinfo", `${mode},${blob},${f}`], env);
        } else await must(repo, ["update-index", "--force-remove", "--", f], env);
      }
      const tree = (await must(repo, ["write-tree"], env)).trim();
      const [an, ae, ad, cn, ce] = (await must(repo, ["log", "-1", "--format=%an%x00%ae%x00%ad%x00%cn%x00%ce", c])).split("\0").map((s) => s.replace(/\n$/, ""));
      const message = await must(repo, ["log", "-1", "--format=%B", c]);
      const who = { GIT_AUTHOR_NAME: an, GIT_AUTHOR_EMAIL: ae, GIT_AUTHOR_DATE: ad, GIT_COMMITTER_NAME: cn, GIT_COMMITTER_EMAIL: ce };
      tip = (await must(repo, ["commit-tree", tree, "-p", tip, "-F", "-"], who, message.replace(/\n+$/, "\n"))).trim();
    }
  } finally {
    try {
      unlinkSync(env.GIT_INDEX_FILE);
    } catch {
      /* none made */
    }
  }
  return tip;
}

/** The remote commit (after `base`) that last changed one of `files`, with its author. */
async function remoteChange(repo: string, base: string | undefined, remote: string, files: readonly string[]): Promise<{ commit: string; author: string; file: string } | undefined> {
  const range = base ? [`${base}..${remote}`] : [remote];
  const changed = new Set(lines(await must(repo, ["diff", "--name-only", base ?? (await emptyTree(repo)), remote, "--", ...files])));
  const file = files.find((f) => changed.has(f));
  if (!file) return undefined;
  const [commit, author] = (await must(repo, ["log", "-1", "--format=%H%x00%an <%ae>", ...range, "--", file])).trim().split("\0");
  return { commit, author, file };
}

/** Each commit of `range` with its command's trailer (commits without one are left out). */
async function commandsOf(repo: string, range: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const text = await must(repo, ["log", `--format=%H%x00%(trailers:key=${COMMAND_TRAILER},valueonly,separator=%x2C)%x01`, ...range]);
  for (const entry of text.split("\x01")) {
    const [commit, command] = entry.trim().split("\0");
    if (commit && command?.trim()) out.set(commit, command.trim());
  }
  return out;
}

/**
 * Commits of HEAD the remote lacks by name but has as the same command, rebased (one trailer): a
 * push that landed after its server died. Another server's commit of the same change is not one.
 */
async function landedCopies(repo: string, base: string | undefined, remote: string): Promise<Set<string>> {
  const ours = await commandsOf(repo, ["HEAD", "--not", remote]);
  if (ours.size === 0) return new Set();
  const theirs = new Set((await commandsOf(repo, base ? [`${base}..${remote}`] : [remote])).values());
  return new Set([...ours].filter(([, command]) => theirs.has(command)).map(([commit]) => commit));
}

const emptyTree = async (repo: string) => (await must(repo, ["hash-object", "-t", "tree", "/dev/null"])).trim();

interface Conflict {
  commit: string;
  author: string;
  file: string;
}

/**
 * Which waiting commits the remote decided against (it changed one of their files since `base`):
 * the commands (a Cockpit-Command trailer, not `own`) to undo, with every later command that
 * touches a file of one undone (its copy holds the undone change); the first such commit made by
 * hand, which pauses following and undoes nothing; and whether `own`, the command being answered,
 * is one (its caller undoes and refuses it).
 */
async function decide(
  repo: string,
  waiting: readonly string[],
  base: string | undefined,
  remote: string,
  own: string | undefined,
): Promise<{ drop: { commit: string; theirs: Conflict; undone: UndoneCommit }[]; hand?: { commit: string; theirs: Conflict }; own?: Conflict }> {
  const trailers = await commandsOf(repo, ["--no-walk", ...waiting]);
  const drop: { commit: string; theirs: Conflict; undone: UndoneCommit; files: string[] }[] = [];
  let ownConflict: Conflict | undefined;
  for (const c of waiting) {
    const files = await changedBy(repo, c);
    const after = drop.find((d) => d.files.some((f) => files.includes(f)));
    const theirs = (await remoteChange(repo, base, remote, files)) ?? after?.theirs;
    if (!theirs) continue;
    const trailer = trailers.get(c);
    if (!trailer) return { drop: [], hand: { commit: c, theirs } };
    if (trailer === own) {
      ownConflict = theirs;
      continue;
    }
    const message = await must(repo, ["log", "-1", "--format=%B", c]);
    drop.push({ commit: c, theirs, files, undone: { command: message.split("\n")[0], trailer, message, record: theirs.file, remote_commit: theirs.commit, remote_author: theirs.author } });
  }
  return { drop, own: ownConflict };
}

const DETAIL = /^ {4}(\S+) at (\S+) by (.*)$/;
const DETAIL_RECORD = /^ {6}(?:record|issue): (.*)$/;

/**
 * Undo the ledger lines of a command whose commit was dropped (its message's details name them):
 * a `plan_undo` line for each, as plan.undo writes, so the later lines keep their numbers (their
 * ledger_id) and the history drops the move. Lines already undone are left; the lines undone.
 */
export async function undoLedgerOf(repo: string, message: string, by = "cockpit/follow"): Promise<{ id: number; record: string; event: string }[]> {
  const named: { event: string; ts: string; by: string; record: string }[] = [];
  for (const line of message.split("\n")) {
    const d = DETAIL.exec(line);
    if (d) named.push({ event: d[1], ts: d[2], by: d[3], record: "" });
    const r = DETAIL_RECORD.exec(line);
    if (r && named.length && !named[named.length - 1].record) named[named.length - 1].record = r[1];
  }
  if (named.length === 0) return [];
  // A line's number is its place in the file (as appendLedger counts), not among the parsed ones.
  const rows = (readStateFile(repo, LEDGER_FILE)?.toString("utf8") ?? "").split("\n").map((text, i) => {
    try {
      return { id: i + 1, row: JSON.parse(text) as Record<string, unknown> };
    } catch {
      return { id: i + 1, row: {} as Record<string, unknown> };
    }
  });
  const done = new Set(rows.filter((r) => r.row.event === "plan_undo").map((r) => Number(r.row.undoes)));
  const text = (v: unknown) => oneLine(typeof v === "string" ? v : "");
  const found: { id: number; record: string; event: string }[] = [];
  for (const n of named) {
    const hit = rows.findLast(
      (r) => !done.has(r.id) && !found.some((f) => f.id === r.id) && text(r.row.event) === n.event && text(r.row.ts) === n.ts && text(r.row.by) === n.by && text(r.row.record ?? r.row.issue) === n.record,
    );
    if (hit) found.push({ id: hit.id, record: String(hit.row.record ?? hit.row.issue), event: String(hit.row.event) });
  }
  if (found.length === 0) return [];
  const env = await envelope(repo, stampNow(), by);
  const last = appendLedger(
    repo,
    found.map((f) => ({ ...env, event: "plan_undo", payload: { record: f.record, undoes: String(f.id), undone: f.event } })),
  );
  for (const [i, f] of found.entries()) {
    const u = await readUndo(repo, f.id);
    if (u) markUndone(repo, u, last - found.length + 1 + i);
  }
  return found;
}

/** What a push that git refused says when the remote's branch is not where the push expected it. */
const BEATEN = /\[(?:remote )?rejected\]|non-fast-forward|fetch first|stale info|\(behind\)|failed to (?:update|lock) ref|cannot lock ref|but expected/;

/**
 * One push of `tip` to the followed branch: pushed (the remote-tracking ref moved to it), offline
 * (the remote cannot be reached, or refused for another reason than a moved branch: `waiting`
 * commits wait), or rejected because the remote's branch moved (fetch and try again).
 */
async function pushTip(repo: string, t: FollowTarget, tip: string, waiting: number): Promise<{ outcome: PushOutcome; rejected?: undefined } | { outcome?: undefined; rejected: string }> {
  let pushed: Out;
  try {
    pushed = await git(repo, ["push", "--porcelain", "--end-of-options", t.remote, `${tip}:refs/heads/${t.branch}`]);
  } catch (error) {
    if (!(error instanceof CapabilityError)) throw error;
    return { outcome: { status: "offline", message: `${error.message}; waiting to be pushed at the next sync`, waiting } };
  }
  if (pushed.status === 0) {
    // git push moves the remote-tracking ref itself when the remote's fetch refspec maps the branch.
    if ((await remoteTip(repo, t)) !== tip) await must(repo, ["update-ref", remoteRef(t), tip]);
    return { outcome: { status: "pushed", message: `pushed to ${t.remote}/${t.branch}`, waiting: 0, level: true } };
  }
  const said = pushed.stderr || pushed.stdout.trim();
  // Rejected (by the ref's rules or the remote's hooks), or beaten to the ref by another push
  // landing at the same moment: the caller fetches and tries again.
  if (!BEATEN.test(pushed.stdout + pushed.stderr)) return { outcome: { status: "offline", message: `git push ${t.remote} failed: ${said}; waiting to be pushed at the next sync`, waiting } };
  return { rejected: said };
}

/**
 * Push what waits: up to 3 tries of fetch, rebase (on a private index), push. A remote that
 * cannot be reached leaves the commits waiting; a remote that changed a record a waiting commit
 * changes is a conflict, and nothing is pushed. `made`: the commit a command just made on
 * `parent`; when the remote's branch, as last fetched, is that parent (nothing else waits), the
 * commit is pushed at once, without a fetch first: a remote that moved since refuses it (not a
 * fast-forward), and it is then fetched and decided as any other.
 */
export async function pushWaiting(repo: string, t: FollowTarget, own?: string, made?: { commit: string; parent: string }): Promise<PushOutcome> {
  let last = "";
  const undone: UndoneCommit[] = [];
  const told = (o: PushOutcome): PushOutcome => (undone.length ? { ...o, undone } : o);
  let tries = 0;
  if (made && (await remoteTip(repo, t)) === made.parent) {
    tries = 1;
    const pushed = await pushTip(repo, t, made.commit, 1);
    if (pushed.outcome) return pushed.outcome;
    last = pushed.rejected;
  }
  // The push at once, when it was tried, is the first of the 3.
  for (let attempt = tries; attempt < 3; attempt++) {
    const fetched = await fetchTarget(repo, t);
    if (!fetched.ok) return told({ status: "offline", message: `${fetched.message}; waiting to be pushed at the next sync`, waiting: (await waitingCommits(repo, t)).length });
    const remote = await revParse(repo, remoteRef(t));
    let waiting = await waitingSince(repo, remote);
    if (waiting.length === 0) return told({ status: "pushed", message: `nothing waits; ${t.remote}/${t.branch} has every commit`, waiting: 0 });
    const head = (await revParse(repo, "HEAD"))!;
    const base = remote ? (await git(repo, ["merge-base", "HEAD", remote])).stdout.trim() || undefined : undefined;
    let tip = head;
    if (remote && base !== remote) {
      // A push that landed after its server died (killed mid-push) left its commit here, rebased there.
      const landed = await landedCopies(repo, base, remote);
      waiting = waiting.filter((c) => !landed.has(c));
      if (waiting.length === 0) {
        const moved = await moveHead(repo, remote);
        return told({ status: "pushed", message: `${t.remote}/${t.branch} already has every change waiting here${moved.ok ? "" : ` (this clone stays on its own copy until its uncommitted changes are gone: ${moved.message})`}`, waiting: 0 });
      }
      const verdict = await decide(repo, waiting, base, remote, own);
      const conflictOf = (c: string, theirs: Conflict, note = ""): PushOutcome => ({
        status: "conflict",
        message: `${t.remote}/${t.branch} changed ${theirs.file} first, in ${theirs.commit.slice(0, 7)} by ${theirs.author}${note}`,
        waiting: waiting.length,
        conflict: { local: c, remote_commit: theirs.commit, remote_author: theirs.author, record: theirs.file },
      });
      // A commit made by hand is never resolved: following pauses, and nothing is undone.
      if (verdict.hand) return told(conflictOf(verdict.hand.commit, verdict.hand.theirs));
      if (verdict.drop.length) {
        // The waiting commands the remote decided against leave HEAD: the others are replayed on
        // the commit they started from, and the files follow (a hand edit of one holds it: paused).
        const dropped = new Set(verdict.drop.map((d) => d.commit));
        const kept = waiting.filter((c) => !dropped.has(c));
        const moved = base ? await moveHead(repo, await replay(repo, kept, base)) : { ok: false, message: "this clone shares no commit with the remote" };
        const first = verdict.drop[0];
        if (!moved.ok) return told(conflictOf(first.commit, first.theirs, `; undoing this server's ${first.undone.command} is held: ${moved.message}`));
        undone.push(...verdict.drop.map((d) => d.undone));
        waiting = await waitingSince(repo, remote);
        if (waiting.length === 0) return told({ status: "pushed", message: `nothing waits; ${t.remote}/${t.branch} has every commit`, waiting: 0 });
      }
      if (verdict.own) {
        const c = conflictOf(waiting[waiting.length - 1], verdict.own);
        return told({ ...c, conflict: { ...c.conflict!, own: true } });
      }
      tip = await replay(repo, waiting, remote);
    }
    const pushed = await pushTip(repo, t, tip, waiting.length);
    if (pushed.outcome?.status === "offline") return told(pushed.outcome);
    if (pushed.outcome) {
      const moved = tip === head ? { ok: true, message: "" } : await moveHead(repo, tip);
      const note = moved.ok ? "" : ` (this clone stays on its own copy until its uncommitted changes are gone: ${moved.message})`;
      return told({ ...pushed.outcome, message: `${pushed.outcome.message}${note}`, level: moved.ok });
    }
    last = pushed.rejected;
  }
  const tip = await revParse(repo, remoteRef(t));
  const author = tip ? (await must(repo, ["log", "-1", "--format=%an <%ae>", tip])).trim() : "";
  return told({
    status: "failed",
    message: `the push to ${t.remote}/${t.branch} was rejected 3 times (${last})`,
    waiting: (await waitingCommits(repo, t)).length,
    ...(tip ? { remote: { commit: tip, author } } : {}),
  });
}
