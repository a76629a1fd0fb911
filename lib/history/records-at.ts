import { posix } from "node:path";
import { DerivationMemory, derivePlan } from "../plan/derive";
import { ISSUES_DIR, MILESTONES_DIR, PROJECT_DIR, PROJECT_FILE } from "../plan/constants";
import {
  FOLDER_LEAVES_REPOSITORY,
  type FileSource,
  MAX_RECORD_BYTES,
  type ParsedFile,
  REFUSED,
  RecordCache,
  loadRecords,
  loadRecordsFrom,
  parsedByContent,
  parseRecordBytes,
} from "../repo/load";
import type { PlanRecords } from "../plan/records";
import type { Plan } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import { type ObjectInfo, type TreeEntry, catFileCheck, catFileRead, isRead, parseTree, readChecked } from "./git-objects";
import type { RepoGit } from "./revision";
import { processWide } from "../process-wide";

// The records of a commit, read from git's object store through the loader's own parsing, so that
// a revision's plan is exactly the plan of a checkout of it. Every object's size is asked before it
// is read: a record over the loader's limit is a finding, never read. Parsed files are kept by blob
// id and trees by tree id, in memory, per repository: an unchanged file is parsed once.
const FOLDERS = [MILESTONES_DIR, ISSUES_DIR] as const;
/** Past this many parsed blobs (or trees) a repository's store starts again (a bound on memory, not on answers). */
const MAX_BLOBS = 400_000;
const MAX_TREES = 50_000;
const MAX_PLANS = 6;
/** The largest folder read: a tree of this many bytes lists some 500,000 files. */
const MAX_TREE_BYTES = 32 * 1024 * 1024;
/** The longest link target followed (a path longer than PATH_MAX names nothing a checkout holds). */
const MAX_LINK_BYTES = 4096;
/** How many links are followed, one after another, before a path is given up (as the kernel's ELOOP). */
const MAX_HOPS = 8;
/** How long a walk over many commits works before it lets other requests run. */
const YIELD_AFTER_MS = 12;

const NOT_A_FILE: ParsedFile = { ok: false, reason: REFUSED.notAFile };
const LEAVES_REPOSITORY: ParsedFile = { ok: false, reason: REFUSED.leavesRepository };
const treeTooLarge = (size: number) => `is a folder of ${size} bytes in git, larger than ${MAX_TREE_BYTES} bytes, the most a records folder may be; it is not read`;

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
  if (s.trees.size > MAX_TREES) s.trees.clear();
  return s;
}

/** How many files this process has parsed from a repository's history (for tests and the bench). */
export function parsedBlobCount(repo: string): number {
  return stores.get(repo)?.blobs.size ?? 0;
}

/** What one commit holds of the plan, as the loader reads it (`commitSource`). */
interface CommitFiles {
  /** project.yaml as read (undefined: there is none). */
  header?: ParsedFile;
  /** The two folders' entries (undefined: no such folder, or one not read). */
  folders: (TreeEntry[] | undefined)[];
  /** Where each folder really is in the commit, once its links are followed (its own path when it is no link). */
  realDirs: string[];
  /** Why a records folder is not read, by its path: a link out of the repository, a tree too large. */
  problems: Map<string, string>;
  /** What each `.yaml` link of the two folders reads, by its path (undefined: nothing, as a dangling link). */
  links: Map<string, ParsedFile | undefined>;
}

/** Where a path of a commit leads: an entry, a link out of the repository (at `leaves`), or nothing. */
type Found = { entry: TreeEntry; path: string } | { leaves: string } | { tooLarge: number } | undefined;

/** Where a link at `path` (relative to the repository's folder) leads, or undefined when that is outside it. */
function linkedPath(path: string, target: string): string | undefined {
  if (target.startsWith("/")) return undefined;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  return resolved === ".." || resolved.startsWith("../") ? undefined : resolved;
}

const linkTargets = processWide("history-link-targets", () => new Map<string, string>());

