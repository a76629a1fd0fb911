import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ISSUES_DIR, MILESTONES_DIR, PROJECT_FILE } from "./constants";
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
} from "./records";
import type { PlanFinding } from "./shapes";
import { compareBytes } from "./text";
import { parseYaml, type YamlMap, type YamlProblem } from "./yaml";

/**
 * One file's outcome: its parsed mapping, or why it cannot be read. `built` keeps what the loader
 * made of the mapping (the record and its unknown keys), so a cached file is not rebuilt.
 */
type Parsed = { ok: true; map: YamlMap; built?: Built<IssueRecord | MilestoneRecord> } | { ok: false; reason: string };

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

/** What a file's stat says of it; a change to any of these is a change to the file. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const sameStamp = (a: FileStamp, b: FileStamp) =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

interface CacheEntry {
  stamp: FileStamp;
  /** The last walk that saw the file (entries a walk did not see are forgotten). */
  walk: number;
  parsed: Parsed;
  /** The bytes read, kept while the file is racy: a later look compares them instead of trusting the stat. */
  racyBytes?: Buffer;
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
      const bytes = readFileSync(path);
      if (bytes.equals(hit.racyBytes)) {
        if (!racy) hit.racyBytes = undefined;
        return hit.parsed;
      }
      return this.store(path, stamp, bytes, racy);
    }
    return this.store(path, stamp, readFileSync(path), racy);
  }

  private store(path: string, stamp: FileStamp, bytes: Buffer, racy: boolean): Parsed {
    const parsed = parseFile(bytes);
    // The four numbers only: a Stats object would keep its dates alive.
    const kept = { ino: stamp.ino, size: stamp.size, mtimeMs: stamp.mtimeMs, ctimeMs: stamp.ctimeMs };
    this.entries.set(path, { stamp: kept, walk: this.walk, parsed, racyBytes: racy ? bytes : undefined });
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
  const at = problem.line !== undefined ? ` at line ${problem.line}, column ${problem.column}` : "";
  return `does not parse${at}: ${problem.reason}${problem.hint ? ` (${problem.hint})` : ""}`;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A record's bytes as text; bytes that are not UTF-8 make the file unreadable, never silently altered. */
function decode(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

function parseFile(bytes: Buffer): Parsed {
  const text = decode(bytes);
  if (text === undefined) return { ok: false, reason: "is not valid UTF-8 text; save it as UTF-8" };
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

interface FileSource {
  read(path: string): Parsed | undefined;
}

/** Reads files from disk, through the cache when one is given. */
function fileSource(cache?: RecordCache, unchanged?: (path: string) => boolean): FileSource {
  const now = Date.now();
  return {
    read(path) {
      try {
        if (!cache) return parseFile(readFileSync(path));
        const kept = unchanged?.(path) ? cache.known(path) : undefined;
        if (kept) return kept;
        const st = statSync(path, { throwIfNoEntry: false });
        if (st === undefined) return undefined;
        return cache.read(path, st, now);
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
  const source = fileSource(cache, unchanged);
  const loadFindings: PlanFinding[] = [];

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

  const milestones = readFolder(source, repo, MILESTONES_DIR, "milestone", milestoneFromMap, loadFindings);
  const milestoneIds = new Set(milestones.map((m) => m.id));
  const issues = readFolder(source, repo, ISSUES_DIR, "issue", issueFromMap, loadFindings, milestoneIds);

  cache?.forgetUnseen();
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
  for (const name of listYaml(dir)) {
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
  const source = fileSource(cache);
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
