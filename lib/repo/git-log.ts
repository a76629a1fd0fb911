import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { invalidInput } from "../plan/errors";
import { processWide } from "../process-wide";
import { GIT_OUTPUT_LIMIT, git, gitPipe } from "./git-run";
import { isoOfSeconds } from "./git-time";

// Reading commits from git for the code links (docs/code-links.md): each commit's fields and
// whether it is code (it changes a path outside the plan's .ai/ against its first parent). What
// links a commit to an issue is lib/code's; this file only asks git and parses what it prints.

/** One commit as read from git. */
export interface GraphCommit {
  sha: string;
  /** First parent first. */
  parents: string[];
  /** As .mailmap maps it. */
  author: string;
  /** ISO UTC. */
  authored_at: string;
  committed_at: string;
  /** Subject and body, trailers included. */
  message: string;
  /** Whether it changes a path outside `.ai/` against its first parent (a root commit: against nothing). */
  isCode: boolean;
}

/**
 * How long the first read of a large history may take, past git's 10 s default: it walks every
 * commit once (diff-tree over 10k commits took 2 s on a busy 2-core machine, and it grows with the history).
 * Later reads ask only for new commits. docs/security.md lists it.
 */
const LOG_TIMEOUT_MS = 60_000;
/** Objects a partial clone lacks are never fetched by a read: the commit is taken as code instead. */
const NO_FETCH = { GIT_NO_LAZY_FETCH: "1" };

/** The fields before the changed paths: `\x1e\0` sha tree parents `\0` author `\0` times `\0` message `\0`. */
const FORMAT = "--format=%x1e%x00%H %T %P%x00%aN%x00%at %ct%x00%B%x00";

export interface Parsed {
  /** isCode is false until the commit's paths or trees tell. */
  commit: GraphCommit;
  tree: string;
  /** The changed paths, when they were asked for. */
  paths: string[];
}

const SHA = /^[0-9a-f]{40,64}$/;

/** `git log` output in FORMAT, one entry per commit. Free text (names, messages) ends at a NUL, which neither holds. */
export function parseLog(text: string): Parsed[] {
  const out: Parsed[] = [];
  let i = text.indexOf("\x1e\0");
  while (i >= 0) {
    const headEnd = text.indexOf("\0", i + 2);
    const authorEnd = headEnd < 0 ? -1 : text.indexOf("\0", headEnd + 1);
    const timesEnd = authorEnd < 0 ? -1 : text.indexOf("\0", authorEnd + 1);
    const messageEnd = timesEnd < 0 ? -1 : text.indexOf("\0", timesEnd + 1);
    if (messageEnd < 0) return out;
    const next = text.indexOf("\n\x1e\0", messageEnd + 1);
    const restEnd = next < 0 ? text.length : next;
    const head = text.slice(i + 2, headEnd).split(" ");
    const times = text.slice(authorEnd + 1, timesEnd);
    const space = times.indexOf(" ");
    let last = messageEnd;
    while (last > timesEnd + 1 && text.charCodeAt(last - 1) === 10) last--;
    const sha = head[0];
    const rest = messageEnd + 1 < restEnd ? text.slice(messageEnd + 1, restEnd) : "";
    i = next < 0 ? -1 : next + 1;
    if (!SHA.test(sha)) continue;
    out.push({
      commit: {
        sha,
        parents: head.slice(2).filter((p) => p !== ""),
        author: text.slice(headEnd + 1, authorEnd),
        authored_at: isoOfSeconds(Number(times.slice(0, space))),
        committed_at: isoOfSeconds(Number(times.slice(space + 1))),
        message: text.slice(timesEnd + 1, last),
        isCode: false,
      },
      tree: head[1] ?? "",
      paths: rest === "" ? [] : rest.split("\n").filter((l) => l !== ""),
    });
  }
  return out;
}

/** Bytes of git's log parsed at once: a few milliseconds of work between two turns of the event loop. */
const PARSE_CHUNK = 1024 * 1024;

