import { spawnSync } from "node:child_process";

function git(repo: string, args: string[]): string | undefined {
  const r = spawnSync("git", args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  if (r.status !== 0 || typeof r.stdout !== "string") return undefined;
  const out = r.stdout.trim();
  return out === "" ? undefined : out;
}

/** `git rev-parse HEAD`, or `NONE` when there is no commit (or no repository). */
export function gitHead(repo: string): string {
  return git(repo, ["rev-parse", "--verify", "-q", "HEAD"]) ?? "NONE";
}

/** `git symbolic-ref --short HEAD`, or `DETACHED`. */
export function gitBranch(repo: string): string {
  return git(repo, ["symbolic-ref", "--short", "-q", "HEAD"]) ?? "DETACHED";
}
