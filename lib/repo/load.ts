import { createHash } from "node:crypto";
import { closeSync, lstatSync, openSync, readSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ISSUES_DIR, MILESTONES_DIR, PROJECT_DIR, PROJECT_FILE } from "../plan/constants";
import {
  EMPTY_HEADER,
  headerFromMap,
  issueFromMap,
  milestoneFromMap,
  scalar,
  unknownKeys,
  type IssueRecord,
  type MilestoneRecord,
  type PlanRecords,
  type ProjectHeader,
  type RecordKind,
} from "../plan/records";
import type { PlanFinding } from "../plan/shapes";
import { compareBytes } from "../plan/text";
import { parseYaml, type YamlMap, type YamlProblem } from "../plan/yaml";
import { processWide } from "../process-wide";

/**
 * One file's outcome: its parsed mapping, or why it cannot be read. `built` keeps what the loader
 * made of the mapping (the record and its unknown keys), so a cached file is not rebuilt.
 */
export type ParsedFile = { ok: true; map: YamlMap; built?: Built<IssueRecord | MilestoneRecord> } | { ok: false; reason: string };
type Parsed = ParsedFile;

/** A record made from a mapping, or why it cannot be one (an id that disagrees with its file). */
type Built<R> =
  | { kind: RecordKind; id: string; problem: string }
  | { kind: RecordKind; id: string; problem?: undefined; record: R; unknown: string[] };

/**
 * A file modified this recently may be modified again within the same tick of the file system's
 * clock (Linux stamps files with a coarse clock, several milliseconds per tick), keeping its size,
 * inode and times: its stat cannot vouch for its content ("racy" in git's terms).
 */
export const RACY_MS = 2000;

/** The largest record file read (1 MiB); the largest record of the reference corpus is 10 KB. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Why a file is not read for its size (unknown when it grew past the limit while being read). */
const tooLarge = (size?: number): string =>
  `is ${size === undefined ? "" : `${size} bytes, `}larger than ${MAX_RECORD_BYTES} bytes (1 MiB), the most a record file may be; it is not read`;
const LEAVES_REPOSITORY = "is a symbolic link that leads outside the repository; it is not followed";
const NOT_A_FILE = "is not a regular file";

/** Why an entry that is not a plain record file is not read: the same words from disk and from git. */
export const REFUSED = { leavesRepository: LEAVES_REPOSITORY, notAFile: NOT_A_FILE, tooLarge } as const;

/** The folders the records live in, outermost first: each one must lie inside the repository. */
export const RECORD_FOLDERS = [".ai", ".ai/repo", PROJECT_DIR, MILESTONES_DIR, ISSUES_DIR] as const;

/** Why a records folder that is a link out is left alone (after its path): from disk and from git. */
export const FOLDER_LEAVES_REPOSITORY =
  "is a symbolic link that leads outside the repository; nothing in it is read or written (replace the link with a folder inside the repository)";

const isOutside = (rel: string) => rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);

/**
 * Whether the records folder `folder` (relative to the repository) is itself a link whose target
 * lies outside the repository (a dangling one by what it names). Its parents are not looked at.
 */
function linkLeavesRepository(repo: string, folder: string, realRepo: string): boolean {
  const path = join(repo, folder);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isSymbolicLink()) return false;
  try {
    return isOutside(relative(realRepo, realpathSync(path)));
  } catch {
    // Dangling: what it would lead to once its target exists.
    return isOutside(relative(realRepo, resolve(dirname(join(realRepo, folder)), readlinkSync(path))));
  }
}

/**
 * The first of the records folders on the way to `folder` (relative to the repository, as
 * `ISSUES_DIR`) that leads outside the repository, or undefined when every one lies inside it.
 */
export function folderLeavingRepository(repo: string, folder: string): string | undefined {
  let realRepo: string;
  try {
    realRepo = realpathSync(repo);
  } catch {
    return undefined; // no repository folder: nothing to read or write through
  }
  for (const f of RECORD_FOLDERS) {
    if (folder !== f && !folder.startsWith(`${f}/`)) continue;
    if (linkLeavesRepository(repo, f, realRepo)) return f;
  }
  return undefined;
}

