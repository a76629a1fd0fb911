import { byId } from "./people";

// A person's recent moves and commits (docs/people.md), from the timelines plan.history and
// plan.code answer: pure functions over those answers, newest first, capped.

/** A plan.history entry as the moves need it (newest first in its timeline). */
export interface TimelineEntry {
  uncommitted: boolean;
  commit: string | null;
  author: string;
  time: string;
  status: string | null;
}

export interface Timeline {
  id: string;
  entries: readonly TimelineEntry[];
  /** Older entries were left out: the oldest one shown has no known status before it. */
  truncated: boolean;
}

/** A change of an issue's status: the entry after which it is not what it was before. */
export interface RecentMove {
  id: string;
  at: string;
  /** The status before (null: the issue did not exist) and after (null: removed). */
  from: string | null;
  to: string | null;
  by: string;
  /** The commit that carries it; null for a move of this clone not committed yet. */
  commit: string | null;
}

/**
 * The moves of `timelines`, newest first, at most `cap`. `keep` says which of a timeline's moves
 * count (a person's own issues: all; another's issue: only the ones the person made).
 */
export function recentMoves(timelines: readonly Timeline[], cap: number, keep: (id: string, by: string) => boolean = () => true): RecentMove[] {
  const out: RecentMove[] = [];
  for (const t of timelines) {
    t.entries.forEach((e, i) => {
      const older = t.entries[i + 1];
      if (older === undefined && t.truncated) return;
      const from = older?.status ?? null;
      if (from === e.status || !keep(t.id, e.author)) return;
      out.push({ id: t.id, at: e.time, from, to: e.status, by: e.author, commit: e.commit });
    });
  }
  return out.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || byId(a, b)).slice(0, Math.max(0, cap));
}

/** A linked commit as plan.code answers it for one issue. */
export interface LinkedCommit {
  sha: string;
  subject: string;
  author: string;
  authored_at: string;
}

export interface RecentCommit {
  sha: string;
  subject: string;
  author: string;
  authored_at: string;
  /** Every issue it is linked to, in id order. */
  issues: string[];
}

/** The linked commits whose author `isTheirs`, once each with every issue they link, newest first, at most `cap`. */
export function recentCommits(perIssue: readonly { id: string; commits: readonly LinkedCommit[] }[], isTheirs: (author: string) => boolean, cap: number): RecentCommit[] {
  const bySha = new Map<string, RecentCommit>();
  for (const i of perIssue) {
    for (const c of i.commits) {
      if (!isTheirs(c.author)) continue;
      const known = bySha.get(c.sha);
      if (known) known.issues.push(i.id);
      else bySha.set(c.sha, { sha: c.sha, subject: c.subject, author: c.author, authored_at: c.authored_at, issues: [i.id] });
    }
  }
  for (const c of bySha.values()) c.issues = [...new Set(c.issues)].sort((a, b) => byId({ id: a }, { id: b }));
  return [...bySha.values()].sort((a, b) => Date.parse(b.authored_at) - Date.parse(a.authored_at) || (a.sha < b.sha ? -1 : 1)).slice(0, Math.max(0, cap));
}
