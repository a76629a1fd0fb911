import { posix } from "node:path";
import { DerivationMemory, derivePlan } from "../plan/derive";
import { ISSUES_DIR, MILESTONES_DIR, PROJECT_FILE } from "../plan/constants";
import { type FileSource, type ParsedFile, REFUSED, RecordCache, loadRecords, loadRecordsFrom, parsedByContent, parseRecordBytes } from "../plan/load";
import type { PlanRecords } from "../plan/records";
import type { Plan } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import { type BatchObject, type TreeEntry, catFileBatch, catFileBatchAsync, parseTree } from "./git-objects";
import type { RepoGit } from "./revision";
import { processWide } from "../process-wide";

// The records of a commit, read from git's object store through the loader's own parsing, so that
// a revision's plan is exactly the plan of a checkout of it. Parsed files are kept by blob id and
// trees by tree id, in memory, per repository: an unchanged file is parsed once.

const FOLDERS = [MILESTONES_DIR, ISSUES_DIR] as const;
/** Past this many parsed blobs a repository's store starts again (a bound on memory, not on answers). */
const MAX_BLOBS = 400_000;
const MAX_PLANS = 6;
/** How long a walk over many commits works before it lets other requests run. */
const YIELD_AFTER_MS = 12;

const NOT_A_FILE: ParsedFile = { ok: false, reason: REFUSED.notAFile };
const LEAVES_REPOSITORY: ParsedFile = { ok: false, reason: REFUSED.leavesRepository };

interface Store {
  blobs: Map<string, ParsedFile>;
  trees: Map<string, TreeEntry[]>;
  /** Derived plans by commit (a commit never changes), most recent last. */
  plans: Map<string, Plan>;
  /** The work tree's files, as the loader keeps them. */
  files?: RecordCache;
}

const stores = processWide("history-objects", () => new Map<string, Store>());

function storeOf(repo: string): Store {
  let s = stores.get(repo);
  if (!s) {
    s = { blobs: new Map(), trees: new Map(), plans: new Map() };
    stores.set(repo, s);
  }
  if (s.blobs.size > MAX_BLOBS) s.blobs.clear();
  return s;
}

/** How many files this process has parsed from a repository's history (for tests and the bench). */
export function parsedBlobCount(repo: string): number {
  return stores.get(repo)?.blobs.size ?? 0;
}

/** What one commit holds of the plan: the header's blob and the two folders' entries. */
interface CommitFiles {
  header?: { id: string; isTree: boolean };
  folders: (TreeEntry[] | undefined)[];
}

/** The names asked of git for the commits' plan files: per commit its header and its two folders. */
function folderSpecs(git: RepoGit, commits: readonly string[]): string[] {
  const specs: string[] = [];
  for (const c of commits) {
    specs.push(`${c}:${git.prefix}${PROJECT_FILE}`);
    for (const f of FOLDERS) specs.push(`${c}:${git.prefix}${f}`);
  }
  return specs;
}

/** The commits' files from git's answer to `folderSpecs`, and the blob ids not parsed yet. */
function takeFolders(store: Store, git: RepoGit, count: number, objects: readonly (BatchObject | undefined)[]): { files: CommitFiles[]; missing: string[] } {
  const files: CommitFiles[] = [];
  for (let k = 0; k < count; k++) {
    const [h, ...folders] = objects.slice(k * 3, k * 3 + 3);
    if (h?.type === "blob" && !store.blobs.has(h.id)) store.blobs.set(h.id, parseRecordBytes(h.bytes));
    files.push({
      header: h && (h.type === "blob" || h.type === "tree") ? { id: h.id, isTree: h.type === "tree" } : undefined,
      folders: folders.map((o) => {
        if (o?.type !== "tree") return undefined;
        let entries = store.trees.get(o.id);
        if (!entries) {
          entries = parseTree(o.bytes, git.idBytes);
          store.trees.set(o.id, entries);
        }
        return entries;
      }),
    });
  }
  const missing = new Set<string>();
  for (const f of files) for (const entries of f.folders) for (const e of entries ?? []) if ((e.kind === "blob" || e.kind === "link") && !store.blobs.has(e.id)) missing.add(e.id);
  return { files, missing: [...missing] };
}

