import { invalidInput } from "../plan/errors";
import type { ImportLimits, SourceFiles } from "./shapes";

// The bounds within which a source is read, as the record loader bounds a record (lib/repo/load.ts):
// past a whole-source bound the import is refused before anything is read into records; past a
// per-record bound that one record is a named skip and the rest go on.

/** The whole source, every file together. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;
/** One file of a source. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Files of a folder source (Backlog.md). */
export const MAX_FILES = 20_000;
/** Records of one source (lines, task files, tasks and subtasks, issues). */
export const MAX_RECORDS = 50_000;
/** One line of a JSONL export (beads), one task file (Backlog.md); a JSON source is bounded as a whole file. */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** Nesting of arrays and objects in a JSON source. */
export const MAX_JSON_DEPTH = 64;
/** Folders deep below a folder source. */
export const MAX_FOLDER_DEPTH = 8;

export type { ImportLimits };

/** The bounds together, as every reader takes them: the constants above, or smaller ones a test gives. */
export const LIMITS: ImportLimits = {
  sourceBytes: MAX_SOURCE_BYTES,
  fileBytes: MAX_FILE_BYTES,
  files: MAX_FILES,
  records: MAX_RECORDS,
  recordBytes: MAX_RECORD_BYTES,
  jsonDepth: MAX_JSON_DEPTH,
  folderDepth: MAX_FOLDER_DEPTH,
};

/** Refuse a source past the whole-source bounds; the message names the bound and the fix. */
export function checkSourceBounds(files: SourceFiles, limits: ImportLimits = LIMITS): void {
  const names = Object.keys(files);
  if (names.length === 0) throw invalidInput("the source holds no file; give the export file or the Backlog.md folder");
  if (names.length > limits.files) throw invalidInput(`the source holds ${names.length} files, more than the ${limits.files} an import reads`);
  let total = 0;
  for (const name of names) {
    const bytes = Buffer.byteLength(files[name], "utf8");
    if (bytes > limits.fileBytes) throw invalidInput(`${name} is ${bytes} bytes, more than the ${limits.fileBytes} an import reads of one file`);
    total += bytes;
  }
  if (total > limits.sourceBytes) throw invalidInput(`the source is ${total} bytes, more than the ${limits.sourceBytes} an import reads`);
}

/** Why one record (a line, a task file, a task or issue as JSON) is past the per-record bound, if it is. */
export function recordTooLarge(text: string, what: string, limits: ImportLimits): string | undefined {
  // Bytes are at least the UTF-16 length in units; counting them exactly only near the bound.
  if (text.length * 3 <= limits.recordBytes) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > limits.recordBytes ? `${what} is ${bytes} bytes, more than the ${limits.recordBytes} an import reads of one record` : undefined;
}

/** How deep a JSON text nests, counted without parsing it (brackets outside strings). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** A JSON text parsed within the depth bound, or why it is not read. */
export function parseBoundedJson(text: string, limits: ImportLimits = LIMITS): { value: unknown } | { problem: string } {
  const depth = jsonDepth(text);
  if (depth > limits.jsonDepth) return { problem: `it nests ${depth} deep, more than the ${limits.jsonDepth} an import reads` };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
