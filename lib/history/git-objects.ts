import { spawnSync } from "node:child_process";

// Reading git's object store: commits' trees and blobs, in batches (one `git cat-file` process for
// any number of objects), never the work tree or the index.

/** One entry of a tree object. */
export interface TreeEntry {
  mode: string;
  name: string;
  id: string;
  kind: "blob" | "tree" | "link" | "commit";
}

export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitError";
  }
}

const MAX_BUFFER = 1 << 30;

/** Run git in `repo`; undefined when it fails (the caller says what that means). */
export function gitText(repo: string, args: readonly string[]): string | undefined {
  const r = spawnSync("git", args, { cwd: repo, encoding: "utf8", maxBuffer: MAX_BUFFER, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error || r.status !== 0 || typeof r.stdout !== "string") return undefined;
  return r.stdout;
}

function kindOfMode(mode: string): TreeEntry["kind"] {
  if (mode === "40000") return "tree";
  if (mode === "120000") return "link";
  if (mode === "160000") return "commit";
  return "blob";
}

/** A tree object's bytes as entries: `<mode> <name>\0<raw id>` one after another. */
export function parseTree(bytes: Buffer, idBytes: number): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = bytes.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > bytes.length) throw new GitError("a tree object is malformed");
    const mode = bytes.toString("latin1", i, space);
    const name = bytes.toString("utf8", space + 1, nul);
    const id = bytes.toString("hex", nul + 1, nul + 1 + idBytes);
    out.push({ mode, name, id, kind: kindOfMode(mode) });
    i = nul + 1 + idBytes;
  }
  return out;
}

export interface BatchObject {
  id: string;
  type: string;
  bytes: Buffer;
}

/**
 * The objects named by `specs` (ids or `<rev>:<path>`), in one `git cat-file --batch` run; a name
 * git cannot find maps to undefined.
 */
export function catFileBatch(repo: string, specs: readonly string[]): (BatchObject | undefined)[] {
  if (specs.length === 0) return [];
  for (const s of specs) if (s.includes("\n")) throw new GitError("an object name holds a line break");
  const r = spawnSync("git", ["cat-file", "--batch"], {
    cwd: repo,
    input: specs.join("\n") + "\n",
    maxBuffer: MAX_BUFFER,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (r.error || r.status !== 0) throw new GitError(`git cat-file failed: ${r.error?.message ?? r.stderr.toString().trim()}`);
  const out = r.stdout;
  const objects: (BatchObject | undefined)[] = [];
  let i = 0;
  for (let k = 0; k < specs.length; k++) {
    const eol = out.indexOf(0x0a, i);
    if (eol < 0) throw new GitError("git cat-file answered fewer objects than asked");
    const header = out.toString("utf8", i, eol);
    i = eol + 1;
    // "<id> <type> <size>", or "<name> missing" / "<name> ambiguous".
    const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(header);
    if (!m) {
      objects.push(undefined);
      continue;
    }
    const size = Number(m[3]);
    objects.push({ id: m[1], type: m[2], bytes: out.subarray(i, i + size) });
    i += size + 1;
  }
  return objects;
}