/** A log file in FORMAT, parsed a piece at a time, yielding to the event loop between pieces. */
async function parseLogFile(file: string): Promise<Parsed[]> {
  const out: Parsed[] = [];
  const fd = openSync(file, "r");
  const buffer = Buffer.alloc(PARSE_CHUNK);
  const decoder = new StringDecoder("utf8");
  let pending = "";
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, PARSE_CHUNK, null);
      pending += n > 0 ? decoder.write(buffer.subarray(0, n)) : decoder.end();
      // The entries before the last one that starts are whole; that one may go on in the next piece.
      const whole = n > 0 ? pending.lastIndexOf("\n\x1e\0") : pending.length;
      if (whole > 0) {
        for (const p of parseLog(pending.slice(0, whole))) out.push(p);
        pending = pending.slice(whole + 1);
      }
      if (n === 0) return out;
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
  }
}

/** Whether one of the changed paths lies outside the plan's `.ai/` folder. */
export function touchesCode(paths: readonly string[], prefix: string): boolean {
  const plan = `${prefix}.ai/`;
  // A path git quotes (an unusual character) starts with '"'; the folder's name needs no quoting.
  return paths.some((p) => !(p.startsWith('"') ? p.slice(1) : p).startsWith(plan));
}

/** The folders git is writing a log into now: removed when the process exits before the read ends. */
const logFolders = processWide("code-log-folders", () => {
  const set = new Set<string>();
  process.once("exit", () => {
    for (const dir of set) rmSync(dir, { recursive: true, force: true });
  });
  return set;
});

type Reading = "paths" | "top" | "plain";

/** Which commits a read walks: those `input` names, one a line (tips, and `^known` to stop at). */
export interface Walk {
  input: string;
}

/**
 * The commits of `walk` in FORMAT, and after each one's fields:
 * - "paths": every path it changes against its first parent (`git log --name-only`);
 * - "top": the top-level entries it changes against its first parent (`git rev-list` into
 *   `git diff-tree`, which prints the same fields: one pass over the history, no path listed below
 *   the top). Undefined when git cannot tell (an object a partial clone lacks);
 * - "plain": nothing more.
 * git writes to a file of its own (outside the repository) rather than a pipe, so it runs to the
 * end while `meanwhile` holds the event loop (a command line derives its plan then).
 */
export async function readLog(repo: string, walk: Walk, reading: Reading, meanwhile: () => void): Promise<Parsed[] | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "cockpit-code-log-"));
  logFolders.add(dir);
  const file = join(dir, "log");
  const revs = ["--stdin"];
  const options = { input: walk.input, timeoutMs: LOG_TIMEOUT_MS, env: NO_FETCH };
  const diffs = ["--no-renames", "--diff-merges=first-parent", "--root"];
  try {
    const pending =
      reading === "top"
        ? gitPipe(repo, ["rev-list", ...revs, "--parents"], ["diff-tree", "--stdin", "--always", "--ignore-submodules=none", "--name-only", ...diffs, FORMAT, `--output=${file}`], options)
        : git(repo, ["log", ...revs, `--output=${file}`, FORMAT, ...(reading === "paths" ? ["--name-only", ...diffs] : []), "--"], options);
    pending.catch(() => undefined); // awaited below; a throw from `meanwhile` leaves it behind
    meanwhile();
    const r = await pending;
    if (r.status !== 0) {
      if (reading === "top") return undefined;
      throw invalidInput(`git log could not read this repository's commits: ${r.stderr.split("\n")[0] || `exit ${r.status}`}`);
    }
    if (statSync(file).size > GIT_OUTPUT_LIMIT) throw invalidInput(`git log printed more than ${Math.round(GIT_OUTPUT_LIMIT / (1024 * 1024))} MiB of commits; this history is too large to link`);
    return await parseLogFile(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    logFolders.delete(dir);
  }
}

/**
 * Whether a commit is code from the top-level entries it changes: true when one is not `folder`
 * (the first folder of the plan's path), false when none is; undefined when `folder` is one the
 * plan sits in (`deeper`) and only it changed, or a name comes quoted (it may be that folder's
 * name): the trees tell.
 */
export function codeOfTopLevel(names: readonly string[], folder: string, deeper: boolean): boolean | undefined {
  let code: boolean | undefined = false;
  for (const name of names) {
    if (name === folder) {
      if (deeper) code = undefined;
    } else if (name.startsWith('"')) code = undefined;
    else return true;
  }
  return code;
}

