import { spawnSync } from "node:child_process";

// The git the coordinator needs: the integration branch, and git's own three-way merge done in the
// object store (`merge-tree --write-tree`, `commit-tree`, `update-ref`), so the working tree of the
// repository is never touched.

export interface GitRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runGit(repo: string, args: readonly string[], env?: Record<string, string>): GitRun {
  const r = spawnSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: env ? { ...process.env, ...env } : process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.error) return { status: null, stdout: "", stderr: r.error.message };
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** The commit a name resolves to, or undefined. */
export function resolveCommit(repo: string, name: string): string | undefined {
  const r = runGit(repo, ["rev-parse", "--verify", "-q", `${name}^{commit}`]);
  const out = r.stdout.trim();
  return r.status === 0 && out !== "" ? out : undefined;
}

/** HEAD's commit, or undefined when there is none (unborn branch, or no repository). */
export function headCommit(repo: string): string | undefined {
  return resolveCommit(repo, "HEAD");
}

export const ZERO_OID = "0000000000000000000000000000000000000000";

/** Move (or create, when `expected` is ZERO_OID) a ref only if it still points at `expected`. */
export function updateRef(repo: string, ref: string, to: string, expected: string, message: string): boolean {
  return runGit(repo, ["update-ref", "-m", message, ref, to, expected]).status === 0;
}

/** Is `ancestor` reachable from `descendant`? */
export function isAncestor(repo: string, ancestor: string, descendant: string): boolean {
  return runGit(repo, ["merge-base", "--is-ancestor", ancestor, descendant]).status === 0;
}

/** Author and committer for commit-tree when the repository names nobody. */
function identityEnv(repo: string): Record<string, string> {
  const env: Record<string, string> = {};
  const name = runGit(repo, ["config", "user.name"]).stdout.trim();
  const email = runGit(repo, ["config", "user.email"]).stdout.trim();
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
export function mergeInto(repo: string, into: string, branch: string, message: string): MergeOutcome {
  const ref = `refs/heads/${into}`;
  for (let tries = 0; tries < 10; tries++) {
    const base = resolveCommit(repo, ref);
    if (!base) return { kind: "error", detail: `the integration branch ${into} does not exist` };
    const tip = resolveCommit(repo, branch);
    if (!tip) return { kind: "error", detail: `'${branch}' is not a branch or commit of this repository` };
    if (isAncestor(repo, tip, base)) return { kind: "already", commit: base };
    const r = runGit(repo, ["merge-tree", "--write-tree", "--name-only", base, tip]);
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
    const c = runGit(repo, ["commit-tree", tree, "-p", base, "-p", tip, "-m", message], identityEnv(repo));
    if (c.status !== 0) return { kind: "error", detail: `git commit-tree failed: ${c.stderr.trim()}` };
    const commit = c.stdout.trim();
    if (updateRef(repo, ref, commit, base, message)) return { kind: "merged", commit, tree, previous: base };
  }
  return { kind: "error", detail: `the integration branch ${into} kept moving; gave up after 10 merges` };
}
