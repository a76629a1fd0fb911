import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isRefName, isoOfSeconds } from "./revision";

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

describe("isoOfSeconds", () => {
  it("says what Date says, to the second, before 1970, on day and year edges, and far out", () => {
    const edges = [0, -1, 59, 60, 3599, 3600, 86_399, 86_400, -86_400, -86_401, 951_782_400, 1_798_761_599, 1_798_761_600, 253_402_300_799, -62_135_596_800];
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed);
    const all = [...edges, ...Array.from({ length: 5000 }, () => random() - 2 ** 30 + random())];
    for (const s of all) expect(isoOfSeconds(s), String(s)).toBe(new Date(s * 1000).toISOString().replace(/\.000Z$/, "Z"));
    expect(isoOfSeconds(1.5)).toBe("1970-01-01T00:00:01Z");
  });
});
