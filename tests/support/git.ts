// The one way the tests run git for their setup (not the product's: lib/repo/git-run.ts).
import { spawnSync } from "node:child_process";

export interface SetupGitOptions {
  /** Added to the process's environment. */
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
}

/** Run git in a folder; throws with git's stderr when it fails; the output, trimmed. */
export function runGit(cwd: string, args: readonly string[], options: SetupGitOptions = {}): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...options.env }, input: options.input, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}