/** Reads one repository's objects for the commits asked, each size checked before the object is read. */
class CommitReader {
  private readonly store: Store;
  constructor(
    private readonly repo: string,
    private readonly git: RepoGit,
  ) {
    this.store = storeOf(repo);
  }

  /** The trees `infos` describe, parsed (cached by id); a tree over MAX_TREE_BYTES is left out. */
  async trees(infos: readonly ObjectInfo[]): Promise<void> {
    const wanted = new Map<string, ObjectInfo>();
    for (const o of infos) if (o.type === "tree" && o.size <= MAX_TREE_BYTES && !this.store.trees.has(o.id)) wanted.set(o.id, o);
    for (const o of await catFileRead(this.repo, [...wanted.values()], MAX_TREE_BYTES)) this.store.trees.set(o.id, parseTree(o.bytes, this.git.idBytes));
  }

  /** One tree by id, read when not kept (its size asked first). */
  async tree(id: string): Promise<TreeEntry[] | undefined> {
    const kept = this.store.trees.get(id);
    if (kept) return kept;
    const [info] = await catFileCheck(this.repo, [id]);
    if (info) await this.trees([info]);
    return this.store.trees.get(id);
  }

  /** The blobs named by `ids` parsed into the store (as the loader parses a file), the large ones refused unread. */
  async blobs(ids: Iterable<string>): Promise<void> {
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      if (this.store.blobs.has(id)) continue;
      // A file the work tree holds unchanged since that commit takes the work tree's parse.
      const parsed = this.git.idBytes === 20 ? parsedByContent(id) : undefined;
      if (parsed) this.store.blobs.set(id, parsed);
      else missing.push(id);
    }
    const infos = await catFileCheck(this.repo, missing);
    const small: ObjectInfo[] = [];
    infos.forEach((o) => {
      if (!o || o.type !== "blob") return;
      if (o.size > MAX_RECORD_BYTES) this.store.blobs.set(o.id, { ok: false, reason: REFUSED.tooLarge(o.size) });
      else small.push(o);
    });
    for (const o of await catFileRead(this.repo, small, MAX_RECORD_BYTES)) this.store.blobs.set(o.id, parseRecordBytes(o.bytes));
  }

  /** The targets of the links `ids` (their blobs), read in one batch when not kept. */
  async linkTargets(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !linkTargets.has(id));
    const read = await readChecked(this.repo, missing, MAX_LINK_BYTES, "blob");
    if (linkTargets.size > 100_000) linkTargets.clear();
    read.forEach((o, i) => {
      if (isRead(o)) linkTargets.set(missing[i], o.bytes.toString("utf8"));
    });
  }

  async linkTarget(id: string): Promise<string | undefined> {
    if (!linkTargets.has(id)) await this.linkTargets([id]);
    return linkTargets.get(id);
  }

  /** The repository folder's tree in `commit` (asked once per commit). */
  private roots = new Map<string, ObjectInfo | undefined>();
  private async root(commit: string): Promise<ObjectInfo | undefined> {
    if (!this.roots.has(commit)) this.roots.set(commit, (await catFileCheck(this.repo, [`${commit}:${this.git.prefix}`]))[0]);
    return this.roots.get(commit);
  }

  /**
   * Where `path` (relative to the repository's folder) leads in `commit`, as a checkout resolves
   * it: links followed while they stay inside the repository; one that leaves is named.
   */
  async lookUp(commit: string, path: string, hops = 0): Promise<Found> {
    const root = await this.root(commit);
    if (root?.type !== "tree") return undefined;
    if (root.size > MAX_TREE_BYTES) return { tooLarge: root.size };
    let entries = await this.tree(root.id);
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const entry = entries?.find((e) => e.name === parts[i]);
      if (!entry) return undefined;
      const here = parts.slice(0, i + 1).join("/");
      if (entry.kind === "link") {
        const target = hops < MAX_HOPS ? await this.linkTarget(entry.id) : undefined;
        if (target === undefined) return undefined;
        const resolved = linkedPath(here, target);
        if (resolved === undefined) return { leaves: here };
        const rest = parts.slice(i + 1);
        if (resolved === ".") return rest.length === 0 ? undefined : this.lookUp(commit, rest.join("/"), hops + 1);
        return this.lookUp(commit, [resolved, ...rest].join("/"), hops + 1);
      }
      if (i === parts.length - 1) return { entry, path };
      if (entry.kind !== "tree") return undefined;
      entries = await this.tree(entry.id);
    }
    return undefined;
  }

  /**
   * Where the entry at `path` (its real path) leads: through `byPath` (the commit's two folders,
   * by real path) while the links stay among them, else from the root as `lookUp` walks.
   */
  private async follow(commit: string, byPath: ReadonlyMap<string, TreeEntry>, path: string, hops: number): Promise<Found> {
    const e = byPath.get(path);
    if (!e) return this.lookUp(commit, path, hops);
    if (e.kind !== "link") return { entry: e, path };
    const target = hops < MAX_HOPS ? await this.linkTarget(e.id) : undefined;
    if (target === undefined) return undefined;
    const resolved = linkedPath(path, target);
    if (resolved === undefined) return { leaves: path };
    return resolved === "." ? undefined : this.follow(commit, byPath, resolved, hops + 1);
  }

  /** What the loader reads where `found` leads (its blob already in the store). */
  private parsedOf(found: Found): ParsedFile | undefined {
    if (found === undefined || "tooLarge" in found) return undefined;
    if ("leaves" in found) return LEAVES_REPOSITORY;
    if (found.entry.kind !== "blob") return NOT_A_FILE;
    return this.store.blobs.get(found.entry.id);
  }

  /** A record file's path as a checkout reads it: through its links, under the loader's limits. */
  async readFile(commit: string, path: string): Promise<ParsedFile | undefined> {
    const found = await this.lookUp(commit, path);
    if (found !== undefined && "entry" in found && found.entry.kind === "blob") await this.blobs([found.entry.id]);
    return this.parsedOf(found);
  }

  /** A records folder's entries by following its path, links and all (the slow way, for a folder not found as a plain tree). */
  async folderByWalk(commit: string, folder: string, f: CommitFiles, i: number): Promise<TreeEntry[] | undefined> {
    const { problems } = f;
    const found = await this.lookUp(commit, folder);
    if (found === undefined) return undefined;
    if ("leaves" in found) {
      problems.set(folder, FOLDER_LEAVES_REPOSITORY);
      return undefined;
    }
    if ("tooLarge" in found) return undefined;
    if (found.entry.kind !== "tree") return undefined;
    const [info] = await catFileCheck(this.repo, [found.entry.id]);
    if (info && info.size > MAX_TREE_BYTES) {
      problems.set(folder, treeTooLarge(info.size));
      return undefined;
    }
    f.realDirs[i] = found.path;
    return this.tree(found.entry.id);
  }

  /** The plan files of several commits: a few batches of `git cat-file` whatever their number. */
  async filesOf(commits: readonly string[]): Promise<CommitFiles[]> {
    const { prefix } = this.git;
    // Per commit: .ai (is there a plan at all), the project folder, the two folders, the header.
    const paths = [".ai", PROJECT_DIR, MILESTONES_DIR, ISSUES_DIR, PROJECT_FILE];
    const infos = await catFileCheck(this.repo, commits.flatMap((c) => paths.map((p) => `${c}:${prefix}${p}`)));
    const of = (k: number, i: number) => infos[k * paths.length + i];
    // The project folder and the two folders as trees, in one read (not .ai: only whether it is there).
    await this.trees(infos.filter((o, i): o is ObjectInfo => o !== undefined && i % paths.length >= 1 && i % paths.length <= 3));
    const files: CommitFiles[] = [];
    const pending: { k: number; id: string }[] = [];
    for (let k = 0; k < commits.length; k++) {
      const f: CommitFiles = { folders: [undefined, undefined], realDirs: [...FOLDERS], problems: new Map(), links: new Map() };
      files.push(f);
      if (!of(k, 0)) continue; // no .ai: the empty plan
      const project = of(k, 1);
      if (project?.type !== "tree") {
        // A part of the way is not a plain folder (a link, a file): walked as a checkout would.
        await this.walkCommit(commits[k], f);
        continue;
      }
      if (project.size > MAX_TREE_BYTES) {
        f.problems.set(PROJECT_DIR, treeTooLarge(project.size));
        continue;
      }
      const entries = this.store.trees.get(project.id) ?? [];
      const header = entries.find((e) => e.name === "project.yaml");
      if (header?.kind === "blob") {
        // Its size is asked with the folders: read with the folders' files, unless it is too large.
        const info = of(k, 4);
        if (!info) continue;
        if (info.size > MAX_RECORD_BYTES) f.header = { ok: false, reason: REFUSED.tooLarge(info.size) };
        else pending.push({ k, id: info.id });
      } else if (header?.kind === "link") {
        f.header = await this.readFile(commits[k], PROJECT_FILE);
      } else if (header) {
        f.header = NOT_A_FILE;
      }
      for (let i = 0; i < FOLDERS.length; i++) {
        const name = FOLDERS[i].slice(PROJECT_DIR.length + 1);
        const entry = entries.find((e) => e.name === name);
        const info = of(k, 2 + i);
        if (entry?.kind === "tree" && info?.type === "tree") {
          if (info.size > MAX_TREE_BYTES) f.problems.set(FOLDERS[i], treeTooLarge(info.size));
          else f.folders[i] = this.store.trees.get(info.id);
        } else if (entry?.kind === "link") {
          f.folders[i] = await this.folderByWalk(commits[k], FOLDERS[i], f, i);
        }
      }
    }
    // The headers and the folders' `.yaml` files, sizes first.
    const ids: string[] = [];
    for (const { id } of pending) ids.push(id);
    for (const f of files) for (const entries of f.folders) for (const e of entries ?? []) if (e.kind === "blob" && e.name.endsWith(".yaml")) ids.push(e.id);
    await this.blobs(ids);
    for (const { k, id } of pending) files[k].header = this.store.blobs.get(id);
    // Links: their targets in one batch, each followed through the commit's two folders (from the
    // root only for a path elsewhere), then the files they lead to read in one batch.
    const links: { f: CommitFiles; commit: string; path: string; real: string; byPath: Map<string, TreeEntry> }[] = [];
    files.forEach((f, k) => {
      const byPath = new Map<string, TreeEntry>();
      f.folders.forEach((entries, i) => {
        for (const e of entries ?? []) byPath.set(`${f.realDirs[i]}/${e.name}`, e);
      });
      f.folders.forEach((entries, i) => {
        for (const e of entries ?? []) {
          if (e.kind === "link" && e.name.endsWith(".yaml")) links.push({ f, commit: commits[k], path: `${FOLDERS[i]}/${e.name}`, real: `${f.realDirs[i]}/${e.name}`, byPath });
        }
      });
    });
    await this.linkTargets(links.map((l) => l.byPath.get(l.real)!.id));
    const found: Found[] = [];
    for (const l of links) found.push(await this.follow(l.commit, l.byPath, l.real, 0));
    await this.blobs(found.flatMap((x) => (x && "entry" in x && x.entry.kind === "blob" ? [x.entry.id] : [])));
    links.forEach((l, i) => l.f.links.set(l.path, this.parsedOf(found[i])));
    return files;
  }

  /** One commit's folders found by following each path, for a commit whose project folder is not a plain tree. */
  private async walkCommit(commit: string, f: CommitFiles): Promise<void> {
    for (const folder of [".ai", ".ai/repo", PROJECT_DIR]) {
      const found = await this.lookUp(commit, folder);
      if (found !== undefined && "leaves" in found) {
        f.problems.set(folder, FOLDER_LEAVES_REPOSITORY);
        return;
      }
      if (found === undefined || "tooLarge" in found || found.entry.kind !== "tree") return;
    }
    f.header = await this.readFile(commit, PROJECT_FILE);
    for (let i = 0; i < FOLDERS.length; i++) f.folders[i] = await this.folderByWalk(commit, FOLDERS[i], f, i);
  }
}

