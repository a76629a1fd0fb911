import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isoOfSeconds } from "../history/revision";
import { invalidInput } from "../plan/errors";
import { processWide } from "../process-wide";
import { GIT_OUTPUT_LIMIT, git, gitPipe, gitText } from "../repo/git-run";
import type { CommitGraph, GraphCommit, GraphRef } from "./links";

// Reading the commit graph of the branches and remote-tracking branches: the first read is one pass
// over the history (git rev-list into git diff-tree), a later one a `git log` of the commits not
// read before; commits are kept by id for the life of the process (a commit never changes), so after
// a fetch or a new commit only the new ones are read. Nothing is written in the repository.

/**
 * How long the first read of a large history may take, past git's 10 s default: it walks every
 * commit once (diff-tree over 10k commits took 2 s on a busy 2-core machine, and it grows with the history).
 * Later reads ask only for new commits. docs/security.md lists it.
 */
const LOG_TIMEOUT_MS = 60_000;
/** Objects a partial clone lacks are never fetched by a read: the commit is taken as code instead. */
const NO_FETCH = { GIT_NO_LAZY_FETCH: "1" };

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
}

const kept = processWide("code-commits", () => new Map<string, RepoCommits>());

const emptyState = (mailmap: string, prefix: string, tipSet: string): RepoCommits => ({ commits: new Map(), mailmap, prefix, lastRead: 0, tipsRead: new Set(), trees: new Map(), tipSet });

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

/** Every local and remote-tracking branch (not `<remote>/HEAD`), and the branch refs/remotes/origin/HEAD names. */
async function readRefs(repo: string): Promise<{ refs: GraphRef[]; originHead?: string }> {
  const out = await gitText(repo, ["for-each-ref", "--format=%(objectname) %(objecttype) %(refname) %(symref)", "refs/heads", "refs/remotes"]);
  const refs: GraphRef[] = [];
  let originHead: string | undefined;
  for (const line of (out ?? "").split("\n")) {
    const [tip, type, ref, symref] = line.split(" ");
    if (type !== "commit" || ref === undefined) continue;
    if (ref === "refs/remotes/origin/HEAD" && symref) originHead = symref;
    if (ref.startsWith("refs/heads/")) refs.push({ name: ref.slice("refs/heads/".length), remote: null, tip });
    else if (ref.startsWith("refs/remotes/")) {
      const rest = ref.slice("refs/remotes/".length);
      const slash = rest.indexOf("/");
      if (slash <= 0 || rest.slice(slash + 1) === "HEAD") continue;
      refs.push({ name: rest.slice(slash + 1), remote: rest.slice(0, slash), tip });
    }
  }
  return { refs, originHead };
}

interface RefsRead {
  where: { prefix: string; head: string } | undefined;
  refs: GraphRef[];
  originHead?: string;
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
/** Folders looked at for one stamp, at most (past that, git is asked each time). */
const STAMP_FOLDERS = 2_000;

function refsStamp(dirs: GitDirs): string | undefined {
  const parts: string[] = [];
  const now = Date.now();
  let folders = 0;
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
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory() && !stamp(join(path, entry.name), true)) return false;
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
  const [where, { refs, originHead }] = await Promise.all([planPrefix(repo), readRefs(repo)]);
  const read = { where, refs, originHead };
  const dirs = where?.dirs;
  // Kept only if nothing changed while git read them: the stamp taken before the read is the
  // same after it. A first read only learns where git's files are (or that there is no repository).
  const known = memo !== undefined && (dirs ? dirs.gitDir === memo.dirs?.gitDir && dirs.commonDir === memo.dirs.commonDir : where === undefined && !memo.dirs);
  const after = dirs ? refsStamp(dirs) : noRepositoryStamp(repo);
  refsKept.set(repo, { dirs, ...(known && stamp !== undefined && after === stamp ? { stamp, read } : {}) });
  return read;
}

const refLabel = (r: GraphRef) => (r.remote === null ? r.name : `${r.remote}/${r.name}`);

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

/** The fields before the changed paths: `\x1e\0` sha tree parents `\0` author `\0` times `\0` message `\0`. */
const FORMAT = "--format=%x1e%x00%H %T %P%x00%aN%x00%at %ct%x00%B%x00";

