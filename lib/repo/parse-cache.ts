import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { PlanRecords } from "../plan/records";
import { COCKPIT_VERSION } from "../version";
import type { YamlMap, YamlValue } from "../plan/yaml";
import { RecordCache, loadRecords, parseRecordBytes, sameStamp, type CachedFile, type KeptParses, type ParsedFile } from "./load";

// The parse cache: what a cold command would parse again, kept between processes. Parsing the
// records is most of a cold read of a large plan; the same bytes always parse the same. It is a
// cache and never believed: a missing, torn, corrupt or foreign file (another repository, another
// Cockpit, another V8) is ignored and written again, it is never reached through a link, and a file
// whose stamp no longer vouches for it is read, and parsed again unless its content id is known.

/** The file's first bytes: what it is, and the version of its layout. */
const MAGIC = Buffer.from("cockpit parse cache 3\n");
/** The most a cache file may hold; a larger plan is parsed as before, without one. */
export const MAX_PARSE_CACHE_BYTES = 256 * 1024 * 1024;
/** The most files it keeps. */
const MAX_FILES = 250_000;
const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What a cache file is kept for: a repository folder, as this process finds it. */
interface Owner {
  repo: string;
  dev: number;
  ino: number;
  cockpit: string;
  v8: string;
}

interface Header extends Owner {
  bytes: number;
  sha1: string;
}

/**
 * One file as the cache keeps it: path (relative to the repository), stamp, content id, and what the
 * loader made of it. A record is kept as the record it built (far smaller than its whole mapping,
 * which is read again only if something asks for it); the project's header as its mapping.
 */
type Kept = { ok: false; reason: string } | { ok: true; map: unknown } | { ok: true; built: NonNullable<Extract<ParsedFile, { ok: true }>["built"]> };

// The rows are JSON (parsed faster than V8's own serialization): a mapping is written as its
// entries under `$map`, and a milestone's exact order (a bigint) as its digits.
type Encoded = string | null | Encoded[] | { $map: [string, Encoded][] };
const encodeYaml = (v: unknown): Encoded =>
  v instanceof Map ? { $map: [...v].map(([k, x]) => [String(k), encodeYaml(x)]) } : Array.isArray(v) ? v.map(encodeYaml) : typeof v === "string" ? v : null;
function decodeYaml(v: unknown): YamlValue | undefined {
  if (v === null || typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((x) => decodeYaml(x) ?? null);
  if (typeof v === "object" && Array.isArray((v as { $map?: unknown }).$map)) {
    return new Map((v as { $map: [string, unknown][] }).$map.map(([k, x]) => [String(k), decodeYaml(x) ?? null]));
  }
  return undefined;
}
const jsonOf = (rows: Row[]) => JSON.stringify(rows, (key, value) => (typeof value === "bigint" ? value.toString() : value));
type Row = [string, number, number, number, number, string, Kept];

const isOutside = (rel: string) => rel === ".." || rel.startsWith("../") || isAbsolute(rel);

/** A folder that is a folder, not a link (nor missing). */
function isPlainDir(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Where the cache of `repo` lives: `cockpit/` in the git folder of the repository (the one it holds,
 * the one its `.git` file names for a worktree, or that of the repository it sits in). Every folder
 * on the way is a plain folder; undefined (no git, or a link on the way): no cache.
 */
export function parseCacheFile(repo: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(repo);
  } catch {
    return undefined;
  }
  for (let dir = real, depth = 0; depth < 64; depth++) {
    const dotGit = join(dir, ".git");
    const st = lstatSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory()) return cacheIn(dotGit, real, dir);
    if (st?.isFile()) {
      // A worktree or a submodule: git's own pointer to its folder (git never checks out a `.git`).
      const text = readSmall(dotGit);
      const named = /^gitdir: (.+)$/m.exec(text ?? "")?.[1]?.trim();
      const gitDir = named === undefined ? undefined : resolve(dir, named);
      return gitDir !== undefined && isPlainDir(gitDir) ? cacheIn(gitDir, real, dir) : undefined;
    }
    if (st !== undefined) return undefined; // a link or something else named .git: no cache
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  // No git: no cache (a read of a folder without git writes nothing at all).
  return undefined;
}

/** The cache file in a git folder; a plan in a subfolder of the repository has one of its own. */
function cacheIn(gitDir: string, repo: string, top: string): string | undefined {
  const folder = join(gitDir, "cockpit");
  const st = lstatSync(folder, { throwIfNoEntry: false });
  if (st === undefined) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch {
      return undefined;
    }
  } else if (!st.isDirectory()) return undefined;
  const sub = relative(top, repo);
  if (isOutside(sub)) return undefined;
  return join(folder, sub === "" ? "parse-cache" : `parse-cache-${createHash("sha1").update(sub).digest("hex").slice(0, 16)}`);
}

