import { lstatSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { CapabilityError, refused } from "../plan/errors";
import { LEDGER_FILE } from "../plan/constants";
import { stampNow } from "./transition";
import { appendLedger, envelope } from "./ledger";
import { readStateFile } from "./state-path";
import { markUndone, readUndo } from "./undo-store";
import { type Out, dirtyRecords, git, gitFolders, must } from "./command-commit";
import { type OwnCommit, blobAt, isAncestor, readOwn, removedBetween, waitingOwn, writeOwn } from "./own-commits";

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
  /** pushed: the remote has every commit; offline: the remote could not be reached (they wait); conflict: following is paused (or `own` lost); held: uncommitted changes hold the move to the remote's tip. */
  status: "pushed" | "offline" | "conflict" | "failed" | "held";
  message: string;
  /** Commits the remote lacks after this try. */
  waiting: number;
  /** pushed, and HEAD is the remote's tip now (nothing ahead or behind). */
  level?: boolean;
  /** The conflicting waiting commit, and the remote commit that changed its record first. */
  conflict?: { local: string; remote_commit: string; remote_author: string; record: string; own?: boolean };
  /** failed: the remote's tip as last fetched, and its author (what the rejected pushes met). */
  remote?: { commit: string; author: string };
  /** This server's commands the remote decided against: out of HEAD; their ledger lines are still to be undone (undoLedgerRange). */
  undone?: UndoneCommit[];
  /** What a force-push removed from the remote's branch since this server last saw it. */
  removed?: RemovedByRemote;
}

