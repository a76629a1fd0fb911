import { type Author, type Handles, type IssueOwnership, authorHandles, handleOfAuthor, issuesByPerson, knownHandles } from "./people";
import type { Plan } from "../plan/shapes";
import { gitText } from "../repo/git-run";
import { MOVES_TRAILER } from "../repo/commit";
import { readLedger } from "../repo/ledger";
import { readRecordFileFields } from "../repo/record-file";
import { ISSUES_DIR } from "../plan/constants";
import { RACY_MS, folderLeavingRepository } from "../repo/load";
import { processWide } from "../process-wide";
import { lstatSync } from "node:fs";
import { join } from "node:path";

// What the people rules (lib/people, docs/people.md) read from a repository: each issue's
// `owner` (the files now), the ledger's `by` of every line and of each plan_start, and the commit
// authors with .mailmap applied by git (`%aN`, `%aE`). Nothing is written.

/**
 * How long reading every author of a large history may take, past git's 10 s default: the
 * `-G^started_at: -p` log diffs every commit (1.8 s over 10k commits on a busy 2-core machine).
 * A read past it answers without the authors. docs/security.md lists it.
 */
const AUTHORS_TIMEOUT_MS = 30_000;

export interface PeopleFacts {
  ownership: Map<string, IssueOwnership>;
  /** Every `by` the ledger carries. */
  ledgerBy: string[];
  /** Every distinct author of the branches' commits, as .mailmap maps them. */
  authors: Author[];
  /** The owners' and the ledger's handles. */
  handles: Handles;
}

/**
 * Each issue file's owner as last read, by its path and stat (inode, size, times), so a serving
 * process parses again only the files that changed (a standup asks for every owner; parsing 1k
 * files took 130 ms a request). A file modified within RACY_MS of the look is read every time.
 */
const ownerByStamp = processWide("owner-by-stamp", () => new Map<string, { stamp: string; owner: string }>());

/** The `owner` of each issue record as written ("" when it has none or it is not text). */
export function ownersOf(repo: string, plan: Plan): Map<string, string> {
  const out = new Map<string, string>();
  // As the loader: nothing is read through a records folder that leads outside the repository.
  if (folderLeavingRepository(repo, ISSUES_DIR) !== undefined) return new Map(plan.issues.map((i) => [i.id, ""]));
  const now = Date.now();
  for (const issue of plan.issues) {
    const path = join(repo, ISSUES_DIR, `${issue.id}.yaml`);
    let stamp: string | undefined;
    try {
      const st = lstatSync(path);
      if (st.isFile() && now - Math.max(st.mtimeMs, st.ctimeMs) >= RACY_MS) stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      // read below, which says what there is
    }
    const kept = stamp === undefined ? undefined : ownerByStamp.get(path);
    if (kept && kept.stamp === stamp) {
      out.set(issue.id, kept.owner);
      continue;
    }
    const fields = readRecordFileFields(repo, "issue", issue.id)?.fields ?? [];
    const value = fields.find(([k]) => k === "owner")?.[1];
    const owner = typeof value === "string" ? value.trim() : "";
    out.set(issue.id, owner);
    if (stamp === undefined) ownerByStamp.delete(path);
    else ownerByStamp.set(path, { stamp, owner });
  }
  return out;
}

/** Every distinct author of the local and remote-tracking branches (`%aN` and `%aE`, .mailmap applied). */
export async function readAuthors(repo: string): Promise<Author[]> {
  // A commit that only records moves made through the Cockpit is the movers' (the ledger's `by`), not its committer's.
  const text = await gitText(repo, ["log", "--branches", "--remotes", "--format=%aN%x00%aE", "--invert-grep", "--fixed-strings", `--grep=${MOVES_TRAILER}`], { timeoutMs: AUTHORS_TIMEOUT_MS }).catch(() => undefined);
  const seen = new Map<string, Author>();
  for (const line of (text ?? "").split("\n")) {
    const [name, email] = line.split("\0");
    if (name === undefined || email === undefined) continue;
    const key = `${name}\0${email}`;
    if (!seen.has(key)) seen.set(key, { name, email });
  }
  return [...seen.values()];
}