/** The loader's view of one commit's files. */
function commitSource(store: Store, files: CommitFiles): FileSource {
  const byPath = new Map<string, TreeEntry>();
  const names = new Map<string, string[]>();
  FOLDERS.forEach((folder, i) => {
    const entries = files.folders[i] ?? [];
    for (const e of entries) byPath.set(`${folder}/${e.name}`, e);
    names.set(folder, entries.filter((e) => e.name.endsWith(".yaml")).map((e) => e.name).sort(compareBytes));
  });
  return {
    list: (dir) => names.get(dir) ?? [],
    folderProblem: (folder) => files.problems.get(folder),
    read(path) {
      if (path === PROJECT_FILE) return files.header;
      const e = byPath.get(path);
      if (!e) return undefined;
      if (e.kind === "tree" || e.kind === "commit") return NOT_A_FILE;
      if (e.kind === "link") return files.links.get(path);
      return store.blobs.get(e.id);
    },
  };
}

const EMPTY: PlanRecords = { project: { name: "", repository: "", default_branch: "" }, milestones: [], issues: [], loadFindings: [] };

/** The records of each commit (null: before the first commit, the empty plan). */
export async function recordsAtCommits(repo: string, git: RepoGit, commits: readonly (string | null)[]): Promise<PlanRecords[]> {
  const real = [...new Set(commits.filter((c): c is string => c !== null))];
  return recordsOf(repo, commits, real, await new CommitReader(repo, git).filesOf(real));
}

