import { spawn, spawnSync } from "node:child_process";

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
  const r = spawnSync("git", ["cat-file", "--batch"], {
    cwd: repo,
    input: batchInput(specs),
    maxBuffer: MAX_BUFFER,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (r.error || r.status !== 0) throw new GitError(`git cat-file failed: ${r.error?.message ?? r.stderr.toString().trim()}`);
  return parseBatch(r.stdout, specs.length);
}

/**
 * As `catFileBatch`, without holding the event loop while git works: for a server reading many
 * commits (a burn-up), which goes on answering other requests meanwhile.
 */
export function catFileBatchAsync(repo: string, specs: readonly string[]): Promise<(BatchObject | undefined)[]> {
  if (specs.length === 0) return Promise.resolve([]);
  const input = batchInput(specs);
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], { cwd: repo, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => reject(new GitError(`git cat-file failed: ${e.message}`)));
    child.on("close", (code) => {
      if (code !== 0) return reject(new GitError(`git cat-file failed: ${Buffer.concat(err).toString().trim()}`));
      try {
        resolve(parseBatch(Buffer.concat(out), specs.length));
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.on("error", () => undefined); // git gone early: its exit code says why
    child.stdin.end(input);
  });
}

function batchInput(specs: readonly string[]): string {
  for (const s of specs) if (s.includes("\n")) throw new GitError("an object name holds a line break");
  return specs.join("\n") + "\n";
}

/** `git cat-file --batch`'s answer for `count` names, in order; a name git cannot find is undefined. */
function parseBatch(out: Buffer, count: number): (BatchObject | undefined)[] {
  const objects: (BatchObject | undefined)[] = [];
  let i = 0;
  for (let k = 0; k < count; k++) {
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