interface Parsed {
  /** isCode is false until the commit's paths or trees tell. */
  commit: GraphCommit;
  tree: string;
  /** The changed paths, when they were asked for. */
  paths: string[];
}

const SHA = /^[0-9a-f]{40,64}$/;

/** `git log` output in FORMAT, one entry per commit. Free text (names, messages) ends at a NUL, which neither holds. */
export function parseLog(text: string): Parsed[] {
  const out: Parsed[] = [];
  let i = text.indexOf("\x1e\0");
  while (i >= 0) {
    const headEnd = text.indexOf("\0", i + 2);
    const authorEnd = headEnd < 0 ? -1 : text.indexOf("\0", headEnd + 1);
    const timesEnd = authorEnd < 0 ? -1 : text.indexOf("\0", authorEnd + 1);
    const messageEnd = timesEnd < 0 ? -1 : text.indexOf("\0", timesEnd + 1);
    if (messageEnd < 0) return out;
    const next = text.indexOf("\n\x1e\0", messageEnd + 1);
    const restEnd = next < 0 ? text.length : next;
    const head = text.slice(i + 2, headEnd).split(" ");
    const times = text.slice(authorEnd + 1, timesEnd);
    const space = times.indexOf(" ");
    let last = messageEnd;
    while (last > timesEnd + 1 && text.charCodeAt(last - 1) === 10) last--;
    const sha = head[0];
    const rest = messageEnd + 1 < restEnd ? text.slice(messageEnd + 1, restEnd) : "";
    i = next < 0 ? -1 : next + 1;
    if (!SHA.test(sha)) continue;
    out.push({
      commit: {
        sha,
        parents: head.slice(2).filter((p) => p !== ""),
        author: text.slice(headEnd + 1, authorEnd),
        authored_at: isoOfSeconds(Number(times.slice(0, space))),
        committed_at: isoOfSeconds(Number(times.slice(space + 1))),
        message: text.slice(timesEnd + 1, last),
        isCode: false,
      },
      tree: head[1] ?? "",
      paths: rest === "" ? [] : rest.split("\n").filter((l) => l !== ""),
    });
  }
  return out;
}

/** Whether one of the changed paths lies outside the plan's `.ai/` folder. */
export function touchesCode(paths: readonly string[], prefix: string): boolean {
  const plan = `${prefix}.ai/`;
  // A path git quotes (an unusual character) starts with '"'; the folder's name needs no quoting.
  return paths.some((p) => !(p.startsWith('"') ? p.slice(1) : p).startsWith(plan));
}

/** The folders git is writing a log into now: removed when the process exits before the read ends. */
const logFolders = processWide("code-log-folders", () => {
  const set = new Set<string>();
  process.once("exit", () => {
    for (const dir of set) rmSync(dir, { recursive: true, force: true });
  });
  return set;
});

type Reading = "paths" | "top" | "plain";

/** Which commits a read walks: those `input` names (tips, and `^known` to stop at), or every branch's and remote-tracking branch's. */
type Walk = { input: string } | "branches";

/**
 * The commits of `walk` in FORMAT, and after each one's fields:
 * - "paths": every path it changes against its first parent (`git log --name-only`);
 * - "top": the top-level entries it changes against its first parent (`git rev-list` into
 *   `git diff-tree`, which prints the same fields: one pass over the history, no path listed below
 *   the top). Undefined when git cannot tell (an object a partial clone lacks);
 * - "plain": nothing more.
 * git writes to a file of its own (outside the repository) rather than a pipe, so it runs to the
 * end while `meanwhile` holds the event loop (a command line derives its plan then).
 */