/**
 * The commits reachable from `tips` and not from `known` (read already), each one's tree kept in
 * `trees`, and whether each is code.
 * - A later read (after a commit or a fetch) is a few commits: the log names each one's changed
 *   paths itself.
 * - The first read of a history asks for the top-level entries each commit changes (listing every
 *   path of 10k commits is slower); what they leave open, or all of it when git cannot tell, is
 *   told by the trees (see `markCode`).
 */
export async function readCommits(repo: string, tips: readonly string[], known: readonly string[], prefix: string, trees: Map<string, string>, meanwhile: () => void): Promise<GraphCommit[]> {
  const walk = { input: [...tips, ...known.map((k) => `^${k}`)].join("\n") + "\n" };
  if (known.length > 0) {
    const parsed = (await readLog(repo, walk, "paths", meanwhile))!;
    for (const p of parsed) trees.set(p.commit.sha, p.tree);
    return parsed.map((p) => ((p.commit.isCode = touchesCode(p.paths, prefix)), p.commit));
  }
  const top = await readLog(repo, walk, "top", meanwhile);
  return markCode(repo, top ?? (await readLog(repo, walk, "plain", meanwhile))!, top !== undefined, prefix, trees);
}

/**
 * Marks whether each commit of a first read is code: from the top-level entries it changes (when
 * `byTop`), and what they leave open (or all, without them) from its tree against its first
 * parent's; where that cannot be told either, by the paths commit by commit (a commit whose tree
 * cannot be read counting as code). Each commit's tree is kept in `trees`.
 */
export async function markCode(repo: string, parsed: readonly Parsed[], byTop: boolean, prefix: string, trees: Map<string, string>): Promise<GraphCommit[]> {
  for (const p of parsed) trees.set(p.commit.sha, p.tree);
  const segments = [...prefix.split("/").filter(Boolean), ".ai"];
  const isCode = parsed.map((p) => (byTop ? codeOfTopLevel(p.paths, segments[0], segments.length > 1) : undefined));
  const marked = () => parsed.map((p, i) => ((p.commit.isCode = isCode[i]!), p.commit));
  const open = parsed.flatMap((p, i) => (isCode[i] === undefined ? [i] : []));
  if (open.length === 0) return marked();
  const code = await codeByTrees(repo, open.map((i) => ({ tree: parsed[i].tree, parent: parsed[i].commit.parents.length ? (trees.get(parsed[i].commit.parents[0]) ?? null) : "" })), segments);
  if (code) open.forEach((i, k) => (isCode[i] = code[k]));
  else {
    const byPaths = await codeByDiffTree(repo, parsed.map((p) => p.commit), prefix);
    parsed.forEach((p, i) => (isCode[i] = byPaths.get(p.commit.sha) ?? true));
  }
  return marked();
}

/** A tree as the comparison needs it: its bytes without the named folder's entry, and that entry ("<mode> <id>"). */
interface TreeSplit {
  rest: Buffer;
  folder?: { mode: string; id: string };
}

/** Trees split at `folder`, by `git cat-file --batch`; null for an object git does not have (or not a tree). */
async function readTrees(repo: string, ids: readonly string[], folder: string): Promise<Map<string, TreeSplit | null> | undefined> {
  const out = new Map<string, TreeSplit | null>();
  if (ids.length === 0) return out;
  const r = await git(repo, ["cat-file", "--batch"], { input: ids.join("\n") + "\n", timeoutMs: LOG_TIMEOUT_MS, env: NO_FETCH });
  if (r.status !== 0) return undefined;
  const bytes = r.stdout;
  const name = Buffer.from(folder, "utf8");
  let i = 0;
  for (const id of ids) {
    const eol = bytes.indexOf(0x0a, i);
    if (eol < 0) return undefined;
    const header = bytes.toString("latin1", i, eol).split(" ");
    i = eol + 1;
    if (header.length !== 3 || header[1] !== "tree") {
      out.set(id, null);
      if (header.length === 3) i += Number(header[2]) + 1;
      continue;
    }
    const end = i + Number(header[2]);
    const idBytes = id.length / 2;
    let split: TreeSplit = { rest: bytes.subarray(i, end) };
    // Entries are "<mode> <name>\0<raw id>", one after another.
    for (let at = i; at < end; ) {
      const space = bytes.indexOf(0x20, at);
      const nul = bytes.indexOf(0, space);
      const next = nul + 1 + idBytes;
      if (nul - space - 1 === name.length && bytes.compare(name, 0, name.length, space + 1, nul) === 0) {
        split = { rest: Buffer.concat([bytes.subarray(i, at), bytes.subarray(next, end)]), folder: { mode: bytes.toString("latin1", at, space), id: bytes.toString("hex", nul + 1, next) } };
        break;
      }
      at = next;
    }
    out.set(id, split);
    i = end + 1;
  }
  return out;
}

