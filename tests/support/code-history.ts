// Real git histories with known links between commits and issue ids, for plan.code's tests: each
// commit at a fixed moment by a fixed author, so every copy made the same way has the same shas.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runGit } from "./git";

export interface Author {
  name: string;
  email: string;
}

export const ANA: Author = { name: "Ana Sousa", email: "ana@harbor.test" };
export const TOM: Author = { name: "Tom Okafor", email: "tom@harbor.test" };

export class CodeRepo {
  constructor(readonly dir: string) {}

  /** git in the repository; throws with git's stderr when it fails. */
  git(args: readonly string[], at = "2026-11-01T10:00:00Z", author: Author = ANA): string {
    const env = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
      GIT_AUTHOR_DATE: at,
      GIT_COMMITTER_DATE: at,
    };
    return runGit(this.dir, ["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", ...args], { env });
  }

  static init(dir: string, branch = "main"): CodeRepo {
    mkdirSync(dir, { recursive: true });
    const repo = new CodeRepo(dir);
    repo.git(["init", "-q", "-b", branch]);
    return repo;
  }

  /** Writes (or, with null, removes) files and commits everything at `at`; returns the new sha. */
  commit(message: string, files: Record<string, string | null>, at: string, author: Author = ANA): string {
    for (const [path, text] of Object.entries(files)) {
      const full = join(this.dir, path);
      if (text === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, text);
      }
    }
    this.git(["add", "-A"], at, author);
    this.git(["commit", "-q", "--allow-empty", "-m", message], at, author);
    return this.sha("HEAD");
  }

  checkout(branch: string, create = false): void {
    this.git(["checkout", "-q", ...(create ? ["-b"] : []), branch]);
  }

  /** A merge commit of `branch` into the current branch (never a fast-forward). */
  merge(branch: string, at: string, message = `Merge branch '${branch}'`, author: Author = ANA): string {
    this.git(["merge", "-q", "--no-ff", "-m", message, branch], at, author);
    return this.sha("HEAD");
  }

  sha(rev: string): string {
    return this.git(["rev-parse", "--verify", `${rev}^{commit}`]);
  }
}
