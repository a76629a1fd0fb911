import type { Plan } from "../plan/shapes";
import { plansAtCommits } from "./records-at";
import { type Revision, repoGit, resolveRevision } from "./revision";

/** The derived plan at a revision (what `at` accepts), with where it was read. */
export function planAt(repo: string, at: string): { plan: Plan; at: Revision } {
  const git = repoGit(repo, at);
  const revision = resolveRevision(repo, at, git);
  const [plan] = plansAtCommits(repo, git, [revision.commit]);
  return { plan, at: revision };
}