/**
 * Whether each commit changes a path outside `<prefix>.ai/`, from its tree against its first
 * parent's ("" for a root commit: against nothing; null: the parent's tree is not known), walking
 * down the plan's folder only where nothing else differs. Undefined when git cannot tell.
 */
async function codeByTrees(repo: string, pairs: readonly { tree: string; parent: string | null }[], segments: readonly string[]): Promise<boolean[] | undefined> {
  if (pairs.some((p) => p.parent === null)) return undefined;
  const result: (boolean | undefined)[] = pairs.map((p) => (p.tree === p.parent ? false : undefined));
  // "" is the empty tree: a root commit's parent, or a folder on one side only.
  let open = pairs.map((p, i) => ({ i, tree: p.tree, parent: p.parent as string })).filter((o) => result[o.i] === undefined);
  const empty: TreeSplit = { rest: Buffer.alloc(0) };
  for (let depth = 0; open.length > 0 && depth < segments.length; depth++) {
    const folder = segments[depth];
    const trees = await readTrees(repo, [...new Set(open.flatMap((o) => [o.tree, o.parent]).filter((t) => t !== ""))], folder);
    if (!trees) return undefined;
    const next: typeof open = [];
    for (const o of open) {
      const mine = o.tree === "" ? empty : trees.get(o.tree);
      const theirs = o.parent === "" ? empty : trees.get(o.parent);
      if (!mine || !theirs) {
        result[o.i] = true; // an object the clone lacks: counted as code
        continue;
      }
      const a = mine.folder;
      const b = theirs.folder;
      if (!mine.rest.equals(theirs.rest)) result[o.i] = true;
      else if ((a?.mode ?? "") === (b?.mode ?? "") && (a?.id ?? "") === (b?.id ?? "")) result[o.i] = false;
      else if (depth === segments.length - 1) result[o.i] = false;
      // A file where the plan's folder is on one side: a path outside .ai/ changed.
      else if ((a && a.mode !== "40000") || (b && b.mode !== "40000")) result[o.i] = true;
      else next.push({ i: o.i, tree: a?.id ?? "", parent: b?.id ?? "" });
    }
    open = next;
  }
  return result.map((r) => r ?? true);
}

/** Whether each commit is code, one `git diff-tree` over them all, started again past each commit whose tree is missing. */
async function codeByDiffTree(repo: string, commits: readonly GraphCommit[], prefix: string): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  let rest = commits;
  for (let attempt = 0; rest.length > 0 && attempt < 50; attempt++) {
    const input = rest.map((c) => (c.parents.length ? `${c.sha} ${c.parents[0]}` : c.sha)).join("\n") + "\n";
    const r = await git(repo, ["diff-tree", "--stdin", "--always", "--root", "-r", "--no-renames", "--name-only"], { input, timeoutMs: LOG_TIMEOUT_MS, env: NO_FETCH });
    let current: string | undefined;
    let paths: string[] = [];
    const close = () => current !== undefined && out.set(current, touchesCode(paths, prefix));
    for (const line of r.stdout.toString("utf8").split("\n")) {
      if (line === "") continue;
      const head = /^([0-9a-f]{40,64})( [0-9a-f]{40,64})?$/.exec(line);
      if (head && rest.some((c) => c.sha === head[1])) {
        close();
        current = head[1];
        paths = [];
      } else paths.push(line);
    }
    if (r.status === 0) {
      close();
      break;
    }
    // git stopped at the commit after the last complete one: that one's tree is missing.
    const done = current === undefined ? 0 : rest.findIndex((c) => c.sha === current);
    const failed = current === undefined ? 0 : done + 1;
    if (failed < rest.length) out.set(rest[failed].sha, true);
    rest = rest.slice(failed + 1);
  }
  return out;
}