function takeBlobs(store: Store, ids: readonly string[], blobs: readonly (BatchObject | undefined)[]): void {
  for (let i = 0; i < ids.length; i++) {
    const b = blobs[i];
    if (b) store.blobs.set(ids[i], parseRecordBytes(b.bytes));
  }
}

/**
 * The blobs still to be read from git: those whose content the work tree also holds take its
 * parse (the same file, unchanged since that commit), so only the others are read and parsed.
 */
function unread(store: Store, git: RepoGit, ids: readonly string[]): string[] {
  if (git.idBytes !== 20) return [...ids];
  const out: string[] = [];
  for (const id of ids) {
    const parsed = parsedByContent(id);
    if (parsed) store.blobs.set(id, parsed);
    else out.push(id);
  }
  return out;
}

/** The plan files of several commits, in two batches of `git cat-file` whatever their number. */
function filesOf(repo: string, git: RepoGit, commits: readonly string[]): CommitFiles[] {
  const store = storeOf(repo);
  const { files, missing } = takeFolders(store, git, commits.length, catFileBatch(repo, folderSpecs(git, commits)));
  const ids = unread(store, git, missing);
  takeBlobs(store, ids, catFileBatch(repo, ids));
  return files;
}

/** As `filesOf`, with git's reads off the event loop. */
async function filesOfAsync(repo: string, git: RepoGit, commits: readonly string[]): Promise<CommitFiles[]> {
  const store = storeOf(repo);
  const { files, missing } = takeFolders(store, git, commits.length, await catFileBatchAsync(repo, folderSpecs(git, commits)));
  const ids = unread(store, git, missing);
  takeBlobs(store, ids, await catFileBatchAsync(repo, ids));
  return files;
}

/** The loader's view of one commit's files. */
function commitSource(repo: string, git: RepoGit, commit: string, files: CommitFiles): FileSource {
  const store = storeOf(repo);
  const byPath = new Map<string, TreeEntry>();
  const names = new Map<string, string[]>();
  FOLDERS.forEach((folder, i) => {
    const entries = files.folders[i] ?? [];
    for (const e of entries) byPath.set(`${folder}/${e.name}`, e);
    names.set(folder, entries.filter((e) => e.name.endsWith(".yaml")).map((e) => e.name).sort(compareBytes));
  });
  const readEntry = (e: TreeEntry, path: string, hops: number): ParsedFile | undefined => {
    if (e.kind === "tree" || e.kind === "commit") return NOT_A_FILE;
    if (e.kind === "link") {
      // A symbolic link in a checkout reads its target: followed here within the plan's folders.
      const target = linkTarget(repo, e.id);
      if (target === undefined || hops > 8) return undefined;
      // As the loader on disk: a link that leads outside the repository is not followed. (On disk a
      // dangling one is skipped; here what lies outside cannot be known, so it is refused.)
      if (target.startsWith("/")) return LEAVES_REPOSITORY;
      const resolved = posix.normalize(posix.join(posix.dirname(path), target));
      if (resolved === ".." || resolved.startsWith("../")) return LEAVES_REPOSITORY;
      const next = byPath.get(resolved);
      if (next) return readEntry(next, resolved, hops + 1);
      return readOther(resolved);
    }
    return store.blobs.get(e.id);
  };
  // A link to a file elsewhere in the commit (outside the repository it names nothing git holds).
  const readOther = (path: string): ParsedFile | undefined => {
    if (path.startsWith("../") || path.startsWith("/") || path === "..") return undefined;
    const [o] = catFileBatch(repo, [`${commit}:${git.prefix}${path}`]);
    if (!o) return undefined;
    if (o.type === "tree") return NOT_A_FILE;
    if (o.type !== "blob") return undefined;
    let parsed = store.blobs.get(o.id);
    if (!parsed) {
      parsed = parseRecordBytes(o.bytes);
      store.blobs.set(o.id, parsed);
    }
    return parsed;
  };
  return {
    list: (dir) => names.get(dir) ?? [],
    read(path) {
      if (path === PROJECT_FILE) {
        if (!files.header) return undefined;
        return files.header.isTree ? NOT_A_FILE : store.blobs.get(files.header.id);
      }
      const e = byPath.get(path);
      return e ? readEntry(e, path, 0) : undefined;
    },
  };
}

