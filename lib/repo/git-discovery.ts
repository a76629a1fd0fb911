import { lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { stampOf } from "./git";

// What git would find for a folder, told from the file system without starting git: a command
// that asks git only what git alone can say pays for fewer processes (each one costs a fork and a
// start, more than the rest of a small read).

export type Discovery =
  /** No `.git` in the folder nor in any folder above it, and nothing that looks like a bare repository: git finds no repository there. */
  | { kind: "none" }
  /** The nearest `.git` above (or in) the folder is a folder: the repository's git folder, if git accepts it. */
  | { kind: "dir"; gitDir: string }
  /** Only git can say (GIT_DIR or GIT_WORK_TREE set, a `.git` file of a linked worktree, a link, a bare repository on the way). */
  | { kind: "unknown" };

/** Where git's discovery would start looking for `repo`, walking up as git does. */
export function discoverGit(repo: string): Discovery {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined || process.env.GIT_COMMON_DIR !== undefined) return { kind: "unknown" };
  let dir = resolve(repo);
  for (;;) {
    const dotGit = lstatSync(join(dir, ".git"), { throwIfNoEntry: false });
    if (dotGit?.isDirectory()) return { kind: "dir", gitDir: join(dir, ".git") };
    if (dotGit) return { kind: "unknown" };
    // A bare repository is a folder with HEAD, objects and refs: git would take it.
    if (lstatSync(join(dir, "HEAD"), { throwIfNoEntry: false }) && lstatSync(join(dir, "objects"), { throwIfNoEntry: false })) return { kind: "unknown" };
    const up = dirname(dir);
    if (up === dir) return { kind: "none" };
    dir = up;
  }
}

/** The configuration files `git config` reads for a repository found as `found` (system, global, the repository's own). */
function configFiles(found: Discovery & { kind: "none" | "dir" }): string[] {
  const env = process.env;
  const home = env.HOME ?? homedir();
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig"];
  const global = env.GIT_CONFIG_GLOBAL !== undefined ? [env.GIT_CONFIG_GLOBAL] : [join(env.XDG_CONFIG_HOME || join(home, ".config"), "git", "config"), join(home, ".gitconfig")];
  const own = found.kind === "dir" ? [join(found.gitDir, "config"), join(found.gitDir, "config.worktree")] : [];
  return [...system, ...global, ...own];
}

/**
 * A stamp of everything `git config` reads for `repo`, which changes whenever its answer may: the
 * files (identity, size and times; git rewrites a config by a rename) and the environment that
 * points at them or adds to them. Undefined when no stamp can be trusted: only git can find the
 * repository, or a file includes another (whose changes the stamp would not see).
 */
export function gitConfigStamp(repo: string): string | undefined {
  const found = discoverGit(repo);
  if (found.kind === "unknown") return undefined;
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith("GIT_CONFIG") || k === "HOME" || k === "XDG_CONFIG_HOME")
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`);
  const files: string[] = [];
  for (const path of configFiles(found)) {
    const stamp = stampOf(path);
    files.push(`${path}@${stamp}`);
    if (stamp === "-") continue;
    try {
      // Only a regular file is read (a FIFO would hold the event loop); an include is followed by git alone.
      if (!lstatSync(path).isFile()) return undefined;
      if (/^\s*\[\s*include/im.test(readFileSync(path, "utf8"))) return undefined;
    } catch {
      return undefined;
    }
  }
  return [...env, ...files].join("\0");
}
