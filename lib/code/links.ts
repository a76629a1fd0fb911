import { MentionMatcher } from "./mention";
import type { FindingCode } from "../plan/constants";
import type { GraphCommit } from "../repo/git-log";
import { type GraphRef, REFS_READ_LIMIT } from "../repo/git-refs";
import type { CodeBranch, CodeCommit, CodeFinding, CodeMerged } from "./shapes";

// The links between the commit graph and the plan's issues (docs/code-links.md), as plain
// functions over what was read from git: no process, no file.

export type { GraphCommit } from "../repo/git-log";
export type { GraphRef } from "../repo/git-refs";

/** The branches linked to one issue at most; past it, a finding says how many name it. */
export const BRANCHES_PER_ISSUE = 50;

export interface CommitGraph {
  commits: ReadonlyMap<string, GraphCommit>;
  refs: readonly GraphRef[];
  /** The default branch as named in answers ("main", "origin/main") and its tip; null when there is none. */
  defaultBranch: { name: string; tip: string } | null;
  /** How many refs git listed, when that is more than were read (REFS_READ_LIMIT): the rest links nothing. */
  refsListed?: number;
}

/** What the findings need of an issue. */
export interface IssueFacts {
  id: string;
  status: string;
  started_at: string;
  verified_at: string;
  completed_at: string;
}

/** Everything linked to one issue. */
export interface IssueLinks {
  id: string;
  branches: CodeBranch[];
  commits: CodeCommit[];
  authors: string[];
  first_activity_at: string | null;
  last_activity_at: string | null;
  merged: CodeMerged | null;
  /** How many of the branches read name the issue: more than `branches` past BRANCHES_PER_ISSUE. */
  branchCount: number;
}

/** How the default branch's history is laid out: computed once per graph, shared by every branch. */
interface DefaultLine {
  /** The first-parent line from the tip (index 0) back, and each commit's place on it. */
  line: string[];
  index: Map<string, number>;
  /** Every commit the default branch holds → the commit of its first-parent line that brought it in. */
  bringer: Map<string, string>;
  /** For each commit of the first-parent line, how many commits it holds (itself and its ancestors). */
  held: Map<string, number>;
}

function layDefaultLine(graph: CommitGraph): DefaultLine {
  const index = new Map<string, number>();
  const line: string[] = [];
  for (let c = graph.defaultBranch?.tip; c !== undefined && graph.commits.has(c) && !index.has(c); c = graph.commits.get(c)!.parents[0]) {
    index.set(c, line.length);
    line.push(c);
  }
  const bringer = new Map<string, string>();
  const held = new Map<string, number>();
  // Oldest first: what a commit brings in is what none of the older ones already held.
  for (let i = line.length - 1; i >= 0; i--) {
    const stack = [line[i]];
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (bringer.has(c)) continue;
      bringer.set(c, line[i]);
      for (const p of graph.commits.get(c)?.parents ?? []) if (!bringer.has(p) && graph.commits.has(p)) stack.push(p);
    }
    held.set(line[i], bringer.size);
  }
  return { line, index, bringer, held };
}

/** The commits a branch holds: its tip's first-parent line back to (not including) the default branch's first-parent line. */
function heldBy(graph: CommitGraph, line: DefaultLine, tip: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let c: string | undefined = tip; c !== undefined && graph.commits.has(c) && !line.index.has(c) && !seen.has(c); c = graph.commits.get(c)!.parents[0]) {
    seen.add(c);
    out.push(c);
  }
  return out;
}