function recordsOf(repo: string, commits: readonly (string | null)[], real: readonly string[], files: readonly CommitFiles[]): PlanRecords[] {
  const store = storeOf(repo);
  const byCommit = new Map(real.map((c, i) => [c, files[i]]));
  return commits.map((c) => (c === null ? { ...EMPTY, milestones: [], issues: [], loadFindings: [] } : loadRecordsFrom(commitSource(store, byCommit.get(c)!), "")));
}

/** The derived plan of each commit (kept for the last few commits asked). */
export async function plansAtCommits(repo: string, git: RepoGit, commits: readonly (string | null)[]): Promise<Plan[]> {
  const store = storeOf(repo);
  const wanted = [...new Set(commits.filter((c): c is string => c !== null && !store.plans.has(c)))];
  const derived = new Map<string, Plan>();
  if (wanted.length > 0) {
    const records = await recordsAtCommits(repo, git, wanted);
    wanted.forEach((c, i) => derived.set(c, derivePlan(records[i])));
  }
  const out = commits.map((c) => {
    if (c === null) return derivePlan(recordsOf(repo, [null], [], [])[0]);
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
  const read = recordsOf(repo, missing, missing, await new CommitReader(repo, git).filesOf(missing));
  const records = new Map(missing.map((c, i) => [c, read[i]]));
  // One memory for the walk: neighbouring commits share most records (and their seals).
  const memory = new DerivationMemory();
  const out: T[] = [];
  let slice = performance.now();
  for (let i = 0; i < commits.length; i++) {
    const c = commits[i];
    const plan = c === null ? derivePlan(recordsOf(repo, [null], [], [])[0]) : (store.plans.get(c) ?? derivePlan(records.get(c)!, memory));
    out.push(fn(plan, i));
    // Let the server answer other requests between derivations (a page's scripts, its stream).
    if (performance.now() - slice > YIELD_AFTER_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return out;
}