const linkTargets = processWide("history-link-targets", () => new Map<string, string>());

function linkTarget(repo: string, id: string): string | undefined {
  let t = linkTargets.get(id);
  if (t === undefined) {
    const [o] = catFileBatch(repo, [id]);
    if (!o) return undefined;
    t = o.bytes.toString("utf8");
    linkTargets.set(id, t);
  }
  return t;
}

const EMPTY: PlanRecords = { project: { name: "", repository: "", default_branch: "" }, milestones: [], issues: [], loadFindings: [] };

/** The records of each commit (null: before the first commit, the empty plan). */
export function recordsAtCommits(repo: string, git: RepoGit, commits: readonly (string | null)[]): PlanRecords[] {
  const real = [...new Set(commits.filter((c): c is string => c !== null))];
  return recordsOf(repo, git, commits, real, filesOf(repo, git, real));
}

function recordsOf(repo: string, git: RepoGit, commits: readonly (string | null)[], real: readonly string[], files: readonly CommitFiles[]): PlanRecords[] {
  const byCommit = new Map(real.map((c, i) => [c, files[i]]));
  return commits.map((c) => (c === null ? { ...EMPTY, milestones: [], issues: [], loadFindings: [] } : loadRecordsFrom(commitSource(repo, git, c, byCommit.get(c)!), "")));
}

/** The derived plan of each commit (kept for the last few commits asked). */
export function plansAtCommits(repo: string, git: RepoGit, commits: readonly (string | null)[]): Plan[] {
  const store = storeOf(repo);
  const wanted = [...new Set(commits.filter((c): c is string => c !== null && !store.plans.has(c)))];
  const derived = new Map<string, Plan>();
  if (wanted.length > 0) {
    const records = recordsAtCommits(repo, git, wanted);
    wanted.forEach((c, i) => derived.set(c, derivePlan(records[i])));
  }
  const out = commits.map((c) => {
    if (c === null) return derivePlan(recordsAtCommits(repo, git, [null])[0]);
    const plan = derived.get(c) ?? store.plans.get(c)!;
    store.plans.delete(c);
    store.plans.set(c, plan);
    return plan;
  });
  while (store.plans.size > MAX_PLANS) store.plans.delete(store.plans.keys().next().value!);
  return out;
}

/** The records as the files are now, read by the loader (its rules, its cache by file stat). */
export function recordsNow(repo: string, _git: RepoGit): PlanRecords {
  // The loader itself, with its rules for links, sizes and odd files; its cache keeps parsed files.
  const store = storeOf(repo);
  return loadRecords(repo, (store.files ??= new RecordCache()));
}

/**
 * `fn` of the derived plan of each commit, one plan alive at a time (the files of all of them are
 * read in one batch): for answers over many commits, where keeping every plan would not fit.
 */
export async function mapPlansAtCommits<T>(
  repo: string,
  git: RepoGit,
  commits: readonly (string | null)[],
  fn: (plan: Plan, index: number) => T,
): Promise<T[]> {
  const store = storeOf(repo);
  const missing = [...new Set(commits.filter((c): c is string => c !== null && !store.plans.has(c)))];
  const read = recordsOf(repo, git, missing, missing, await filesOfAsync(repo, git, missing));
  const records = new Map(missing.map((c, i) => [c, read[i]]));
  // One memory for the walk: neighbouring commits share most records (and their seals).
  const memory = new DerivationMemory();
  const out: T[] = [];
  let slice = performance.now();
  for (let i = 0; i < commits.length; i++) {
    const c = commits[i];
    const plan = c === null ? derivePlan(recordsOf(repo, git, [null], [], [])[0]) : (store.plans.get(c) ?? derivePlan(records.get(c)!, memory));
    out.push(fn(plan, i));
    // Let the server answer other requests between derivations (a page's scripts, its stream).
    if (performance.now() - slice > YIELD_AFTER_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return out;
}