/** A waiting command of this server undone because the remote changed its record first. */
export interface UndoneCommit {
  /** Its commit's subject: `BK-020: start`. */
  command: string;
  /** The ledger bytes its lines took, as this server kept them when it made the commit. */
  ledger: { from: number; to: number };
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
export async function remoteTip(repo: string, t: FollowTarget): Promise<string | undefined> {
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

/** Behind and ahead counts of HEAD against the fetched remote branch. */
export async function aheadBehind(repo: string, t: FollowTarget): Promise<{ ahead: number; behind: number }> {
  const remote = await revParse(repo, remoteRef(t));
  if (!remote) return { ahead: Number((await must(repo, ["rev-list", "--count", "HEAD"])).trim()), behind: 0 };
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

/** The remote's last commit that changed `file`, and its author (what the answer names). */
async function lastChange(repo: string, remote: string, file: string): Promise<Conflict> {
  const [commit, author] = (await must(repo, ["log", "-1", "--format=%H%x00%an <%ae>", remote, "--", file])).trim().split("\0");
  return { commit: commit || remote, author: author ?? "", file };
}

interface Conflict {
  commit: string;
  author: string;
  file: string;
}

/**
 * Undo the ledger lines a command of this server wrote (the bytes [from, to) it kept when it made
 * its commit): a `plan_undo` line for each, as plan.undo writes, so later lines keep their numbers
 * (their ledger_id) and the history drops the move. Lines already undone are left; the lines undone.
 */
export async function undoLedgerRange(repo: string, range: { from: number; to: number }, by = "cockpit/follow"): Promise<{ id: number; record: string; event: string }[]> {
  const bytes = readStateFile(repo, LEDGER_FILE) ?? Buffer.alloc(0);
  // A line's number is its place in the file (as appendLedger counts), not among the parsed ones.
  const rows: { id: number; at: number; row: Record<string, unknown> }[] = [];
  for (let at = 0, id = 1; at < bytes.length; id++) {
    const end = bytes.indexOf(0x0a, at);
    const stop = end === -1 ? bytes.length : end;
    let row: Record<string, unknown> = {};
    try {
      row = JSON.parse(bytes.toString("utf8", at, stop)) as Record<string, unknown>;
    } catch {
      /* a line that is not JSON undoes nothing */
    }
    rows.push({ id, at, row });
    at = stop + 1;
  }
  const done = new Set(rows.filter((r) => r.row.event === "plan_undo").map((r) => Number(r.row.undoes)));
  const found = rows
    .filter((r) => r.at >= range.from && r.at < range.to && typeof r.row.event === "string" && r.row.event !== "plan_undo" && !done.has(r.id))
    .map((r) => ({ id: r.id, record: String(r.row.record ?? r.row.issue ?? ""), event: String(r.row.event) }));
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
async function pushTip(repo: string, t: FollowTarget, tip: string, expected: string, waiting: number): Promise<{ outcome: PushOutcome; rejected?: undefined } | { outcome?: undefined; rejected: string }> {
  let pushed: Out;
  try {
    // Only onto the tip it was built on: a remote moved back since (a force-push) is not fast-forwarded past.
    pushed = await git(repo, ["push", "--porcelain", `--force-with-lease=refs/heads/${t.branch}:${expected}`, "--end-of-options", t.remote, `${tip}:refs/heads/${t.branch}`]);
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

/** The commits `seen` had that `remote` lacks, when the remote's branch was moved back (a force-push). */
export interface RemovedByRemote {
  count: number;
  commits: string[];
  at: string;
}

/**
 * Push this server's waiting commits (lib/repo/own-commits.ts keeps them): up to 3 tries of fetch,
 * replay on the remote's tip (on a private index), push. Only those are pushed: a commit of HEAD
 * this server did not make and the remote does not have pauses following, and what a force-push
 * removed from the remote stays removed (HEAD moves to the remote's tip). A waiting command whose
 * record the remote's tree changed since the command's parent is undone; `own`, the command being
 * answered, is told back (its caller undoes and refuses it). `made`: the commit a command just made
 * on `parent`, pushed at once when the remote's branch, as last fetched, is that parent (a remote
 * that moved refuses it, and it is then fetched and decided as any other). `fetched`: the sync
 * fetched just now, from the remote-tracking tip `before`.
 */
export async function pushWaiting(repo: string, t: FollowTarget, own?: string, made?: { commit: string; parent: string }, fetched?: { before: string | undefined }): Promise<PushOutcome> {
  let last = "";
  const undone: UndoneCommit[] = [];
  let removed: RemovedByRemote | undefined;
  const told = (o: PushOutcome): PushOutcome => ({ ...o, ...(undone.length ? { undone } : {}), ...(removed ? { removed } : {}) });
  let tries = 0;
  if (made && (await remoteTip(repo, t)) === made.parent) {
    tries = 1;
    const pushed = await pushTip(repo, t, made.commit, made.parent, 1);
    if (pushed.outcome?.status === "pushed") await landed(repo, made.commit);
    if (pushed.outcome) return pushed.outcome;
    last = pushed.rejected;
  }
  // The push at once, when it was tried, is the first of the 3.
  for (let attempt = tries; attempt < 3; attempt++) {
    const before = fetched && attempt === tries ? fetched.before : await remoteTip(repo, t);
    if (!(fetched && attempt === tries)) {
      const fetch = await fetchTarget(repo, t);
      if (!fetch.ok) return told({ status: "offline", message: `${fetch.message}; waiting to be pushed at the next sync`, waiting: (await waitingOwn(repo)).length });
    }
    const remote = await revParse(repo, remoteRef(t));
    if (!remote) return told({ status: "offline", message: `${t.remote} has no branch ${t.branch}; push it once by hand (git push ${t.remote} HEAD:${t.branch})`, waiting: (await waitingOwn(repo)).length });
    const round = await reconcile(repo, t, remote, before, own, undone);
    if (round.removed) removed = round.removed;
    if (round.outcome) return told(round.outcome);
    const pushed = await pushTip(repo, t, round.tip, remote, round.waiting);
    if (pushed.outcome?.status === "pushed") await landed(repo, round.tip);
    if (pushed.outcome) return told(pushed.outcome);
    last = pushed.rejected;
  }
  const tip = await revParse(repo, remoteRef(t));
  const author = tip ? (await must(repo, ["log", "-1", "--format=%an <%ae>", tip])).trim() : "";
  return told({
    status: "failed",
    message: `the push to ${t.remote}/${t.branch} was rejected 3 times (${last})`,
    waiting: (await waitingOwn(repo)).length,
    ...(tip ? { remote: { commit: tip, author } } : {}),
  });
}

/** `tip` is on the remote: every kept commit it holds has landed, and the remote was last seen there. */
async function landed(repo: string, tip: string): Promise<void> {
  const state = await readOwn(repo);
  for (const c of state.commits) if (!c.landed && (await isAncestor(repo, c.commit, tip))) c.landed = true;
  state.seen = tip;
  await writeOwn(repo, state);
}

/** The command being answered lost to the remote: its caller takes `local` (HEAD, the command) back and refuses it. */
const lostOwn = (t: FollowTarget, c: Conflict, local: string, waiting: number): PushOutcome => ({
  status: "conflict",
  message: `${t.remote}/${t.branch} changed ${c.file} first, in ${c.commit.slice(0, 7)} by ${c.author}`,
  waiting,
  conflict: { local, remote_commit: c.commit, remote_author: c.author, record: c.file, own: true },
});

/**
 * One round against the remote's tip `remote` (fetched; `before`, the tip before that fetch): the
 * waiting commits it already has land; the landed ones a force-push removed and whose change its
 * tree no longer holds are undone; HEAD moves onto the remote with this server's waiting commits
 * replayed on it. The tip to push, or an outcome that ends the push.
 */
async function reconcile(
  repo: string,
  t: FollowTarget,
  remote: string,
  before: string | undefined,
  own: string | undefined,
  undone: UndoneCommit[],
): Promise<{ outcome: PushOutcome; removed?: RemovedByRemote } | { outcome?: undefined; tip: string; waiting: number; removed?: RemovedByRemote }> {
  const state = await readOwn(repo);
  const seen = state.seen ?? before;
  for (const c of state.commits) {
    if (c.landed) continue;
    if ((c.copy && (await isAncestor(repo, c.copy, remote))) || (await isAncestor(repo, c.commit, remote))) c.landed = true;
  }
  let removed: RemovedByRemote | undefined;
  const lost = new Set<OwnCommit>();
  if (seen && !(await isAncestor(repo, seen, remote))) {
    removed = { ...(await removedBetween(repo, seen, remote)), at: new Date().toISOString() };
    // A command of this server the remote had and removed: undone here when the remote's tree no longer holds its change.
    for (const c of state.commits.filter((x) => x.landed)) {
      if ((await isAncestor(repo, c.commit, remote)) || (c.copy && (await isAncestor(repo, c.copy, remote)))) continue;
      lost.add(c);
      for (const f of c.files) {
        if ((await blobAt(repo, c.copy ?? c.commit, f)) === (await blobAt(repo, remote, f))) continue;
        const who = (await must(repo, ["log", "-1", "--format=%an <%ae>", remote])).trim();
        undone.push({ command: c.subject, record: f, remote_commit: remote, remote_author: who, ledger: c.ledger });
        break;
      }
    }
  }
  const head = await revParse(repo, "HEAD");
  // HEAD's own part: this server's commits on top of it (what it made, as it made or replayed them).
  const mine = new Set(state.commits.flatMap((c) => (c.copy ? [c.commit, c.copy] : [c.commit])));
  let base = head;
  for (let n = 0; base && mine.has(base) && n <= state.commits.length; n++) base = await revParse(repo, `${base}^`);
  const waitingNow = () => state.commits.filter((c) => !c.landed && !lost.has(c)).length;
  if (base && !(await isAncestor(repo, base, remote)) && !(seen && (await isAncestor(repo, base, seen)))) {
    const subject = (await must(repo, ["log", "-1", "--format=%s", base])).trim();
    undone.splice(0);
    return {
      removed,
      outcome: {
        status: "conflict",
        message: `this clone has commits that this server did not make and ${t.remote}/${t.branch} does not have (${base.slice(0, 7)} ${subject}); a following server pushes only its own commits. Push them by hand (git push), or take them out of the branch (git reset), then sync`,
        waiting: waitingNow(),
      },
    };
  }
  // Replayed on the remote's tip, oldest first: a command whose record the tree built so far
  // holds otherwise than its parent did is undone (a later one on the same record goes with it).
  const waiting = state.commits.filter((c) => !c.landed && !lost.has(c));
  let tip = remote;
  const dropped = new Map<OwnCommit, Conflict>();
  const changedByDrop = new Map<string, Conflict>();
  const copies = new Map<OwnCommit, string>();
  let ownConflict: Conflict | undefined;
  if (base === remote) tip = head!;
  else {
    for (const c of waiting) {
      const parent = await revParse(repo, `${c.commit}^`);
      const files = await changedBy(repo, c.commit);
      let theirs: Conflict | undefined;
      for (const f of files) {
        if ((parent ? await blobAt(repo, parent, f) : "") === (await blobAt(repo, tip, f))) continue;
        theirs = changedByDrop.get(f) ?? (await lastChange(repo, remote, f));
        break;
      }
      if (theirs && c.command !== own) {
        dropped.set(c, theirs);
        for (const f of files) changedByDrop.set(f, theirs);
        continue;
      }
      if (theirs) ownConflict = theirs;
      tip = await replay(repo, [c.commit], tip);
      copies.set(c, tip);
    }
  }
  const kept = waiting.filter((c) => !dropped.has(c));
  if (ownConflict && dropped.size === 0) {
    // Only the command being answered lost: HEAD stays as it is, and its caller takes it back.
    state.commits = state.commits.filter((c) => !lost.has(c));
    await writeOwn(repo, state);
    return { removed, outcome: lostOwn(t, ownConflict, head!, kept.length) };
  }
  if (head !== tip) {
    // Kept before HEAD moves: a copy on the remote is known as this server's after a crash.
    for (const [c, copy] of copies) c.copy = copy;
    await writeOwn(repo, state);
    const dirty = kept.length === 0 ? [...(await dirtyRecords(repo))] : [];
    const files = `${dirty.slice(0, 3).join(", ")}${dirty.length > 3 ? ", …" : ""}`;
    const moved = dirty.length
      ? { ok: false, message: `uncommitted changes hold the fast-forward to ${t.remote}/${t.branch} (${files}); commit or discard them, then sync` }
      : await moveHead(repo, tip);
    if (!moved.ok) {
      for (const c of copies.keys()) delete c.copy;
      state.commits = state.commits.filter((c) => !lost.has(c));
      await writeOwn(repo, state);
      const message = dirty.length ? moved.message : `the fast-forward to ${t.remote}/${t.branch} is held: ${moved.message}`;
      return { removed, outcome: { status: "held", message, waiting: kept.length } };
    }
  }
  for (const [c, copy] of copies) {
    c.commit = copy;
    delete c.copy;
  }
  for (const [c, theirs] of dropped) undone.push({ command: c.subject, record: theirs.file, remote_commit: theirs.commit, remote_author: theirs.author, ledger: c.ledger });
  state.commits = state.commits.filter((c) => !lost.has(c) && !dropped.has(c));
  state.seen = remote;
  await writeOwn(repo, state);
  if (ownConflict) {
    return { removed, outcome: lostOwn(t, ownConflict, tip, kept.length) };
  }
  if (kept.length === 0) return { removed, outcome: { status: "pushed", message: `nothing waits; ${t.remote}/${t.branch} has every commit`, waiting: 0, level: true } };
  return { removed, tip, waiting: kept.length };
}
