import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, promises as fsp, renameSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { journalWrite, writeAll } from "../repo/write";

// Many new record files at once, each atomic as writeFileAtomic's (lib/repo/write.ts): every
// temporary file written and flushed before any is renamed into place, each folder flushed once at
// the end. The flush is one syncfs of the file system (coreutils' `sync -f`): 10,000 fsyncs take
// most of a minute on a busy disk, one syncfs a fraction of a second. Without `sync`, each is fsynced.

const FLUSHES_AT_ONCE = 32;
const SYNC_TIMEOUT_MS = 120_000;

export interface NewFile {
  path: string;
  text: string;
}

/** syncfs(2) of the file system holding each folder (one `sync -f` for them all); false when it cannot be done. */
function syncFileSystems(dirs: readonly string[]): Promise<boolean> {
  return new Promise<boolean>((resolve) =>
    execFile("sync", ["-f", "--", ...dirs], { timeout: SYNC_TIMEOUT_MS, killSignal: "SIGKILL" }, (error) => resolve(error === null)),
  );
}

/** fsync every file, several at a time. */
async function flushEach(paths: readonly string[]): Promise<void> {
  let next = 0;
  const flusher = async () => {
    while (next < paths.length) {
      const handle = await fsp.open(paths[next++], "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FLUSHES_AT_ONCE, paths.length) }, flusher));
}

function flushFolder(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* some file systems cannot fsync a folder; each rename is still atomic */
  }
}

/** Write new files; the caller has checked, under the plan lock, that none exists. */
export async function writeNewFiles(files: readonly NewFile[]): Promise<void> {
  const dirs = [...new Set(files.map((f) => dirname(f.path)))];
  const temps: string[] = [];
  // One random part for the batch: each temporary name is already unique by its record's name, and
  // `wx` refuses a name that exists; 10,000 calls for random bytes bought nothing more.
  const batch = `${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    for (const f of files) {
      // Not `.yaml`: a temporary file left by a crash is never read as a record.
      const tmp = join(dirname(f.path), `.${basename(f.path)}.${batch}.tmp`);
      const fd = openSync(tmp, "wx", 0o644);
      temps.push(tmp);
      try {
        // Every byte, or the error: a full disk may take part of one write without an error.
        writeAll(fd, Buffer.from(f.text, "utf8"));
      } finally {
        closeSync(fd);
      }
    }
    if (!(await syncFileSystems(dirs))) await flushEach(temps);
    files.forEach((f, i) => {
      journalWrite(f.path);
      renameSync(temps[i], f.path);
    });
  } catch (error) {
    for (const tmp of temps) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
    }
    throw error;
  }
  for (const dir of dirs) flushFolder(dir);
}
