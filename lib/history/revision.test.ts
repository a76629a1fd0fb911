import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isRefName } from "./revision";

// The ref names `at` accepts are the ones `git check-ref-format --allow-onelevel` accepts: its
// rules in code, checked against git itself on names made to sit on either side of each rule.

const NAMES = [
  "main", "HEAD", "v1.2", "origin/main", "refs/heads/main", "refs/tags/v1", "feature/a-b_c", "a", "ü-branch", "x-", "a=b", "a,b", "a+b",
  "", "@", "a@b", "a@{1}", "@{-1}", "a..b", "a.", "a/", "/a", "a//b", ".a", "a/.b", "a.lock", "a.lock/b", "a/b.lock", "a.locked", "a.lock.b",
  "a b", "a\tb", "a~b", "a^b", "a:b", "a?b", "a*b", "a[b", "a\\b", "a\u007fb", "a\u0001b", "a/./b", "a/../b", "...", "a.b.c", "a-.b", "lock",
];

function gitAccepts(name: string): boolean {
  return spawnSync("git", ["check-ref-format", "--allow-onelevel", name], { stdio: "ignore" }).status === 0;
}

describe("isRefName", () => {
  it.for(NAMES)("%j: as git check-ref-format --allow-onelevel says", (name) => {
    expect(isRefName(name)).toBe(gitAccepts(name));
  });
});
