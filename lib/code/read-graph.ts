import { lstatSync, opendirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { invalidInput } from "../plan/errors";
import { processWide } from "../process-wide";
import { type GraphCommit, markCode, readCommits, readLog } from "../repo/git-log";
import { type GraphRef, readBranchRefs, readNamedRefs } from "../repo/git-refs";
import { gitText } from "../repo/git-run";
import type { CommitGraph } from "./links";

// Reading the commit graph of the branches and remote-tracking branches (at most REFS_READ_LIMIT, in ../repo/git-refs.ts, of
// them): the first read is one pass over the history (git rev-list into git diff-tree), a later one
// a `git log` of the commits not read before; commits are kept by id for the life of the process (a
// commit never changes), so after a fetch or a new commit only the new ones are read. Nothing is
// written in the repository.

interface RepoCommits {
  commits: Map<string, GraphCommit>;
  /** What `%aN` was read under: a new .mailmap reads every commit again. */
  mailmap: string;
  /** The plan's folder inside the repository (`git rev-parse --show-prefix`). */
  prefix: string;
  /** How many commits the last read had to ask git for. */
  lastRead: number;
  /** Tips read before: everything reachable from them is read, so a later log stops there. */
  tipsRead: Set<string>;
  /** Each commit's tree, so a later read compares a new commit with a parent read before. */
  trees: Map<string, string>;
  /** The tips `commits` was last kept for (sorted, joined): everything in it is reachable from them. */
  tipSet: string;
  /** Tips a read found to be no commit: not read again. */
  notCommits: Set<string>;
}

const kept = processWide("code-commits", () => new Map<string, RepoCommits>());

const emptyState = (mailmap: string, prefix: string, tipSet: string): RepoCommits => ({ commits: new Map(), mailmap, prefix, lastRead: 0, tipsRead: new Set(), trees: new Map(), tipSet, notCommits: new Set() });

/**
 * Where the repository's plan sits in its work tree and HEAD's full name ("refs/heads/main", or
 * "HEAD" when detached), or undefined when the folder is no git repository.
 */
async function planPrefix(repo: string): Promise<{ prefix: string; head: string; dirs?: GitDirs } | undefined> {
  const all = await gitText(repo, ["rev-parse", "--show-prefix", "--absolute-git-dir", "--path-format=absolute", "--git-common-dir", "--symbolic-full-name", "HEAD"]);
  if (all !== undefined) {
    const [prefix = "", gitDir = "", commonDir = "", head = ""] = all.split("\n");
    return { prefix, head, ...(gitDir && commonDir ? { dirs: { gitDir, commonDir } } : {}) };
  }
  // A repository without a commit has no HEAD to name yet.
  const out = await gitText(repo, ["rev-parse", "--show-prefix"]);
  return out === undefined ? undefined : { prefix: out.trim(), head: "" };
}

/** The .mailmap the names are mapped by (read as data; a link is not followed). */
function mailmapOf(repo: string, prefix: string): string {
  const top = prefix === "" ? repo : join(repo, ...prefix.split("/").filter(Boolean).map(() => ".."));
  const path = join(top, ".mailmap");
  try {
    return lstatSync(path).isFile() ? readFileSync(path, "utf8") : "";
  } catch {
    return "";
  }
}

interface RefsRead {
  where: { prefix: string; head: string } | undefined;
  refs: GraphRef[];
  originHead?: string;
  /** The refs git listed, when that is more than were read. */
  total?: number;
}

/**
 * What was last read of each repository's refs, and the stamp of the files git keeps them in
 * then: HEAD, packed-refs, and every folder of refs/heads and refs/remotes (git writes a loose ref
 * by renaming a new file into its folder, which changes the folder's times). A read whose stamp is
 * the same asks git nothing: a served page asking for the next issue starts no git process.
 */
interface GitDirs {
  gitDir: string;
  commonDir: string;
}

const refsKept = processWide("code-refs", () => new Map<string, { dirs?: GitDirs; stamp?: string; read?: RefsRead }>());

/** A stamp changed this recently may change again within the file system's time grain: it is not trusted. */
const RACY_MS = 100;
/** Folders, and entries in them, looked at for one stamp, at most (past that, git is asked each time). */
const STAMP_FOLDERS = 2_000;
const STAMP_ENTRIES = 20_000;

function refsStamp(dirs: GitDirs): string | undefined {
  const parts: string[] = [];
  const now = Date.now();
  let folders = 0;
  let entries = 0;
  const stamp = (path: string, folder: boolean): boolean => {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) {
      parts.push("-");
      return true;
    }
    if (now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS) return false;
    parts.push(`${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
    if (!folder || !st.isDirectory()) return true;
    if (++folders > STAMP_FOLDERS) return false;
    // One entry at a time: a folder of a million loose refs is not listed whole.
    const dir = opendirSync(path);
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        if (++entries > STAMP_ENTRIES || (entry.isDirectory() && !stamp(join(path, entry.name), true))) return false;
      }
    } finally {
      dir.closeSync();
    }
    return true;
  };
  try {
    const ok =
      stamp(join(dirs.gitDir, "HEAD"), false) &&
      stamp(join(dirs.commonDir, "packed-refs"), false) &&
      stamp(join(dirs.commonDir, "reftable"), true) &&
      stamp(join(dirs.commonDir, "refs", "heads"), true) &&
      stamp(join(dirs.commonDir, "refs", "remotes"), true);
    return ok ? parts.join(" ") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a `.git` is in `repo` or a folder above it (what git looks for), as a stamp; undefined
 * when git is told where to look by the environment (then it is asked each time).
 */
function noRepositoryStamp(repo: string): string | undefined {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_CEILING_DIRECTORIES !== undefined || process.env.GIT_DISCOVERY_ACROSS_FILESYSTEM !== undefined) return undefined;
  const parts: string[] = [];
  for (let dir = resolve(repo); ; dir = dirname(dir)) {
    const st = lstatSync(join(dir, ".git"), { throwIfNoEntry: false });
    parts.push(st ? `${st.ino}:${st.mtimeMs}` : "-");
    if (dirname(dir) === dir) return parts.join(" ");
  }
}

/** The plan's place in the work tree, HEAD's name and the branches: from git, or as last read when git's files are unchanged. */
async function refsOf(repo: string): Promise<RefsRead> {
  const memo = refsKept.get(repo);
  // Unchanged files: the refs as read before. A folder git found no repository for stays one
  // while no `.git` appears in it or above it.
  const stamp = memo?.dirs ? refsStamp(memo.dirs) : noRepositoryStamp(repo);
  if (memo?.read && stamp !== undefined && stamp === memo.stamp) return memo.read;
  const [where, listing] = await Promise.all([planPrefix(repo), readBranchRefs(repo)]);
  const read: RefsRead = { where, refs: listing?.refs ?? [], originHead: listing?.originHead };
  // Past the limit, the branches the default is chosen from are read by name: no ref a fetch
  // brought in before them by name hides them.
  if (listing?.cut) {
    const named = await readNamedRefs(repo, ["refs/remotes/origin/HEAD", ...(where?.head ? [where.head] : [])]);
    Object.assign(read, { refs: withRefs(read.refs, named.refs), originHead: named.originHead ?? read.originHead, total: listing.total });
  }
  const dirs = where?.dirs;
  // Kept only if nothing changed while git read them: the stamp taken before the read is the
  // same after it. A first read only learns where git's files are (or that there is no repository).
  const known = memo !== undefined && (dirs ? dirs.gitDir === memo.dirs?.gitDir && dirs.commonDir === memo.dirs.commonDir : where === undefined && !memo.dirs);
  const after = dirs ? refsStamp(dirs) : noRepositoryStamp(repo);
  refsKept.set(repo, { dirs, ...(known && stamp !== undefined && after === stamp ? { stamp, read } : {}) });
  return read;
}

const refLabel = (r: GraphRef) => (r.remote === null ? r.name : `${r.remote}/${r.name}`);

/** `refs` and those of `more` it lacks (by name). */
function withRefs(refs: readonly GraphRef[], more: readonly GraphRef[]): GraphRef[] {
  const known = new Set(refs.map((r) => `${r.remote}\0${r.name}`));
  return [...refs, ...more.filter((r) => !known.has(`${r.remote}\0${r.name}`))];
}

/**
 * The default branch: the one asked for, else the branch refs/remotes/origin/HEAD names, else
 * HEAD's branch; null when none of these names a branch (a detached HEAD, no origin).
 */
function chooseDefault(refs: readonly GraphRef[], asked: string | undefined, originHead: string | undefined, head: string): { name: string; tip: string } | null {
  const find = (label: string) => refs.find((r) => r.remote === null && r.name === label) ?? refs.find((r) => refLabel(r) === label);
  if (asked !== undefined) {
    const hit = find(asked);
    if (!hit) {
      const names = refs.map(refLabel).slice(0, 10);
      throw invalidInput(`no branch '${asked}' in this repository (neither refs/heads/${asked} nor refs/remotes/${asked}); the branches are ${names.length ? names.join(", ") : "none"}${refs.length > 10 ? ", …" : ""}`);
    }
    return { name: refLabel(hit), tip: hit.tip };
  }
  if (originHead?.startsWith("refs/remotes/")) {
    const hit = refs.find((r) => r.remote !== null && refLabel(r) === originHead.slice("refs/remotes/".length));
    if (hit) return { name: refLabel(hit), tip: hit.tip };
  }
  if (head.startsWith("refs/heads/")) {
    const hit = refs.find((r) => r.remote === null && r.name === head.slice("refs/heads/".length));
    if (hit) return { name: hit.name, tip: hit.tip };
  }
  return null;
}


/**
 * The commit graph of `repo`'s branches, read from git (only what was not read before), or
 * undefined when it is no git repository. `meanwhile` is called once, while git reads (or after).
 */
export async function readCommitGraph(repo: string, defaultBranch?: string, meanwhile: () => void = () => undefined): Promise<CommitGraph | undefined> {
  let called = false;
  const once = () => {
    if (!called) {
      called = true;
      meanwhile();
    }
  };
  // One read of a repository at a time: a read asked for while another runs (two first requests
  // to a server, or the command line's early read) waits for it, then reads only what it left.
  const before = reading.get(repo);
  const mine = (async () => {
    if (before) {
      once();
      await before.catch(() => undefined);
    }
    return readGraphNow(repo, defaultBranch, once);
  })();
  reading.set(repo, mine);
  try {
    return await mine;
  } finally {
    if (reading.get(repo) === mine) reading.delete(repo);
  }
}

/** The reads of each repository's graph running now. */
const reading = processWide("code-reading", () => new Map<string, Promise<unknown>>());

/** What a graph read early is kept under until a read proper walks it from the tips it reads. */
const EARLY_TIPS = "\0early";

/**
 * Starts reading the whole graph of `repo` (its branches and remote-tracking branches) before
 * anything asks for it: the command line calls it first, so git reads while the command's own code
 * loads. A later
 * `readCommitGraph` waits for it, and walks what it kept from the branches it reads itself: a
 * commit no branch of its own reaches (a ref it does not count) links nothing. Failures are left to
 * that read, which starts over.
 */
export function readCommitGraphEarly(repo: string): void {
  if (kept.has(repo) || reading.has(repo)) return;
  const early = (async () => {
    // The tips are read first (within the limit) and handed to git: a walk of every ref would
    // read a million of them, where a fetch brought that many.
    const { where, refs } = await refsOf(repo);
    if (where === undefined || refs.length === 0) return;
    const top = await readLog(repo, { input: [...new Set(refs.map((r) => r.tip))].join("\n") + "\n" }, "top", () => undefined);
    if (top === undefined) return;
    const state = emptyState(mailmapOf(repo, where.prefix), where.prefix, EARLY_TIPS);
    for (const c of await markCode(repo, top, true, where.prefix, state.trees)) state.commits.set(c.sha, c);
    state.lastRead = state.commits.size;
    if (!kept.has(repo)) kept.set(repo, state);
  })().catch(() => undefined);
  reading.set(repo, early);
  void early.finally(() => reading.get(repo) === early && reading.delete(repo));
}

async function readGraphNow(repo: string, defaultBranch: string | undefined, once: () => void): Promise<CommitGraph | undefined> {
  const { where, refs: listed, originHead, total } = await refsOf(repo);
  if (where === undefined) {
    once();
    return undefined;
  }
  const { prefix, head } = where;
  // A default asked for by name that a listing cut at its limit left out is read by name.
  const isMissing = (b: string) => !listed.some((r) => refLabel(r) === b);
  const refs = total !== undefined && defaultBranch !== undefined && isMissing(defaultBranch) ? withRefs(listed, (await readNamedRefs(repo, [`refs/heads/${defaultBranch}`, `refs/remotes/${defaultBranch}`])).refs) : listed;
  chooseDefault(refs, defaultBranch, originHead, head); // an unknown branch asked for is refused before git reads
  const mailmap = mailmapOf(repo, prefix);
  let state = kept.get(repo);
  if (!state || state.mailmap !== mailmap || state.prefix !== prefix) {
    state = emptyState(mailmap, prefix, "");
    kept.set(repo, state);
  }
  const commits = state.commits;
  const notCommits = state.notCommits;
  const tips = [...new Set(refs.map((r) => r.tip))].filter((t) => !notCommits.has(t));
  const fresh = tips.filter((t) => !commits.has(t));
  state.lastRead = 0;
  let read: GraphCommit[] = [];
  if (fresh.length > 0) {
    const known = new Set([...state.tipsRead, ...tips.filter((t) => commits.has(t))]);
    const current = tips.filter((t) => commits.has(t));
    // A tip read before may be gone since (a branch deleted, its commits pruned): then only the current ones.
    read = await readCommits(repo, fresh, [...known], prefix, state.trees, once).catch((e: unknown) => {
      if (known.size === current.length) throw e;
      return readCommits(repo, fresh, current, prefix, state!.trees, once);
    });
    for (const c of read) commits.set(c.sha, c);
    // A tip git walked without listing it is no commit (a tag object, a blob under refs/remotes): never a branch.
    for (const t of fresh) if (!commits.has(t)) notCommits.add(t);
    state.lastRead = read.length;
    // A few thousand tips are plenty to stop at; past that the newest are kept.
    state.tipsRead = new Set([...known, ...fresh.filter((t) => commits.has(t))].slice(-5000));
  }
  const branches = refs.some((r) => notCommits.has(r.tip)) ? refs.filter((r) => !notCommits.has(r.tip)) : refs;
  keepReachable(state, tips.filter((t) => !notCommits.has(t)), read);
  once();
  return { commits: state.commits, refs: branches, defaultBranch: chooseDefault(branches, defaultBranch, originHead, head), ...(total === undefined ? {} : { refsListed: total }) };
}

/**
 * Drops the commits no current tip reaches any more (a branch deleted, a fetch that pruned one, a
 * rebase), so they link nothing in a long-running process as they link nothing read cold. A tip
 * that only moved on is a parent of a commit just read, and the commits stay as they are (a new
 * commit costs no walk); otherwise the kept graph is walked from the current tips, once per set of
 * tips, and what is kept is a new map, so whatever was derived from the old one is derived again.
 */
function keepReachable(state: RepoCommits, tips: readonly string[], read: readonly GraphCommit[]): void {
  const tipSet = [...tips].sort().join(" ");
  if (tipSet === state.tipSet) return;
  const before = state.tipSet === "" ? [] : state.tipSet.split(" ");
  state.tipSet = tipSet;
  const now = new Set(tips);
  const parents = new Set(read.flatMap((c) => c.parents));
  if (before.every((t) => now.has(t) || parents.has(t))) return;
  const reached = new Set<string>();
  const stack = tips.filter((t) => state.commits.has(t));
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (reached.has(c)) continue;
    reached.add(c);
    for (const p of state.commits.get(c)?.parents ?? []) if (!reached.has(p) && state.commits.has(p)) stack.push(p);
  }
  if (reached.size === state.commits.size) return;
  // In reading order still: a derivation reads the messages of the commits it has not read yet.
  state.commits = new Map([...state.commits].filter(([sha]) => reached.has(sha)));
  for (const sha of state.trees.keys()) if (!reached.has(sha)) state.trees.delete(sha);
  // A later log stops at what is kept; a gone tip re-created later is read again.
  state.tipsRead = new Set(tips.filter((t) => reached.has(t)));
}

/** How many commits the last read of `repo` asked git for (0: every tip was known). */
export function lastReadCount(repo: string): number {
  return kept.get(repo)?.lastRead ?? 0;
}

/** Forget what was read of `repo` (for tests and benchmarks that measure a cold read). */
export function forgetCommitGraph(repo: string): void {
  kept.delete(repo);
  refsKept.delete(repo);
}
