import { git } from "../repo/git-run";

// The git the coordinator needs: the integration branch, and git's own three-way merge done in the
// object store (`merge-tree --write-tree`, `commit-tree`, `update-ref`), so the working tree of the
// repository is never touched. Every call is bounded (lib/repo/git-run.ts) and holds no event loop.

export interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Git in `repo`; a call stopped by its time or output limit is a refusal naming the limit. */
export async function runGit(repo: string, args: readonly string[], env?: Record<string, string>, input?: string): Promise<GitRun> {
  const r = await git(repo, args, { env, input });
  return { status: r.status, stdout: r.stdout.toString("utf8"), stderr: r.stderr };
}

/** The commit a name resolves to, or undefined. */
export async function resolveCommit(repo: string, name: string): Promise<string | undefined> {
  const r = await runGit(repo, ["rev-parse", "--verify", "-q", "--end-of-options", `${name}^{commit}`]);
  const out = r.stdout.trim();
  return r.status === 0 && out !== "" ? out : undefined;
}

/** HEAD's commit, or undefined when there is none (unborn branch, or no repository). */
export function headCommit(repo: string): Promise<string | undefined> {
  return resolveCommit(repo, "HEAD");
}

export const ZERO_OID = "0000000000000000000000000000000000000000";

/** Move (or create, when `expected` is ZERO_OID) a ref only if it still points at `expected`. */
export async function updateRef(repo: string, ref: string, to: string, expected: string, message: string): Promise<boolean> {
  return (await runGit(repo, ["update-ref", "-m", message, "--end-of-options", ref, to, expected])).status === 0;
}

/** Is `ancestor` reachable from `descendant`? */
export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await runGit(repo, ["merge-base", "--is-ancestor", ancestor, descendant])).status === 0;
}

/** Author and committer for commit-tree when the repository names nobody. */
async function identityEnv(repo: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const name = (await runGit(repo, ["config", "user.name"])).stdout.trim();
  const email = (await runGit(repo, ["config", "user.email"])).stdout.trim();
  if (name === "" && !process.env.GIT_AUTHOR_NAME) {
    env.GIT_AUTHOR_NAME = "Cockpit";
    env.GIT_COMMITTER_NAME = "Cockpit";
  }
  if (email === "" && !process.env.GIT_AUTHOR_EMAIL) {
    env.GIT_AUTHOR_EMAIL = "cockpit@localhost";
    env.GIT_COMMITTER_EMAIL = "cockpit@localhost";
  }
  return env;
}

export type MergeOutcome =
  | { kind: "merged"; commit: string; tree: string; previous: string }
  | { kind: "already"; commit: string }
  | { kind: "conflict"; files: string[]; detail: string }
  | { kind: "error"; detail: string };

/**
 * Merge `branch` into the branch `into` with git's three-way merge: `merge-tree --write-tree`;
 * exit 0 ⇒ `commit-tree` with both parents and `update-ref` (compare-and-swap: when another writer
 * moved the branch meanwhile, merge again on top of it); exit 1 ⇒ conflict.
 */
export async function mergeInto(repo: string, into: string, branch: string, message: string): Promise<MergeOutcome> {
  const ref = `refs/heads/${into}`;
  try {
    for (let tries = 0; tries < 10; tries++) {
      const base = await resolveCommit(repo, ref);
      if (!base) return { kind: "error", detail: `the integration branch ${into} does not exist` };
      const tip = await resolveCommit(repo, branch);
      if (!tip) return { kind: "error", detail: `'${branch}' is not a branch or commit of this repository` };
      if (await isAncestor(repo, tip, base)) return { kind: "already", commit: base };
      const r = await runGit(repo, ["merge-tree", "--write-tree", "--name-only", base, tip]);
      if (r.status === 1) {
        const lines = r.stdout.split("\n");
        const files: string[] = [];
        for (const line of lines.slice(1)) {
          if (line === "") break;
          if (!files.includes(line)) files.push(line);
        }
        const detail = lines
          .slice(files.length + 2)
          .filter((l) => l.trim() !== "")
          .join("; ");
        return { kind: "conflict", files, detail };
      }
      if (r.status !== 0) return { kind: "error", detail: `git merge-tree failed (${r.status}): ${r.stderr.trim()}` };
      const tree = r.stdout.split("\n")[0].trim();
      // The message (it names the caller's branch) goes in on standard input, never as an argument.
      const c = await runGit(repo, ["commit-tree", tree, "-p", base, "-p", tip, "-F", "-"], await identityEnv(repo), message);
      if (c.status !== 0) return { kind: "error", detail: `git commit-tree failed: ${c.stderr.trim()}` };
      const commit = c.stdout.trim();
      if (await updateRef(repo, ref, commit, base, message)) return { kind: "merged", commit, tree, previous: base };
    }
  } catch (error) {
    // A git call stopped by its limit: the caller refuses the report with it.
    return { kind: "error", detail: error instanceof Error ? error.message : String(error) };
  }
  return { kind: "error", detail: `the integration branch ${into} kept moving; gave up after 10 merges` };
}