async function readLog(repo: string, walk: Walk, reading: Reading, meanwhile: () => void): Promise<Parsed[] | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "cockpit-code-log-"));
  logFolders.add(dir);
  const file = join(dir, "log");
  const revs = walk === "branches" ? ["--branches", "--remotes"] : ["--stdin"];
  const options = { ...(walk === "branches" ? {} : { input: walk.input }), timeoutMs: LOG_TIMEOUT_MS, env: NO_FETCH };
  const diffs = ["--no-renames", "--diff-merges=first-parent", "--root"];
  try {
    const pending =
      reading === "top"
        ? gitPipe(repo, ["rev-list", ...revs, "--parents"], ["diff-tree", "--stdin", "--always", "--ignore-submodules=none", "--name-only", ...diffs, FORMAT, `--output=${file}`], options)
        : git(repo, ["log", ...revs, `--output=${file}`, FORMAT, ...(reading === "paths" ? ["--name-only", ...diffs] : []), "--"], options);
    pending.catch(() => undefined); // awaited below; a throw from `meanwhile` leaves it behind
    meanwhile();
    const r = await pending;
    if (r.status !== 0) {
      if (reading === "top") return undefined;
      throw invalidInput(`git log could not read this repository's commits: ${r.stderr.split("\n")[0] || `exit ${r.status}`}`);
    }
    if (statSync(file).size > GIT_OUTPUT_LIMIT) throw invalidInput(`git log printed more than ${Math.round(GIT_OUTPUT_LIMIT / (1024 * 1024))} MiB of commits; this history is too large to link`);
    return parseLog(readFileSync(file, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    logFolders.delete(dir);
  }
}

/**
 * Whether a commit is code from the top-level entries it changes: true when one is not `folder`
 * (the first folder of the plan's path), false when none is; undefined when `folder` is one the
 * plan sits in (`deeper`) and only it changed, or a name comes quoted (it may be that folder's
 * name): the trees tell.
 */
export function codeOfTopLevel(names: readonly string[], folder: string, deeper: boolean): boolean | undefined {
  let code: boolean | undefined = false;
  for (const name of names) {
    if (name === folder) {
      if (deeper) code = undefined;
    } else if (name.startsWith('"')) code = undefined;
    else return true;
  }
  return code;
}

/**
 * The commits reachable from `tips` and not from `known` (read already), each one's tree kept in
 * `trees`, and whether each is code.
 * - A later read (after a commit or a fetch) is a few commits: the log names each one's changed
 *   paths itself.
 * - The first read of a history asks for the top-level entries each commit changes (listing every
 *   path of 10k commits is slower); what they leave open, or all of it when git cannot tell, is
 *   told by the trees (see `markCode`).
 */
async function readCommits(repo: string, tips: readonly string[], known: readonly string[], prefix: string, trees: Map<string, string>, meanwhile: () => void): Promise<GraphCommit[]> {
  const walk = { input: [...tips, ...known.map((k) => `^${k}`)].join("\n") + "\n" };
  if (known.length > 0) {
    const parsed = (await readLog(repo, walk, "paths", meanwhile))!;
    for (const p of parsed) trees.set(p.commit.sha, p.tree);
    return parsed.map((p) => ((p.commit.isCode = touchesCode(p.paths, prefix)), p.commit));
  }
  const top = await readLog(repo, walk, "top", meanwhile);
  return markCode(repo, top ?? (await readLog(repo, walk, "plain", meanwhile))!, top !== undefined, prefix, trees);
}

/**
 * Marks whether each commit of a first read is code: from the top-level entries it changes (when
 * `byTop`), and what they leave open (or all, without them) from its tree against its first
 * parent's; where that cannot be told either, by the paths commit by commit (a commit whose tree
 * cannot be read counting as code). Each commit's tree is kept in `trees`.
 */
async function markCode(repo: string, parsed: readonly Parsed[], byTop: boolean, prefix: string, trees: Map<string, string>): Promise<GraphCommit[]> {
  for (const p of parsed) trees.set(p.commit.sha, p.tree);
  const segments = [...prefix.split("/").filter(Boolean), ".ai"];
  const isCode = parsed.map((p) => (byTop ? codeOfTopLevel(p.paths, segments[0], segments.length > 1) : undefined));
  const marked = () => parsed.map((p, i) => ((p.commit.isCode = isCode[i]!), p.commit));
  const open = parsed.flatMap((p, i) => (isCode[i] === undefined ? [i] : []));
  if (open.length === 0) return marked();
  const code = await codeByTrees(repo, open.map((i) => ({ tree: parsed[i].tree, parent: parsed[i].commit.parents.length ? (trees.get(parsed[i].commit.parents[0]) ?? null) : "" })), segments);
  if (code) open.forEach((i, k) => (isCode[i] = code[k]));
  else {
    const byPaths = await codeByDiffTree(repo, parsed.map((p) => p.commit), prefix);
    parsed.forEach((p, i) => (isCode[i] = byPaths.get(p.commit.sha) ?? true));
  }
  return marked();
}

/** A tree as the comparison needs it: its bytes without the named folder's entry, and that entry ("<mode> <id>"). */
interface TreeSplit {
  rest: Buffer;
  folder?: { mode: string; id: string };
}

/** Trees split at `folder`, by `git cat-file --batch`; null for an object git does not have (or not a tree). */
async function readTrees(repo: string, ids: readonly string[], folder: string): Promise<Map<string, TreeSplit | null> | undefined> {
  const out = new Map<string, TreeSplit | null>();
  if (ids.length === 0) return out;
  const r = await git(repo, ["cat-file", "--batch"], { input: ids.join("\n") + "\n", timeoutMs: LOG_TIMEOUT_MS, env: NO_FETCH });
  if (r.status !== 0) return undefined;
  const bytes = r.stdout;
  const name = Buffer.from(folder, "utf8");
  let i = 0;
  for (const id of ids) {
    const eol = bytes.indexOf(0x0a, i);
    if (eol < 0) return undefined;
    const header = bytes.toString("latin1", i, eol).split(" ");
    i = eol + 1;
    if (header.length !== 3 || header[1] !== "tree") {
      out.set(id, null);
      if (header.length === 3) i += Number(header[2]) + 1;
      continue;
    }
    const end = i + Number(header[2]);
    const idBytes = id.length / 2;
    let split: TreeSplit = { rest: bytes.subarray(i, end) };
    // Entries are "<mode> <name>\0<raw id>", one after another.
    for (let at = i; at < end; ) {
      const space = bytes.indexOf(0x20, at);
      const nul = bytes.indexOf(0, space);
      const next = nul + 1 + idBytes;
      if (nul - space - 1 === name.length && bytes.compare(name, 0, name.length, space + 1, nul) === 0) {
        split = { rest: Buffer.concat([bytes.subarray(i, at), bytes.subarray(next, end)]), folder: { mode: bytes.toString("latin1", at, space), id: bytes.toString("hex", nul + 1, next) } };
        break;
      }
      at = next;
    }
    out.set(id, split);
    i = end + 1;
  }
  return out;
}

/**
 * Whether each commit changes a path outside `<prefix>.ai/`, from its tree against its first
 * parent's ("" for a root commit: against nothing; null: the parent's tree is not known), walking
 * down the plan's folder only where nothing else differs. Undefined when git cannot tell.
 */
async function codeByTrees(repo: string, pairs: readonly { tree: string; parent: string | null }[], segments: readonly string[]): Promise<boolean[] | undefined> {
  if (pairs.some((p) => p.parent === null)) return undefined;
  const result: (boolean | undefined)[] = pairs.map((p) => (p.tree === p.parent ? false : undefined));
  // "" is the empty tree: a root commit's parent, or a folder on one side only.
  let open = pairs.map((p, i) => ({ i, tree: p.tree, parent: p.parent as string })).filter((o) => result[o.i] === undefined);
  const empty: TreeSplit = { rest: Buffer.alloc(0) };
  for (let depth = 0; open.length > 0 && depth < segments.length; depth++) {
    const folder = segments[depth];
    const trees = await readTrees(repo, [...new Set(open.flatMap((o) => [o.tree, o.parent]).filter((t) => t !== ""))], folder);
    if (!trees) return undefined;
    const next: typeof open = [];
    for (const o of open) {
      const mine = o.tree === "" ? empty : trees.get(o.tree);
      const theirs = o.parent === "" ? empty : trees.get(o.parent);
      if (!mine || !theirs) {
        result[o.i] = true; // an object the clone lacks: counted as code
        continue;
      }
      const a = mine.folder;
      const b = theirs.folder;
      if (!mine.rest.equals(theirs.rest)) result[o.i] = true;
      else if ((a?.mode ?? "") === (b?.mode ?? "") && (a?.id ?? "") === (b?.id ?? "")) result[o.i] = false;
      else if (depth === segments.length - 1) result[o.i] = false;
      // A file where the plan's folder is on one side: a path outside .ai/ changed.
      else if ((a && a.mode !== "40000") || (b && b.mode !== "40000")) result[o.i] = true;
      else next.push({ i: o.i, tree: a?.id ?? "", parent: b?.id ?? "" });
    }
    open = next;
  }
  return result.map((r) => r ?? true);
}

/** Whether each commit is code, one `git diff-tree` over them all, started again past each commit whose tree is missing. */
async function codeByDiffTree(repo: string, commits: readonly GraphCommit[], prefix: string): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  let rest = commits;
  for (let attempt = 0; rest.length > 0 && attempt < 50; attempt++) {
    const input = rest.map((c) => (c.parents.length ? `${c.sha} ${c.parents[0]}` : c.sha)).join("\n") + "\n";
    const r = await git(repo, ["diff-tree", "--stdin", "--always", "--root", "-r", "--no-renames", "--name-only"], { input, timeoutMs: LOG_TIMEOUT_MS, env: NO_FETCH });
    let current: string | undefined;
    let paths: string[] = [];
    const close = () => current !== undefined && out.set(current, touchesCode(paths, prefix));
    for (const line of r.stdout.toString("utf8").split("\n")) {
      if (line === "") continue;
      const head = /^([0-9a-f]{40,64})( [0-9a-f]{40,64})?$/.exec(line);
      if (head && rest.some((c) => c.sha === head[1])) {
        close();
        current = head[1];
        paths = [];
      } else paths.push(line);
    }
    if (r.status === 0) {
      close();
      break;
    }
    // git stopped at the commit after the last complete one: that one's tree is missing.
    const done = current === undefined ? 0 : rest.findIndex((c) => c.sha === current);
    const failed = current === undefined ? 0 : done + 1;
    if (failed < rest.length) out.set(rest[failed].sha, true);
    rest = rest.slice(failed + 1);
  }
  return out;
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
 * Starts reading the whole graph of `repo` (every branch and remote-tracking branch) before
 * anything asks for it: the command line calls it first, so git reads while the command's own code
 * loads. It needs nothing from git first (the tips are git's to find), so it starts at once. A later
 * `readCommitGraph` waits for it, and walks what it kept from the branches it reads itself: a
 * commit no branch of its own reaches (a ref it does not count) links nothing. Failures are left to
 * that read, which starts over.
 */
export function readCommitGraphEarly(repo: string): void {
  if (kept.has(repo) || reading.has(repo)) return;
  const early = (async () => {
    const [prefix, top] = await Promise.all([gitText(repo, ["rev-parse", "--show-prefix"]), readLog(repo, "branches", "top", () => undefined)]);
    if (prefix === undefined || top === undefined) return;
    const where = prefix.trim();
    const state = emptyState(mailmapOf(repo, where), where, EARLY_TIPS);
    for (const c of await markCode(repo, top, true, where, state.trees)) state.commits.set(c.sha, c);
    state.lastRead = state.commits.size;
    if (!kept.has(repo)) kept.set(repo, state);
  })().catch(() => undefined);
  reading.set(repo, early);
  void early.finally(() => reading.get(repo) === early && reading.delete(repo));
}

async function readGraphNow(repo: string, defaultBranch: string | undefined, once: () => void): Promise<CommitGraph | undefined> {
  const { where, refs, originHead } = await refsOf(repo);
  if (where === undefined) {
    once();
    return undefined;
  }
  const { prefix, head } = where;
  const chosen = chooseDefault(refs, defaultBranch, originHead, head);
  const mailmap = mailmapOf(repo, prefix);
  let state = kept.get(repo);
  if (!state || state.mailmap !== mailmap || state.prefix !== prefix) {
    state = emptyState(mailmap, prefix, "");
    kept.set(repo, state);
  }
  const commits = state.commits;
  const tips = [...new Set(refs.map((r) => r.tip))];
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
    state.lastRead = read.length;
    // A few thousand tips are plenty to stop at; past that the newest are kept.
    state.tipsRead = new Set([...known, ...fresh].slice(-5000));
  }
  keepReachable(state, tips, read);
  once();
  return { commits: state.commits, refs, defaultBranch: chosen };
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