/** A record file's bytes as the loader reads them, once its size is known (a git blob's, say). */
export function parseRecordBytes(bytes: Buffer): Parsed {
  return bytes.length > MAX_RECORD_BYTES ? { ok: false, reason: tooLarge(bytes.length) } : parseFile(bytes);
}

/**
 * A file's bytes, at most `limit` of them (undefined beyond): the stat's size is only a first
 * guess, since a file can grow between the stat and the read.
 */
function readAtMost(path: string, expected: number, limit = MAX_RECORD_BYTES): Buffer | undefined {
  const fd = openSync(path, "r");
  try {
    let buffer = Buffer.allocUnsafe(Math.min(expected, limit) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > limit) return undefined;
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const wanted = buffer.length - length;
      const n = readSync(fd, buffer, length, wanted, null);
      length += n;
      // A regular file reads short only at its end: no second call to learn that.
      if (n < wanted) break;
    }
    return length > limit ? undefined : buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * What may be read of a record file: its stat (a link's target's), or why it is not read. A
 * symbolic link is followed only to a file inside the repository; undefined when there is no file.
 */
export function lookAtRecordFile(path: string, repo: string): { stat: Stats } | { refused: string } | undefined {
  let stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (stat.isSymbolicLink()) {
    let target: string;
    try {
      target = realpathSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    if (isOutside(relative(realpathSync(repo), target))) return { refused: LEAVES_REPOSITORY };
    stat = statSync(target, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
  }
  if (!stat.isFile()) return { refused: NOT_A_FILE };
  if (stat.size > MAX_RECORD_BYTES) return { refused: tooLarge(stat.size) };
  return { stat };
}

/** A record file's text as read, or why it is not read (the rules of `loadRecords`). */
export function readRecordText(path: string, repo: string): { text: string } | { refused: string } | undefined {
  const look = lookAtRecordFile(path, repo);
  if (look === undefined || "refused" in look) return look;
  const bytes = readAtMost(path, look.stat.size);
  if (bytes === undefined) return { refused: tooLarge() };
  const text = decode(bytes);
  return text === undefined ? { refused: NOT_UTF8 } : { text };
}

/** What a file's stat says of it; a change to any of these is a change to the file. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

// The four numbers only: a Stats object would keep its dates alive.
const copyStamp = (s: FileStamp): FileStamp => ({ ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs });

export const sameStamp = (a: FileStamp, b: FileStamp) =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

interface CacheEntry {
  stamp: FileStamp;
  /** The git object id of the bytes parsed (undefined for a file that was not read). */
  contentId?: string;
  /** The last walk that saw the file (entries a walk did not see are forgotten). */
  walk: number;
  parsed: Parsed;
  /** The bytes read, kept while the file is racy: a later look compares them instead of trusting the stat. */
  racyBytes?: Buffer;
}

/**
 * Parsed files by their content's git object id (`blob <size>\0<bytes>` under SHA-1): reading a
 * commit, history takes the parse of a file the work tree holds unchanged instead of parsing it
 * again. Weak: the caches that hold a parse decide how long it lives.
 */
const byContent = processWide("parsed-by-content", () => new Map<string, WeakRef<Parsed>>());

/** The git object id (SHA-1) of a file with these bytes. */
export function contentIdOf(bytes: Buffer): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

function keepByContent(id: string, parsed: Parsed): void {
  if (byContent.size >= 100_000) for (const [key, ref] of byContent) if (ref.deref() === undefined) byContent.delete(key);
  if (byContent.size < 200_000) byContent.set(id, new WeakRef(parsed));
}

/**
 * Parses kept from an earlier process (lib/repo/parse-cache.ts): by path and stamp, where the stamp
 * still vouches for the bytes, and by content id once the bytes are read.
 */
export interface KeptParses {
  byPath(path: string, stamp: FileStamp): { parsed: Parsed; contentId: string } | undefined;
  /** `bytes`: the file's, which have that id. */
  byContent(contentId: string, bytes: Buffer): Parsed | undefined;
}

/** A file of the cache, as a parse cache on disk keeps it. */
export interface CachedFile {
  path: string;
  stamp: FileStamp;
  contentId: string;
  parsed: Parsed;
}

/** The parse of a file whose content has this git object id, if this process still holds one. */
export function parsedByContent(id: string): Parsed | undefined {
  return byContent.get(id)?.deref();
}

/**
 * Keeps parsed files between loads, keyed by path, size, modification time and inode, so a
 * long-running server re-reads only what changed. A file modified within RACY_MS of being read is
 * compared byte for byte on the next look, until it is old enough for its stat to be trusted.
 * Derived answers are never kept.
 */
export class RecordCache {
  private entries = new Map<string, CacheEntry>();
  /** Changes whenever what the cache holds changes: a plan derived at one version is valid until the next. */
  version = 0;
  private walk = 0;
  /** How many files this cache parsed (a parse cache on disk is written again only when one was). */
  parses = 0;

  /**
   * `kept`: parses of an earlier process. `shareParses`: offer each parse to this process's readers
   * of commits (`parsedByContent`); a one-shot read of the work tree has none to offer it to.
   */
  constructor(
    private readonly kept?: KeptParses,
    private readonly shareParses = true,
  ) {}

  /** The files read, with the stamps and content ids that vouch for them. */
  *files(): Iterable<CachedFile> {
    for (const [path, e] of this.entries) if (e.contentId !== undefined && !e.racyBytes) yield { path, stamp: e.stamp, contentId: e.contentId, parsed: e.parsed };
  }

  /** Begin a look at every file: `forgetUnseen` afterwards drops the files it did not see. */
  beginWalk(): void {
    this.walk++;
  }

  /**
   * The parsed file for `path` as last read, without looking at the file: for a caller whose
   * watcher saw no change to it. Undefined when it was not read, or was read too recently for its
   * stat to vouch for it.
   */
  known(path: string): Parsed | undefined {
    const hit = this.entries.get(path);
    if (!hit || hit.racyBytes) return undefined;
    hit.walk = this.walk;
    return hit.parsed;
  }

  /** The parsed file for `path` as it is now, read (and parsed) only when it may have changed. */
  read(path: string, stamp: FileStamp, now: number): Parsed {
    const hit = this.entries.get(path);
    const racy = now - Math.max(stamp.mtimeMs, stamp.ctimeMs) < RACY_MS;
    if (hit && sameStamp(hit.stamp, stamp)) {
      hit.walk = this.walk;
      if (!hit.racyBytes) return hit.parsed;
      const bytes = readAtMost(path, stamp.size);
      if (bytes === undefined) return this.refuse(path, tooLarge());
      if (bytes.equals(hit.racyBytes)) {
        if (!racy) hit.racyBytes = undefined;
        return hit.parsed;
      }
      return this.store(path, stamp, bytes, racy);
    }
    const seeded = racy ? undefined : this.kept?.byPath(path, stamp);
    if (seeded) {
      this.entries.set(path, { stamp: copyStamp(stamp), contentId: seeded.contentId, walk: this.walk, parsed: seeded.parsed });
      this.version++;
      return seeded.parsed;
    }
    const bytes = readAtMost(path, stamp.size);
    if (bytes === undefined) return this.refuse(path, tooLarge());
    return this.store(path, stamp, bytes, racy);
  }

  /**
   * A file that is not read (too large, a link out, not a file), kept so that a change of reason is
   * a change of what the cache holds. Its stamp matches no file's, so a readable file is always read.
   */
  refuse(path: string, reason: string): Parsed {
    const hit = this.entries.get(path);
    if (hit && hit.stamp.ino === -1 && !hit.parsed.ok && hit.parsed.reason === reason) {
      hit.walk = this.walk;
      return hit.parsed;
    }
    const parsed: Parsed = { ok: false, reason };
    this.entries.set(path, { stamp: { ino: -1, size: -1, mtimeMs: -1, ctimeMs: -1 }, walk: this.walk, parsed });
    this.version++;
    return parsed;
  }

  private store(path: string, stamp: FileStamp, bytes: Buffer, racy: boolean): Parsed {
    const contentId = contentIdOf(bytes);
    let parsed = this.kept?.byContent(contentId, bytes);
    if (!parsed) {
      parsed = parseFile(bytes);
      this.parses++;
    }
    if (this.shareParses) keepByContent(contentId, parsed);
    this.entries.set(path, { stamp: copyStamp(stamp), contentId, walk: this.walk, parsed, racyBytes: racy ? bytes : undefined });
    this.version++;
    return parsed;
  }

  /** Forget the files the current walk did not see (they no longer exist). */
  forgetUnseen(): void {
    for (const [p, entry] of this.entries) {
      if (entry.walk !== this.walk) {
        this.entries.delete(p);
        this.version++;
      }
    }
  }
}

function describe(problem: YamlProblem): string {
  if (problem.isTooLarge) return `is too large to read: it ${problem.reason}`;
  const at = problem.line !== undefined ? ` at line ${problem.line}, column ${problem.column}` : "";
  return `does not parse${at}: ${problem.reason}${problem.hint ? ` (${problem.hint})` : ""}`;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const NOT_UTF8 = "is not valid UTF-8 text; save it as UTF-8";

/** A record's bytes as text; bytes that are not UTF-8 make the file unreadable, never silently altered. */
function decode(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** One record file's bytes as the loader reads them: a mapping, or why it cannot be a record. */
export function parseFile(bytes: Buffer): Parsed {
  const text = decode(bytes);
  if (text === undefined) return { ok: false, reason: NOT_UTF8 };
  const result = parseYaml(text);
  if (!result.ok) return { ok: false, reason: describe(result.problem) };
  const value = result.value;
  if (!(value instanceof Map)) {
    const what = value === null ? "is empty" : Array.isArray(value) ? "is a list" : "is a single scalar";
    return { ok: false, reason: `${what}; a record is a YAML mapping of keys to values` };
  }
  return { ok: true, map: value };
}

function listYaml(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const yaml = names.filter((n) => n.endsWith(".yaml"));
  // The engine's sort (UTF-16 order) is byte order except where a surrogate pair meets a character
  // from U+E000 to U+FFFF; a single pass checks, and only then is the slower comparison used.
  yaml.sort();
  for (let i = 1; i < yaml.length; i++) if (compareBytes(yaml[i - 1], yaml[i]) > 0) return yaml.sort(compareBytes);
  return yaml;
}

/**
 * Where the loader reads files: the disk, or another source (a commit's tree). `list` names a
 * folder's `.yaml` entries in byte order; undefined read means the file is not there.
 */
export interface FileSource {
  read(path: string): Parsed | undefined;
  list?(dir: string): string[];
  /**
   * Why a records folder (relative, one of RECORD_FOLDERS, asked outermost first) is not read,
   * after its path; undefined when it is read.
   */
  folderProblem?(folder: string): string | undefined;
}

/**
 * Reads files from disk, through the cache when one is given. A file is not read when it is larger
 * than MAX_RECORD_BYTES, is not a regular file, or is a link that leads outside the repository.
 * A file `unchanged` vouches for is answered from the cache without a look.
 */
function fileSource(repo: string, cache?: RecordCache, unchanged?: (path: string) => boolean): FileSource {
  const now = Date.now();
  let realRepo: string | undefined;
  return {
    folderProblem(folder) {
      try {
        return linkLeavesRepository(repo, folder, (realRepo ??= realpathSync(repo))) ? FOLDER_LEAVES_REPOSITORY : undefined;
      } catch {
        return undefined; // no repository folder, or one that cannot be looked at: nothing is listed in it either
      }
    },
    read(path) {
      try {
        const kept = cache && unchanged?.(path) ? cache.known(path) : undefined;
        if (kept) return kept;
        const look = lookAtRecordFile(path, repo);
        if (look === undefined) return undefined;
        if ("refused" in look) return cache ? cache.refuse(path, look.refused) : { ok: false, reason: look.refused };
        if (!cache) {
          const bytes = readAtMost(path, look.stat.size);
          return bytes === undefined ? { ok: false, reason: tooLarge() } : parseFile(bytes);
        }
        return cache.read(path, look.stat, now);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A file removed between listing and reading is simply no longer part of the plan.
        if (code === "ENOENT") return undefined;
        return { ok: false, reason: `cannot be read (${code ?? String(error)})` };
      }
    },
  };
}

function unreadable(subject: string, message: string): PlanFinding {
  return { level: "FAIL", code: "unreadable_record", subject, message };
}

function schemaFinding(subject: string, keys: string[]): PlanFinding {
  return { level: "FAIL", code: "schema", subject, message: `unknown keys: ${keys.join(" ")}` };
}

/**
 * Load `<repo>/.ai/repo/project/`: the header, the milestones and the issues, each folder in byte
 * order of file name. A file that cannot be read becomes a finding naming it; nothing else is lost.
 * No project folder is an empty plan. `unchanged` names the files a watcher vouches for: their
 * cached parse is used without a stat (only with a cache).
 */
export function loadRecords(repo: string, cache?: RecordCache, unchanged?: (path: string) => boolean): PlanRecords {
  cache?.beginWalk();
  const records = loadRecordsFrom(fileSource(repo, cache, unchanged), repo);
  cache?.forgetUnseen();
  return records;
}

/** The records as `source` holds them under `repo` ("" for paths relative to the repository). */
export function loadRecordsFrom(source: FileSource, repo: string): PlanRecords {
  const loadFindings: PlanFinding[] = [];
  const left = (folder: string) => {
    const problem = source.folderProblem?.(folder);
    if (problem !== undefined) loadFindings.push(unreadable(folder, `${folder} ${problem}`));
    return problem !== undefined;
  };
  if (left(".ai") || left(".ai/repo") || left(PROJECT_DIR)) return { project: EMPTY_HEADER, milestones: [], issues: [], loadFindings };

  let project: ProjectHeader = EMPTY_HEADER;
  const projectPath = join(repo, PROJECT_FILE);
  const header = source.read(projectPath);
  if (header) {
    if (header.ok) {
      project = headerFromMap(header.map);
      const keys = unknownKeys("project", header.map);
      if (keys.length > 0) loadFindings.push(schemaFinding("PROJECT", keys));
    } else {
      loadFindings.push(unreadable("PROJECT", `${PROJECT_FILE} ${header.reason}`));
    }
  }

  const milestones = left(MILESTONES_DIR) ? [] : readFolder(source, repo, MILESTONES_DIR, "milestone", milestoneFromMap, loadFindings);
  const milestoneIds = new Set(milestones.map((m) => m.id));
  const issues = left(ISSUES_DIR) ? [] : readFolder(source, repo, ISSUES_DIR, "issue", issueFromMap, loadFindings, milestoneIds);
  return { project, milestones, issues, loadFindings };
}

/**
 * The records of one folder, in byte order of file name; a file that cannot be one becomes a
 * finding. `milestoneIds`, for issues: an issue may not reuse a milestone's id.
 */
function readFolder<R extends IssueRecord | MilestoneRecord>(
  source: FileSource,
  repo: string,
  folder: string,
  kind: "issue" | "milestone",
  make: (id: string, map: YamlMap) => R,
  findings: PlanFinding[],
  milestoneIds?: ReadonlySet<string>,
): R[] {
  const records: R[] = [];
  const dir = join(repo, folder);
  for (const name of source.list ? source.list(dir) : listYaml(dir)) {
    const id = name.slice(0, -5);
    const rel = `${folder}/${name}`;
    // Joined by hand: path.join's normalising costs more than the stat, for 10k files.
    const parsed = source.read(`${dir}/${name}`);
    if (!parsed) continue;
    if (!parsed.ok) {
      findings.push(unreadable(id, `${rel} ${parsed.reason}`));
      continue;
    }
    const built = build(parsed, kind, id, rel, make);
    if (built.problem !== undefined) {
      findings.push(unreadable(id, built.problem));
      continue;
    }
    if (milestoneIds?.has(id)) {
      findings.push(unreadable(id, `duplicate id ${id} (${rel}): a milestone has this id; rename the issue file and its id`));
      continue;
    }
    if (built.unknown.length > 0) findings.push(schemaFinding(id, built.unknown));
    records.push(built.record);
  }
  return records;
}

// Records are built once per parse: a cached, unchanged file hands back the same record object.
// A file's path fixes its id and kind, which are checked all the same.
function build<R extends IssueRecord | MilestoneRecord>(
  parsed: Parsed & { ok: true },
  kind: "issue" | "milestone",
  id: string,
  rel: string,
  make: (id: string, map: YamlMap) => R,
): Built<R> {
  const kept = parsed.built;
  if (kept && kept.kind === kind && kept.id === id) return kept as Built<R>;
  const problem = idProblem(rel, id, parsed.map);
  const built: Built<R> = problem
    ? { kind, id, problem }
    : { kind, id, record: make(id, parsed.map), unknown: unknownKeys(kind, parsed.map) };
  parsed.built = built;
  return built;
}

/**
 * `previous` (what `loadRecords` gave through `cache`) with the issue files at `changed` read again,
 * without looking at any other file: for a caller whose watcher named every file that changed.
 * Undefined when that is not a plain replacement (a file added, removed or unreadable, a finding
 * about it before or after, a path that is not an issue file): then every file is looked at.
 */
export function refreshRecords(repo: string, cache: RecordCache, previous: PlanRecords, changed: Iterable<string>): PlanRecords | undefined {
  const dir = join(repo, ISSUES_DIR);
  const source = fileSource(repo, cache);
  let issues: IssueRecord[] | undefined;
  for (const path of changed) {
    const name = path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : "";
    if (!name.endsWith(".yaml") || name.includes("/")) {
      // Not a record (a temporary file), or not an issue: only a record of another folder matters.
      if (path.endsWith(".yaml") || name === "") return undefined;
      continue;
    }
    const id = name.slice(0, -5);
    const at = (issues ?? previous.issues).findIndex((r) => r.id === id);
    if (at < 0 || previous.loadFindings.some((f) => f.subject === id)) return undefined;
    const parsed = source.read(path);
    if (!parsed?.ok) return undefined;
    const built = build(parsed, "issue", id, `${ISSUES_DIR}/${name}`, issueFromMap);
    if (built.problem !== undefined || built.unknown.length > 0) return undefined;
    issues ??= [...previous.issues];
    issues[at] = built.record;
  }
  return issues ? { ...previous, issues } : previous;
}

/**
 * The record a file's text makes, read as the loader reads it; undefined when the text would not
 * load cleanly as that milestone or issue (it does not parse, or declares another id).
 */
export function recordFromText(kind: "issue", id: string, text: string): IssueRecord | undefined;
export function recordFromText(kind: "milestone", id: string, text: string): MilestoneRecord | undefined;
export function recordFromText(kind: "issue" | "milestone", id: string, text: string): IssueRecord | MilestoneRecord | undefined {
  const parsed = parseFile(Buffer.from(text, "utf8"));
  if (!parsed.ok) return undefined;
  const built =
    kind === "issue"
      ? build(parsed, kind, id, `${ISSUES_DIR}/${id}.yaml`, issueFromMap)
      : build(parsed, kind, id, `${MILESTONES_DIR}/${id}.yaml`, milestoneFromMap);
  return built.problem === undefined ? built.record : undefined;
}

function idProblem(file: string, fileId: string, map: YamlMap): string | undefined {
  const declared = scalar(map.get("id"));
  if (declared === fileId) return undefined;
  return `${file} declares id '${declared}' but its filename says ${fileId}`;
}
