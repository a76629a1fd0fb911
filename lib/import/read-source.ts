import { lstatSync, readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { invalidInput, notFound } from "../plan/errors";
import { LIMITS, type ImportLimits } from "./limits";
import type { ImportFormat, SourceFiles } from "./shapes";

// The command line's reading of a source: a file, or a folder walked within the limits, never
// through a link (a source is data: it is read, and nothing it names is followed).

/** Where a format's file lies inside a folder given for it. */
const FILE_IN_FOLDER: Partial<Record<ImportFormat, readonly string[]>> = {
  beads: [".beads/issues.jsonl", "issues.jsonl"],
  taskmaster: [".taskmaster/tasks/tasks.json", "tasks/tasks.json", "tasks.json"],
};

function statOf(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The stat of `rel` inside the folder `root`, each component of the way looked at without following
 * it: a link anywhere on it (`.beads` leading elsewhere) is refused, naming it. Undefined when absent.
 */
function statInside(root: string, rel: string) {
  let at = root;
  let st;
  for (const part of rel.split("/")) {
    at = join(at, part);
    st = statOf(at);
    if (!st) return undefined;
    if (st.isSymbolicLink()) throw invalidInput(`${at} is a link; an import reads a source without following links: give the folder or file it leads to`);
  }
  return st;
}

/** The folders of a Backlog.md folder that hold what the import reads (placeOf's); docs/ and decisions/ are never walked. */
const BACKLOG_FOLDERS = new Set(["tasks", "completed", "archive", "drafts", "milestones"]);

function readBounded(path: string, size: number, limits: ImportLimits): string {
  if (size > limits.fileBytes) throw invalidInput(`${path} is ${size} bytes, more than the ${limits.fileBytes} an import reads of one file`);
  return readFileSync(path, "utf8");
}

/** The source's files as text, by path relative to what was given. */
export function readSource(format: ImportFormat, path: string, limits: ImportLimits = LIMITS): SourceFiles {
  const st = statOf(path);
  if (!st) throw notFound(`no file or folder '${path}'; give the export file or the Backlog.md folder`);
  if (st.isSymbolicLink()) throw invalidInput(`${path} is a link; give the file or folder itself`);
  if (st.isFile()) return { [basename(path)]: readBounded(path, st.size, limits) };
  if (!st.isDirectory()) throw invalidInput(`${path} is neither a file nor a folder`);
  if (format === "backlog") {
    const inner = statInside(path, "backlog");
    return readFolder(inner?.isDirectory() ? join(path, "backlog") : path, limits);
  }
  for (const rel of FILE_IN_FOLDER[format] ?? []) {
    const s = statInside(path, rel);
    if (s?.isFile()) return { [rel]: readBounded(join(path, rel), s.size, limits) };
  }
  const where = (FILE_IN_FOLDER[format] ?? []).join(" or ");
  throw invalidInput(`${path} is a folder; ${format} imports ${where ? `one file (${where})` : "one file"}: give the file`);
}

/** Every regular file of a Backlog.md folder's task and milestone folders (Markdown) and its config.yml, within the counts, depth and bytes. */
function readFolder(root: string, limits: ImportLimits): SourceFiles {
  const out: Record<string, string> = {};
  let files = 0;
  let bytes = 0;
  const walk = (dir: string, rel: string, depth: number) => {
    if (depth > limits.folderDepth) throw invalidInput(`${dir} is more than ${limits.folderDepth} folders deep; a Backlog.md folder is not`);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path);
      if (st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        if (!name.startsWith(".") && (depth > 0 || BACKLOG_FOLDERS.has(name))) walk(path, relPath, depth + 1);
        continue;
      }
      if (!st.isFile() || !(rel ? name.endsWith(".md") : name === "config.yml")) continue;
      if (++files > limits.files) throw invalidInput(`${root} holds more than the ${limits.files} files an import reads`);
      bytes += st.size;
      if (bytes > limits.sourceBytes) throw invalidInput(`${root} holds more than the ${limits.sourceBytes} bytes an import reads`);
      out[relPath] = readBounded(path, st.size, limits);
    }
  };
  walk(root, "", 0);
  return out;
}