/** Commits reachable from `tip` that the default branch lacks, and those it has. */
function aheadBehind(graph: CommitGraph, line: DefaultLine, tip: string): { ahead: number; behind: number } {
  const total = graph.defaultBranch ? (line.held.get(graph.defaultBranch.tip) ?? 0) : 0;
  const seen = new Set<string>();
  const entries: string[] = [];
  const stack = [tip];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (seen.has(c) || !graph.commits.has(c)) continue;
    seen.add(c);
    if (line.bringer.has(c)) {
      entries.push(c);
      continue;
    }
    for (const p of graph.commits.get(c)!.parents) stack.push(p);
  }
  const ahead = seen.size - entries.length;
  // What the branch shares with the default branch: the walk stops at the first-parent line, whose
  // held sets nest (the newest reached holds all the older ones); side commits it passed are added
  // unless that newest one already holds them (brought in by it or an older one).
  let newest = Infinity;
  const side: string[] = [];
  const passed = new Set<string>();
  const walk = [...entries];
  while (walk.length > 0) {
    const c = walk.pop()!;
    if (passed.has(c) || !graph.commits.has(c)) continue;
    passed.add(c);
    const at = line.index.get(c);
    if (at !== undefined) {
      newest = Math.min(newest, at);
      continue;
    }
    side.push(c);
    for (const p of graph.commits.get(c)!.parents) walk.push(p);
  }
  const heldByNewest = newest === Infinity ? 0 : line.held.get(line.line[newest])!;
  const extra = side.filter((c) => !(line.index.get(line.bringer.get(c)!)! >= newest)).length;
  return { ahead, behind: total - heldByNewest - extra };
}

/**
 * What a derivation keeps for the next one over the same repository: the default branch's layout
 * (while its tip is the same), each branch's ahead, behind and held commits (by tip), and the ids
 * each commit message mentions (while the ids are the same). Commits never change, so after one new
 * commit only what it touches is derived again.
 */
export class LinkMemory {
  lineKey = "";
  line?: DefaultLine;
  branches = new Map<string, { ahead: number; behind: number; held: string[] }>();
  idsKey = "";
  /** The code commits each issue's id is mentioned by, over the first `read` commits of `commits`. */
  mentioned = new Map<string, Set<string>>();
  read = 0;
  commits?: ReadonlyMap<string, GraphCommit>;
}

const newestFirst = (a: CodeCommit & { committed_at: string }, b: CodeCommit & { committed_at: string }) =>
  a.authored_at !== b.authored_at ? (a.authored_at < b.authored_at ? 1 : -1) : a.committed_at !== b.committed_at ? (a.committed_at < b.committed_at ? 1 : -1) : a.sha < b.sha ? -1 : 1;

/**
 * Every issue with at least one link, by id in `issueIds` order, each with its branches and
 * commits; with `only`, that issue alone (the others are linked the same, just not laid out).
 */
