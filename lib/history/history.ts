import { existsSync } from "node:fs";
import { join } from "node:path";
import { invalidInput, notFound } from "../plan/errors";
import { ISSUES_DIR, MILESTONES_DIR, type IssueStatus, type MilestoneStatus } from "../plan/constants";
import { readLedger } from "../repo/ledger";
import type { Plan } from "../plan/shapes";
import { idProblem } from "../repo/write";
import { MAX_RECORD_BYTES } from "../repo/load";
import { gitText } from "../repo/git-run";
import { isRead, readChecked } from "./git-objects";
import { mapPlansAtCommits } from "./records-at";
import { isoOfSeconds, repoGit } from "./revision";
import type { HistoryEntry, PlanHistory } from "../plan/history-shapes";

// The timeline of one record: the commits that changed its file, newest first, each with the
// record's derived status after it; before them, the moves of this clone's ledger that no commit
// carries yet.

export const DEFAULT_HISTORY_LIMIT = 50;

const MOVE_EVENTS = new Set(["plan_start", "plan_verify", "plan_done", "plan_evidence"]);

interface Commit {
  sha: string;
  author: string;
  time: number;
  message: string;
}

/** The commits reachable from HEAD that changed `path`, newest first. */
async function commitsTouching(repo: string, path: string): Promise<Commit[]> {
  const out = await gitText(repo, ["--literal-pathspecs", "log", "--format=%H%x1f%an%x1f%ct%x1f%s%x1e", "HEAD", "--", path]);
  if (!out) return [];
  return out
    .split("\x1e")
    .map((r) => r.replace(/^\n/, ""))
    .filter((r) => r !== "")
    .map((r) => {
      const [sha, author, time, message] = r.split("\x1f");
      return { sha, author, time: Number(time), message };
    });
}

interface LedgerMove {
  ts: string;
  event: string;
  by: string;
}

/** This clone's ledger lines about `id` (moves and evidence), oldest first; lines that are not JSON are skipped. */
function ledgerMoves(repo: string, id: string): LedgerMove[] {
  const out: LedgerMove[] = [];
  const entries = readLedger(repo).entries;
  // A move taken back by plan.undo (its line named by a plan_undo line) is no longer a move.
  const undone = new Set(entries.filter((v) => v.event === "plan_undo" && v.record === id).map((v) => Number(v.undoes)));
  entries.forEach((v, i) => {
    if (undone.has(i + 1)) return;
    if (v.issue === id && typeof v.event === "string" && MOVE_EVENTS.has(v.event) && typeof v.ts === "string") {
      out.push({ ts: v.ts, event: v.event, by: typeof v.by === "string" ? v.by : "" });
    }
  });
  return out;
}

const statusIn = (plan: Plan, kind: "issue" | "milestone", id: string): IssueStatus | MilestoneStatus | null =>
  (kind === "issue" ? plan.issues.find((i) => i.id === id) : plan.milestones.find((m) => m.id === id))?.status ?? null;

/** A record's timeline; `current` is the plan of the files now (the status after an uncommitted move). */
export async function planHistory(repo: string, input: { id: string; limit?: number }, current: () => Plan): Promise<PlanHistory> {
  const { id } = input;
  const problem = idProblem(id);
  if (problem) throw invalidInput(problem);
  const limit = input.limit ?? DEFAULT_HISTORY_LIMIT;
  const git = await repoGit(repo);
  const kinds = [
    { kind: "milestone" as const, path: `${MILESTONES_DIR}/${id}.yaml` },
    { kind: "issue" as const, path: `${ISSUES_DIR}/${id}.yaml` },
  ];
  // The record in the files is the one (milestones first, as plan.record looks them up); only a
  // record gone from the files is looked for in the history of both folders.
  const present = kinds.find((c) => existsSync(join(repo, c.path)));
  const candidates = await Promise.all((present ? [present] : kinds).map(async (c) => ({ ...c, commits: await commitsTouching(repo, c.path) })));
  const found = present ? candidates[0] : candidates.find((c) => c.commits.length > 0);
  if (!found) throw notFound(`no milestone or issue '${id}' in the files or in their history`);
  const { kind, path } = found;

  // A ledger move is committed once the file at HEAD holds its stamp (a move's time is its stamp).
  // Its size asked first: a file at HEAD over the loader's limit holds no record, so no stamp.
  const [atHead] = await readChecked(repo, [`HEAD:${git.prefix}${path}`], MAX_RECORD_BYTES, "blob");
  const headText = isRead(atHead) ? atHead.bytes.toString("utf8") : "";
  const pending = ledgerMoves(repo, id)
    .filter((m) => !headText.includes(m.ts))
    .reverse();
  const entries: HistoryEntry[] = pending.map((m, i) => ({
    uncommitted: true,
    commit: null,
    author: m.by,
    time: m.ts,
    message: `${m.event.replace("plan_", "")} (not yet committed)`,
    event: m.event,
    status: i === 0 ? statusIn(current(), kind, id) : null,
  }));

  const shown = found.commits.slice(0, Math.max(0, limit - entries.length));
  const statuses = await mapPlansAtCommits(repo, git, shown.map((c) => c.sha), (plan) => statusIn(plan, kind, id));
  shown.forEach((c, i) =>
    entries.push({ uncommitted: false, commit: c.sha, author: c.author, time: isoOfSeconds(c.time), message: c.message, event: null, status: statuses[i] }),
  );
  return { id, kind, path, entries: entries.slice(0, limit), truncated: entries.length > limit || shown.length < found.commits.length };
}
