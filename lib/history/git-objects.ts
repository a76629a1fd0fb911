import { git } from "../repo/git-run";

// Reading git's object store: commits' trees and blobs, in batches (one `git cat-file` process for
// any number of objects), never the work tree or the index. Every object's type and size is asked
// first (`--batch-check`), and only objects whose size was checked are read: no history, however
// large its blobs, makes this process hold more than it asked for.

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

/** What `git cat-file --batch-check` says of an object. */
export interface ObjectInfo {
  id: string;
  type: string;
  size: number;
}

export interface BatchObject extends ObjectInfo {
  bytes: Buffer;
}

/** The most one `cat-file --batch` run is asked to print (its objects are read in runs of this much). */
const BATCH_BYTES = 32 * 1024 * 1024;

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

function batchInput(specs: readonly string[]): string {
  for (const s of specs) if (s.includes("\n")) throw new GitError("an object name holds a line break");
  return specs.join("\n") + "\n";
}

const HEADER = /^([0-9a-f]{40,64}) (\S+) (\d+)$/;

/**
 * The type and size of the objects named by `specs` (ids or `<rev>:<path>`), in one
 * `git cat-file --batch-check` run, without reading them; a name git cannot find maps to undefined.
 */
export async function catFileCheck(repo: string, specs: readonly string[]): Promise<(ObjectInfo | undefined)[]> {
  if (specs.length === 0) return [];
  const r = await git(repo, ["cat-file", "--batch-check"], { input: batchInput(specs), maxBytes: specs.reduce((n, s) => n + s.length + 100, 4096) });
  if (r.status !== 0) throw new GitError(`git cat-file failed: ${r.stderr}`);
  const lines = r.stdout.toString("utf8").split("\n");
  if (lines.length < specs.length) throw new GitError("git cat-file answered fewer objects than asked");
  return specs.map((_, k) => {
    // "<id> <type> <size>", or "<name> missing" / "<name> ambiguous".
    const m = HEADER.exec(lines[k]);
    return m ? { id: m[1], type: m[2], size: Number(m[3]) } : undefined;
  });
}

/**
 * The objects `infos` describe (as `catFileCheck` answered), read by id in `git cat-file --batch`
 * runs of at most BATCH_BYTES each. An object larger than `limit` is refused here, never read.
 */
export async function catFileRead(repo: string, infos: readonly ObjectInfo[], limit: number): Promise<BatchObject[]> {
  const out: BatchObject[] = [];
  for (let start = 0; start < infos.length; ) {
    let end = start;
    let bytes = 0;
    while (end < infos.length && (end === start || bytes + infos[end].size <= BATCH_BYTES)) {
      if (infos[end].size > limit) throw new GitError(`object ${infos[end].id} is ${infos[end].size} bytes, more than the ${limit} asked for`);
      bytes += infos[end].size + 100;
      end++;
    }
    const run = infos.slice(start, end);
    const r = await git(repo, ["cat-file", "--batch"], { input: batchInput(run.map((o) => o.id)), maxBytes: bytes + 4096 });
    if (r.status !== 0) throw new GitError(`git cat-file failed: ${r.stderr}`);
    parseBatch(r.stdout, run, out);
    start = end;
  }
  return out;
}

/** `git cat-file --batch`'s answer for the objects `run` names, in order, appended to `out`. */
function parseBatch(stdout: Buffer, run: readonly ObjectInfo[], out: BatchObject[]): void {
  let i = 0;
  for (const info of run) {
    const eol = stdout.indexOf(0x0a, i);
    if (eol < 0) throw new GitError("git cat-file answered fewer objects than asked");
    const m = HEADER.exec(stdout.toString("utf8", i, eol));
    i = eol + 1;
    if (!m || m[1] !== info.id || Number(m[3]) !== info.size) throw new GitError(`git cat-file did not answer object ${info.id} as checked`);
    out.push({ ...info, bytes: stdout.subarray(i, i + info.size) });
    i += info.size + 1;
  }
}

/**
 * The objects named by `specs` whose type is `type` and whose size is at most `limit`, read; a name
 * git cannot find maps to undefined, one of another type or larger to its info alone.
 */
export async function readChecked(repo: string, specs: readonly string[], limit: number, type?: string): Promise<(BatchObject | ObjectInfo | undefined)[]> {
  const infos = await catFileCheck(repo, specs);
  const wanted = infos.filter((o): o is ObjectInfo => o !== undefined && o.size <= limit && (type === undefined || o.type === type));
  const read = new Map((await catFileRead(repo, [...new Map(wanted.map((o) => [o.id, o])).values()], limit)).map((o) => [o.id, o]));
  return infos.map((o) => (o && read.get(o.id)) ?? o);
}

/** Whether a `readChecked` answer holds the object's bytes. */
export const isRead = (o: BatchObject | ObjectInfo | undefined): o is BatchObject => o !== undefined && "bytes" in o;