export function linkIssues(graph: CommitGraph, issueIds: readonly string[], memory = new LinkMemory(), only?: string): Map<string, IssueLinks> {
  const matcher = new MentionMatcher(issueIds);
  const lineKey = graph.defaultBranch?.tip ?? "";
  if (memory.lineKey !== lineKey || !memory.line) {
    memory.lineKey = lineKey;
    memory.line = layDefaultLine(graph);
    memory.branches.clear();
  }
  const line = memory.line;
  const idsKey = issueIds.join("\0");
  if (memory.idsKey !== idsKey || memory.commits !== graph.commits || memory.read > graph.commits.size) {
    // Another map is another set of commits (the reader drops those no branch reaches any more):
    // what its messages mention is read again, and the layouts of tips no branch has are dropped.
    if (memory.commits !== graph.commits) {
      const tips = new Set(graph.refs.map((r) => r.tip));
      for (const tip of memory.branches.keys()) if (!tips.has(tip)) memory.branches.delete(tip);
    }
    memory.idsKey = idsKey;
    memory.commits = graph.commits;
    memory.mentioned.clear();
    memory.read = 0;
  }
  // Commits are only ever added (in reading order): the messages read before are not read again.
  let n = 0;
  for (const c of graph.commits.values()) {
    if (n++ < memory.read || !c.isCode) continue;
    for (const id of matcher.find(c.message)) {
      let set = memory.mentioned.get(id);
      if (!set) memory.mentioned.set(id, (set = new Set()));
      set.add(c.sha);
    }
  }
  memory.read = graph.commits.size;
  const wanted = only === undefined ? undefined : new Set([only]);
  const branchesOf = new Map<string, CodeBranch[]>();
  const branchCount = new Map<string, number>();
  const commitIds = new Map<string, Set<string>>();
  const link = (sha: string, id: string) => {
    const c = graph.commits.get(sha);
    if (!c || !c.isCode) return;
    let set = commitIds.get(id);
    if (!set) commitIds.set(id, (set = new Set()));
    set.add(sha);
  };
  for (const ref of graph.refs) {
    const ids = matcher.find(ref.name).filter((id) => !wanted || wanted.has(id));
    if (ids.length === 0 || !graph.commits.has(ref.tip)) continue;
    for (const id of ids) branchCount.set(id, (branchCount.get(id) ?? 0) + 1);
    // Past the bound an issue's branches are counted, not linked (a fetch can bring 100k of them).
    const linked = ids.filter((id) => branchCount.get(id)! <= BRANCHES_PER_ISSUE);
    if (linked.length === 0) continue;
    const tip = graph.commits.get(ref.tip)!;
    let known = memory.branches.get(ref.tip);
    if (!known) memory.branches.set(ref.tip, (known = { ...aheadBehind(graph, line, ref.tip), held: heldBy(graph, line, ref.tip) }));
    const { ahead, behind, held } = known;
    const branch: CodeBranch = { name: ref.name, remote: ref.remote, tip: ref.tip, ahead, behind, last_commit_at: tip.authored_at, merged: line.bringer.has(ref.tip) };
    for (const id of linked) {
      let list = branchesOf.get(id);
      if (!list) branchesOf.set(id, (list = []));
      list.push(branch);
      for (const sha of held) link(sha, id);
    }
  }
  for (const [id, shas] of memory.mentioned) {
    if (wanted && !wanted.has(id)) continue;
    for (const sha of shas) link(sha, id);
  }
  const out = new Map<string, IssueLinks>();
  for (const id of wanted ? issueIds.filter((i) => wanted.has(i)) : issueIds) {
    const branches = (branchesOf.get(id) ?? []).sort((a, b) => compare(a.remote ?? "", b.remote ?? "") || compare(a.name, b.name));
    const shas = [...(commitIds.get(id) ?? [])];
    if (branches.length === 0 && shas.length === 0) continue;
    const commits = shas
      .map((sha) => {
        const c = graph.commits.get(sha)!;
        return { sha, subject: subjectOf(c.message), author: c.author, authored_at: c.authored_at, on_default: line.bringer.has(sha), committed_at: c.committed_at };
      })
      .sort(newestFirst);
    let merged: CodeMerged | null = null;
    let oldest = -1;
    for (const c of commits) {
      const by = line.bringer.get(c.sha);
      if (by !== undefined && line.index.get(by)! > oldest) {
        oldest = line.index.get(by)!;
        merged = { commit: by, at: graph.commits.get(by)!.committed_at };
      }
    }
    const dates = commits.map((c) => c.authored_at).sort();
    out.set(id, {
      id,
      branches,
      commits: commits.map(({ committed_at: _, ...c }) => c),
      authors: [...new Set(commits.map((c) => c.author))].sort(compare),
      first_activity_at: dates[0] ?? null,
      last_activity_at: dates.at(-1) ?? null,
      merged,
      branchCount: branchCount.get(id) ?? 0,
    });
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A message's first line. */
export function subjectOf(message: string): string {
  const end = message.indexOf("\n");
  return (end < 0 ? message : message.slice(0, end)).trim();
}

const short = (sha: string) => sha.slice(0, 7);
/** An ISO time as "2026-11-30 09:50 UTC". */
const when = (iso: string) => iso.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");
const DAY_MS = 86_400_000;

/**
 * The code findings of one issue: what its code says its status should be. `now` is ISO; an issue
 * with no link can still be stalled (ACTIVE, no stamp and no commit for `staleDays`).
 */
export function codeFindings(issue: IssueFacts, links: IssueLinks | undefined, defaultBranch: string | null, now: string, staleDays: number): CodeFinding[] {
  const out: CodeFinding[] = [];
  const warn = (code: FindingCode, message: string) => out.push({ level: "WARN", code, subject: issue.id, message });
  const commits = links?.commits ?? [];
  const onto = defaultBranch ?? "the default branch";
  if (commits.length > 0 && (issue.status === "READY" || issue.status === "BLOCKED") && issue.started_at === "") {
    const latest = commits[0];
    const branch = links!.branches.find((b) => b.ahead > 0) ?? links!.branches[0];
    warn(
      "work_without_start",
      `${issue.id} is ${issue.status} and was never started, yet ${commits.length} commit${commits.length === 1 ? "" : "s"} work on it (latest ${short(latest.sha)} by ${latest.author} on ${when(latest.authored_at)}${branch ? `, branch ${branchName(branch)}` : ""}): someone is on it; ask them, then start it (cockpit plan start ${issue.id})`,
    );
  }
  const merged = links?.merged;
  if (merged && issue.status === "ACTIVE") {
    warn("merged_not_verified", `${issue.id} is ACTIVE, but its code is on ${onto} since ${short(merged.commit)} (${when(merged.at)}): verify it (cockpit plan verify ${issue.id})`);
  }
  if (merged && issue.status === "VERIFY") {
    warn("merged_not_done", `${issue.id} is in VERIFY, and its code is on ${onto} since ${short(merged.commit)} (${when(merged.at)}): record the evidence and finish it (cockpit plan done ${issue.id})`);
  }
  if (issue.status === "DONE") {
    for (const b of links?.branches ?? []) {
      if (b.ahead === 0) continue;
      warn(
        "done_with_open_branch",
        `${issue.id} is DONE, but branch ${branchName(b)} has ${b.ahead} commit${b.ahead === 1 ? "" : "s"} ${onto} lacks (tip ${short(b.tip)}, ${when(b.last_commit_at)}): merge it, or delete it if it is abandoned`,
      );
    }
  }
  if (links && links.branchCount > links.branches.length) {
    warn(
      "too_many_branches",
      `${issue.id} has ${count(links.branchCount)} branches; the first ${count(links.branches.length)} (by name) are linked and the rest is ignored: delete or prune the branches that are not work on it (git fetch --prune)`,
    );
  }
  if (issue.status === "ACTIVE") {
    const moments = [issue.started_at, issue.verified_at, issue.completed_at, links?.last_activity_at ?? ""].filter((t) => t !== "");
    const latest = moments.sort().at(-1);
    if (latest !== undefined && Date.parse(now) - Date.parse(latest) > staleDays * DAY_MS) {
      const what = links?.last_activity_at === latest ? `its last commit (${short(commits[0].sha)})` : "its last stamp";
      warn(
        "stalled",
        `${issue.id} is ACTIVE and nothing has moved for more than ${staleDays} day${staleDays === 1 ? "" : "s"}: ${what} is from ${when(latest)}; ask whoever holds it, or verify it if the work is done (cockpit plan verify ${issue.id})`,
      );
    }
  }
  return out;
}

const count = (n: number) => n.toLocaleString("en");

/** The finding of a repository whose refs were read only in part (CommitGraph.refsListed), if they were. */
export function refsFinding(graph: Pick<CommitGraph, "refs" | "refsListed"> | undefined): CodeFinding | undefined {
  if (graph?.refsListed === undefined) return undefined;
  return {
    level: "WARN",
    code: "too_many_refs",
    subject: "refs",
    message: `the repository has ${count(graph.refsListed)} refs under refs/heads and refs/remotes; the first ${count(REFS_READ_LIMIT)} (by name) were read and the rest is ignored, so links may be missing: delete the branches no one works on, or prune what a fetch brought (git fetch --prune)`,
  };
}

function branchName(b: CodeBranch): string {
  return b.remote === null ? b.name : `${b.remote}/${b.name}`;
}

/** The move a code finding suggests, if it suggests one. */
export function suggestedMove(finding: Pick<CodeFinding, "code">): "start" | "verify" | "done" | undefined {
  switch (finding.code) {
    case "work_without_start":
      return "start";
    case "merged_not_verified":
      return "verify";
    case "merged_not_done":
      return "done";
    default:
      return undefined;
  }
}
