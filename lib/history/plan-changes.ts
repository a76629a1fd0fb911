import { derivePlan } from "../plan/derive";
import type { Plan } from "../plan/shapes";
import { diffPlans } from "../plan/changes";
import { plansAtCommits, recordsNow } from "./records-at";
import { type Revision, checkRevisionForm, repoGit, resolveRevision } from "./revision";
import { gitCommitSubject, gitWhere } from "../repo/git";
import type { PlanChanges } from "../plan/history-shapes";

export interface ChangesQuery {
  since: string;
  until?: string;
  milestone?: string;
}

/** `until` left out: the files as they are now, uncommitted edits included. */
export const NOW: Revision = { rev: "now", commit: null, committed_at: null };

/**
 * What changed between two revisions (`until` left out: the files now). `current`, when given, is
 * the plan of the files now as the caller already keeps it; otherwise they are read here.
 */
export async function planChanges(repo: string, query: ChangesQuery, current?: () => Plan): Promise<PlanChanges> {
  checkRevisionForm(query.since);
  if (query.until !== undefined) checkRevisionForm(query.until);
  const git = await repoGit(repo, query.since);
  const since = await resolveRevision(repo, query.since, git);
  let until = NOW;
  let from: Plan;
  let to: Plan;
  if (query.until !== undefined) {
    until = await resolveRevision(repo, query.until, git);
    [from, to] = await plansAtCommits(repo, git, [since.commit, until.commit]);
  } else {
    [from] = await plansAtCommits(repo, git, [since.commit]);
    to = current ? current() : derivePlan(recordsNow(repo, git));
  }
  const [sinceSubject, untilSubject] = await Promise.all([since, until].map((r) => (r.commit ? gitCommitSubject(repo, r.commit) : undefined)));
  const withSubject = (r: Revision, subject: string | undefined) => (subject === undefined ? r : { ...r, subject });
  // Until now, the commit under the files: what a shared link pins "now" to.
  const head = query.until === undefined ? (await gitWhere(repo)).head : "";
  const untilEnd = head ? { ...until, head } : withSubject(until, untilSubject);
  return { since: withSubject(since, sinceSubject), until: untilEnd, ...diffPlans(from, to, query.milestone) };
}