function readSmall(path: string): string | undefined {
  try {
    const fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
    try {
      const buffer = Buffer.alloc(4096);
      return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function ownerOf(repo: string): Owner | undefined {
  try {
    const real = realpathSync(repo);
    const st = lstatSync(real);
    return { repo: real, dev: st.dev, ino: st.ino, cockpit: COCKPIT_VERSION, v8: process.versions.v8 };
  } catch {
    return undefined;
  }
}

const sameOwner = (a: Owner, b: Owner) => a.repo === b.repo && a.dev === b.dev && a.ino === b.ino && a.cockpit === b.cockpit && a.v8 === b.v8;

/** The rows of a cache file that is whole and this repository's; undefined for any other. */
function readCache(file: string, owner: Owner): Row[] | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_PARSE_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(st.size);
    let length = 0;
    while (length < bytes.length) {
      const n = readSync(fd, bytes, length, bytes.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length !== bytes.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const newline = bytes.indexOf(10, MAGIC.length);
    if (newline < 0) return undefined;
    const header = JSON.parse(bytes.subarray(MAGIC.length, newline).toString("utf8")) as Partial<Header>;
    const payload = bytes.subarray(newline + 1);
    if (typeof header !== "object" || header === null || !sameOwner(header as Header, owner) || header.bytes !== payload.length) return undefined;
    if (createHash("sha1").update(payload).digest("hex") !== header.sha1) return undefined;
    const rows: unknown = JSON.parse(payload.toString("utf8"));
    return Array.isArray(rows) && rows.length <= MAX_FILES ? (rows as Row[]) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const isRow = (r: unknown): r is Row =>
  Array.isArray(r) && r.length === 7 && typeof r[0] === "string" && typeof r[5] === "string" && typeof r[6] === "object" && r[6] !== null;

/** What an earlier process parsed, as the record cache asks for it. */
function keptFrom(rows: Row[], repo: string): KeptParses {
  // Keys as the loader spells a file's path (its folder joined once, then `/name`): `repo` is real, so normal.
  const byPath = new Map<string, Row>();
  for (const row of rows) if (isRow(row)) byPath.set(`${repo}/${row[0]}`, row);
  let byContent: Map<string, Row> | undefined;
  const parsedOf = (row: Row, bytesAgain: () => Buffer): ParsedFile | undefined => {
    const p = row[6];
    if (p.ok === false) return typeof p.reason === "string" ? { ok: false, reason: p.reason } : undefined;
    if ("built" in p) {
      const built = p.built as unknown as Record<string, unknown> | null;
      if (typeof built !== "object" || built === null || typeof built.id !== "string" || (built.kind !== "issue" && built.kind !== "milestone")) return undefined;
      if (built.problem === undefined) {
        const record = built.record as Record<string, unknown> | null;
        if (typeof record !== "object" || record === null || !Array.isArray(built.unknown)) return undefined;
        if (typeof record.order_exact === "string") {
          if (!/^-?[0-9]+$/.test(record.order_exact)) return undefined;
          record.order_exact = BigInt(record.order_exact);
        }
      } else if (typeof built.problem !== "string") return undefined;
      // The mapping is read again only when asked for (a record renamed, say): the stamp vouches for the bytes.
      let map: YamlMap | undefined;
      const lazy = {
        ok: true as const,
        built: built as unknown as NonNullable<Extract<ParsedFile, { ok: true }>["built"]>,
        get map(): YamlMap {
          if (map === undefined) {
            const again = parseRecordBytes(bytesAgain());
            map = again.ok ? again.map : new Map();
          }
          return map;
        },
      };
      return lazy;
    }
    const map = decodeYaml(p.map);
    return map instanceof Map ? { ok: true, map } : undefined;
  };
  return {
    byPath(path, stamp) {
      const row = byPath.get(path);
      if (!row || !sameStamp({ ino: row[1], size: row[2], mtimeMs: row[3], ctimeMs: row[4] }, stamp)) return undefined;
      const parsed = parsedOf(row, () => readFileSync(path));
      return parsed && { parsed, contentId: row[5] };
    },
    byContent(id, bytes) {
      byContent ??= new Map([...byPath.values()].map((row) => [row[5], row]));
      const row = byContent.get(id);
      return row && parsedOf(row, () => bytes);
    },
  };
}

/** Writes the cache whole (a temporary file renamed over it); a failure leaves the old one or none. */
function writeCache(file: string, owner: Owner, files: Iterable<CachedFile>, repo: string): void {
  const rows: Row[] = [];
  for (const f of files) {
    // The loader's paths are the repository's followed by `/` and the file's path in it.
    if (!f.path.startsWith(`${repo}/`) || rows.length >= MAX_FILES) continue;
    const rel = f.path.slice(repo.length + 1);
    const p = f.parsed;
    const kept: Kept = !p.ok ? { ok: false, reason: p.reason } : p.built ? { ok: true, built: p.built } : { ok: true, map: encodeYaml(p.map) };
    rows.push([rel, f.stamp.ino, f.stamp.size, f.stamp.mtimeMs, f.stamp.ctimeMs, f.contentId, kept]);
  }
  const payload = Buffer.from(jsonOf(rows), "utf8");
  const header: Header = { ...owner, bytes: payload.length, sha1: createHash("sha1").update(payload).digest("hex") };
  const head = Buffer.concat([MAGIC, Buffer.from(`${JSON.stringify(header)}\n`)]);
  if (head.length + payload.length > MAX_PARSE_CACHE_BYTES) return;
  const temporary = `${file}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
    for (const part of [head, payload]) for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
  }
}

/**
 * The records of `repo` for a one-shot reader (a command): files whose bytes an earlier process
 * parsed are taken from the parse cache, and the cache is written again when anything was parsed.
 */
export function loadRecordsWithParseCache(repo: string): PlanRecords {
  const file = parseCacheFile(repo);
  const owner = file === undefined ? undefined : ownerOf(repo);
  if (file === undefined || owner === undefined) return loadRecords(repo);
  const rows = readCache(file, owner);
  const cache = new RecordCache(rows ? keptFrom(rows, owner.repo) : undefined, false);
  // Paths as the loader makes them, under the folder it was given; kept relative to the real one.
  const records = loadRecords(owner.repo, cache);
  if (cache.parses > 0 || rows === undefined || rows.length !== countOf(cache.files())) writeCache(file, owner, cache.files(), owner.repo);
  return records;
}

function countOf(items: Iterable<unknown>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}

/** For a test: whether a file holds a cache this process believes, and how many files it keeps. */
export function readParseCache(repo: string): { files: number } | undefined {
  const file = parseCacheFile(repo);
  const owner = ownerOf(repo);
  if (file === undefined || owner === undefined) return undefined;
  const rows = readCache(file, owner);
  return rows && { files: rows.length };
}
