import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, promises as fsp, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

// Many new record files at once, each atomic as writeFileAtomic's (lib/plan/write.ts): every
// temporary file written and flushed before any is renamed into place, the flushes run side by side
// (one after another, 10,000 of them take most of a minute), each folder flushed once at the end.

const FLUSHES_AT_ONCE = 32;

export interface NewFile {
  path: string;
  text: string;
}

/** Write new files (none may exist: `wx` on the final name's absence is the caller's check). */
export async function writeNewFiles(files: readonly NewFile[]): Promise<void> {
  const temps: string[] = [];
  try {
    for (const dir of new Set(files.map((f) => dirname(f.path)))) mkdirSync(dir, { recursive: true });
    for (const f of files) {
      // Not `.yaml`: a temporary file left by a crash is never read as a record.
      const tmp = join(dirname(f.path), `.${basename(f.path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
      const fd = openSync(tmp, "wx", 0o644);
      temps.push(tmp);
      try {
        writeSync(fd, f.text);
      } finally {
        closeSync(fd);
      }
    }
    let next = 0;
    const flusher = async () => {
      while (next < temps.length) {
        const handle = await fsp.open(temps[next++], "r+");
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FLUSHES_AT_ONCE, temps.length) }, flusher));
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
  files.forEach((f, i) => renameSync(temps[i], f.path));
  for (const dir of new Set(files.map((f) => dirname(f.path)))) {
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
}
