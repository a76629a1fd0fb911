import { gitEach } from "./git-run";

// Listing the branches and remote-tracking branches for the code links (docs/code-links.md), in a
// bounded way: a fetch from a hostile remote can bring a million refs, and the Cockpit keeps the
// first REFS_READ_LIMIT of them (by name), counts the rest as git prints them, and holds none of it.

/** A local branch (remote null) or a remote-tracking branch, never `<remote>/HEAD`. */
export interface GraphRef {
  name: string;
  remote: string | null;
  tip: string;
}

/** The refs the code links read at most (docs/security.md lists it); past it, a finding says how many there are. */
export const REFS_READ_LIMIT = 10_000;
/** git reads and sorts every ref before it prints one: 1M refs took 7 s on a busy 2-core machine. docs/security.md lists it. */
export const REFS_TIMEOUT_MS = 30_000;
/** A line longer than this is no ref git would write: it is counted, not read. */
const LINE_LIMIT = 64 * 1024;

const FORMAT = "--format=%(objectname) %(refname) %(symref)";

export interface RefsListing {
  /** The first refs by name, at most the limit (`<remote>/HEAD` left out). */
  refs: GraphRef[];
  /** The branch refs/remotes/origin/HEAD names, when it was among those read. */
  originHead?: string;
  /** Every ref listed under refs/heads and refs/remotes, `<remote>/HEAD` included. */
  total: number;
  /** Some listed refs were counted and not read (past the limit, or a line too long to be a ref). */
  cut: boolean;
}

/** One line of FORMAT as a branch, with the symbolic ref it names; undefined for `<remote>/HEAD` and what is no branch. */
function refOfLine(line: string): { ref?: GraphRef; full: string; symref: string } | undefined {
  const [tip = "", full = "", symref = ""] = line.split(" ");
  if (full.startsWith("refs/heads/")) return { ref: { name: full.slice("refs/heads/".length), remote: null, tip }, full, symref };
  if (!full.startsWith("refs/remotes/")) return undefined;
  const rest = full.slice("refs/remotes/".length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  const name = rest.slice(slash + 1);
  return { ...(name === "HEAD" ? {} : { ref: { name, remote: rest.slice(0, slash), tip } }), full, symref };
}

/**
 * The local and remote-tracking branches, the first `limit` by name, and how many refs there are.
 * git's output is read as it comes: the lines past the limit are only counted.
 */
export async function readBranchRefs(repo: string, limit = REFS_READ_LIMIT): Promise<RefsListing | undefined> {
  const out: RefsListing = { refs: [], total: 0, cut: false };
  // The start of a line the chunk before ended in; "long" when it is past LINE_LIMIT (counted, not read).
  let carry: Buffer | "long" | undefined;
  const take = (line: string) => {
    const read = refOfLine(line);
    if (read?.full === "refs/remotes/origin/HEAD" && read.symref) out.originHead = read.symref;
    if (read?.ref) out.refs.push(read.ref);
  };
  const onChunk = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; start = nl + 1, nl = chunk.indexOf(10, start)) {
      out.total++;
      if (out.refs.length < limit && carry !== "long") take((carry ? Buffer.concat([carry, chunk.subarray(start, nl)]) : chunk.subarray(start, nl)).toString("utf8"));
      else out.cut = true;
      carry = undefined;
    }
    if (start === chunk.length || carry === "long") return;
    const size = (carry?.length ?? 0) + chunk.length - start;
    carry = out.refs.length >= limit ? Buffer.alloc(0) : size > LINE_LIMIT ? "long" : Buffer.concat([carry ?? Buffer.alloc(0), chunk.subarray(start)]);
  };
  const r = await gitEach(repo, ["for-each-ref", FORMAT, "refs/heads", "refs/remotes"], onChunk, { timeoutMs: REFS_TIMEOUT_MS });
  return r.status === 0 ? out : undefined;
}

/**
 * The refs of `names` (full names: refs/heads/main, refs/remotes/origin/HEAD), each as git lists
 * it, one bounded call each: what a listing cut at its limit may have left out (the default
 * branch). A symbolic ref is the branch it names, with that branch's tip.
 */
export async function readNamedRefs(repo: string, names: readonly string[]): Promise<{ refs: GraphRef[]; originHead?: string }> {
  // A name with a wildcard is no ref git would write, and would be a pattern to for-each-ref.
  const asked = [...new Set(names)].filter((n) => /^refs\/(heads|remotes)\/[^*?[\\]+$/.test(n));
  const lines = await Promise.all(
    asked.map(async (name) => {
      let text = "";
      // The name itself sorts before everything under it (refs/heads/main/…), so it is the first.
      const r = await gitEach(repo, ["for-each-ref", "--count=1", FORMAT, name], (b) => void (text.length <= LINE_LIMIT && (text += b.toString("utf8"))));
      return r.status === 0 ? text.split("\n")[0] : "";
    }),
  );
  const out: { refs: GraphRef[]; originHead?: string } = { refs: [] };
  lines.forEach((line, i) => {
    const read = refOfLine(line);
    if (read?.full !== asked[i]) return;
    if (read.ref) out.refs.push(read.ref);
    else if (read.symref) {
      if (read.full === "refs/remotes/origin/HEAD") out.originHead = read.symref;
      const named = refOfLine(`${line.split(" ")[0]} ${read.symref}`);
      if (named?.ref) out.refs.push(named.ref);
    }
  });
  return out;
}
