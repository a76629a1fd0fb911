import type { Plan } from "../plan/shapes";
import { plansAtCommits } from "./records-at";
import { type Revision, checkRevisionForm, repoGit, resolveRevision } from "./revision";

/** The derived plan at a revision (what `at` accepts), with where it was read. */
export async function planAt(repo: string, at: string): Promise<{ plan: Plan; at: Revision }> {
  checkRevisionForm(at);
  const git = await repoGit(repo, at);
  const revision = await resolveRevision(repo, at, git);
  const [plan] = await plansAtCommits(repo, git, [revision.commit]);
  return { plan, at: revision };
}