/**
 * For each issue file, the author (.mailmap applied) of the oldest commit that added a `started_at`
 * line to it: one `git log` over the issues folder, oldest first, reading only the added lines.
 */
export async function sealedStartAuthors(repo: string): Promise<Map<string, Author>> {
  const text = await gitText(repo, ["log", "--reverse", "--no-renames", "--format=%x1e%aN%x00%aE", "--unified=0", "-G^started_at:", "-p", "--", ISSUES_DIR], { timeoutMs: AUTHORS_TIMEOUT_MS }).catch(() => undefined);
  const out = new Map<string, Author>();
  for (const entry of (text ?? "").split("\x1e").slice(1)) {
    const nl = entry.indexOf("\n");
    const [name = "", email = ""] = entry.slice(0, nl < 0 ? entry.length : nl).split("\0");
    let id: string | undefined;
    for (const line of entry.slice(nl + 1).split("\n")) {
      if (line.startsWith("+++ ")) {
        const m = /\/([^/]+)\.yaml$/.exec(line);
        id = m ? m[1] : undefined;
      } else if (id !== undefined && line.startsWith("+started_at:") && !out.has(id)) out.set(id, { name, email });
    }
  }
  return out;
}

/**
 * The facts for `plan`'s issues. An issue without an owner that was started is given who started
 * it: the ledger's `by` of its last plan_start, else the author of the commit that sealed its
 * `started_at`, mapped to a handle as every author is.
 */
export async function readPeopleFacts(repo: string, plan: Plan): Promise<PeopleFacts> {
  const owners = ownersOf(repo, plan);
  const ledger = readLedger(repo).entries;
  const ledgerBy = [...new Set(ledger.map((e) => e.by).filter((b): b is string => typeof b === "string" && b !== ""))];
  const startedBy = new Map<string, string>();
  for (const e of ledger) {
    const payload = e as Record<string, unknown>;
    if (payload.event === "plan_start" && typeof payload.issue === "string" && typeof payload.by === "string" && !payload.by.startsWith("cockpit/")) startedBy.set(payload.issue, payload.by);
  }
  const authors = await readAuthors(repo);
  const handles = knownHandles([...owners.values()], ledgerBy);
  const needsCommit = plan.issues.some((i) => (owners.get(i.id) ?? "") === "" && !startedBy.has(i.id) && i.started_at !== "");
  const sealed = needsCommit ? await sealedStartAuthors(repo) : new Map<string, Author>();
  const ownership = new Map<string, IssueOwnership>();
  for (const issue of plan.issues) {
    const owner = owners.get(issue.id) ?? "";
    let by = owner === "" ? startedBy.get(issue.id) : undefined;
    if (owner === "" && by === undefined && issue.started_at !== "") {
      const author = sealed.get(issue.id);
      if (author) by = handleOfAuthor(author, handles).handle;
    }
    ownership.set(issue.id, { id: issue.id, owner, ...(by === undefined ? {} : { startedBy: by }) });
  }
  return { ownership, ledgerBy, authors, handles };
}

/**
 * Everyone /people lists, each with their issues (by id): the owners and whoever started an unowned
 * issue, the ledger's users (the Cockpit's own tool name is nobody) and every commit author, mapped
 * to a handle as the people rules say; in handle order. The palette finds the same people.
 */
export function peopleOf<T extends { id: string }>(issues: readonly T[], facts: PeopleFacts): Map<string, T[]> {
  const users = facts.ledgerBy.map((b) => b.trim()).filter((b) => b !== "" && !b.startsWith("cockpit/"));
  const known = [...users.map((u) => facts.handles.find(u) ?? u), ...authorHandles(facts.authors, facts.handles).values()];
  return issuesByPerson(issues, facts.ownership, facts.handles, known);
}
