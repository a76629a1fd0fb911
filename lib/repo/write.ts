import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { refused } from "../plan/errors";
import { processWide } from "../process-wide";
import { FOLDER_LEAVES_REPOSITORY, folderLeavingRepository } from "./load";
import { bidiProblem } from "../plan/control-chars";

/** Write every byte at the file's position (a full disk may take part of them without an error; then the rest throws). */
export function writeAll(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** A command's record writes: each file's absolute path and its bytes before its first write (null: none). */
export type WriteJournal = Map<string, Buffer | null>;

const journals = processWide("write-journal", () => new AsyncLocalStorage<WriteJournal>());

/**
 * Run `command`, noting in `journal` every file it writes (writeFileAtomic, writeNewFiles, an
 * undo's removal): a following server commits exactly those, and knows what each held before.
 */
export function journalWrites<T>(journal: WriteJournal, command: () => Promise<T>): Promise<T> {
  return journals.run(journal, command);
}

/** Called before a file is written or removed: the journal of the command running (if any) keeps its bytes before. */
export function journalWrite(path: string): void {
  const journal = journals.getStore();
  if (!journal || journal.has(path)) return;
  let before: Buffer | null = null;
  try {
    if (lstatSync(path).isFile()) before = readFileSync(path);
  } catch {
    /* none yet */
  }
  journal.set(path, before);
}

/**
 * Replace a file's bytes atomically: write a temporary file in the same folder, fsync it, rename it
 * over the record, fsync the folder. A crash at any point leaves the old bytes or the new bytes.
 */
export function writeFileAtomic(path: string, text: string | Buffer, mode = 0o644): void {
  journalWrite(path);
  const dir = dirname(path);
  // Not `.yaml`: a temporary file left by a crash is never read as a record.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  let renamed = false;
  try {
    try {
      writeAll(fd, typeof text === "string" ? Buffer.from(text, "utf8") : text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    renamed = true;
  } finally {
    // Every failure takes its temporary file with it.
    if (!renamed) rmSync(tmp, { force: true });
  }
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    /* some file systems cannot fsync a folder; the rename is still atomic */
  }
}

/** Why an id cannot name a record file, or undefined when it can. */
export function idProblem(id: string): string | undefined {
  if (id === "") return "an id is not empty";
  if (id.includes("/") || id.includes("\\")) return `'${id}' is not an id: an id names a file of the records folder, without path separators`;
  if (id === "." || id === ".." || id.includes("..")) return `'${id}' is not an id: '..' may not appear in an id`;
  if (isAbsolute(id)) return `'${id}' is not an id: it is an absolute path`;
  if (/[\u0000-\u001f]/.test(id)) return `'${id.replace(/[\u0000-\u001f]/g, "?")}' is not an id: it holds a control character`;
  if (id.startsWith(".")) return `'${id}' is not an id: it may not start with '.'`;
  const bidi = bidiProblem("the id", id);
  if (bidi) return bidi;
  return undefined;
}

/**
 * Refuses, naming it, a records folder on the way to `folder` (relative to `repo`) that leads
 * outside the repository: nothing is written, or created, through it.
 */
export function refuseFolderOutside(repo: string, folder: string): void {
  const out = folderLeavingRepository(repo, folder);
  if (out !== undefined) throw refused(`${out} ${FOLDER_LEAVES_REPOSITORY}`);
}

/**
 * The record file `<folder>/<id>.yaml` of `repo`, read, once the id is known to name a regular
 * file inside the folder (a symlink that leaves the folder is refused, and so is a folder that
 * leads outside the repository). Undefined when there is no such file.
 */
export function readRecordFile(folder: string, id: string, repo: string): { path: string; text: string } | undefined {
  refuseFolderOutside(repo, relative(repo, folder).split(sep).join("/"));
  const path = join(folder, `${id}.yaml`);
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) {
    const target = realpathSync(path);
    const rel = relative(realpathSync(folder), target);
    if (rel.startsWith("..") || isAbsolute(rel) || rel.includes(sep)) {
      throw new Error(`${id}.yaml is a link that leaves the records folder; it is not written through`);
    }
    return { path: target, text: readFileSync(target, "utf8") };
  }
  if (!st.isFile()) return undefined;
  return { path, text: readFileSync(path, "utf8") };
}
