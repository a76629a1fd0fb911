// `npm run bench` is not part of `npm test`, so a broken bench script would only show when
// someone measures. This test loads it and asks for its sections: every module under
// scripts/bench/ that exports a section must be listed exactly once.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

const root = join(__dirname, "..", "..");

test("the bench script loads and lists every section once", async () => {
  const help = execFileSync(process.execPath, [join(root, "scripts", "bench.mjs"), "--help"], { encoding: "utf8", timeout: 30_000 });
  const listed = help
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim().split(/\s+/)[0]);
  const names: string[] = [];
  for (const file of readdirSync(join(root, "scripts", "bench")).filter((f) => f.endsWith(".mjs") && f !== "lib.mjs")) {
    const section = await import(join(root, "scripts", "bench", file));
    if (typeof section.run === "function") names.push(section.name);
  }
  expect(listed.sort()).toEqual(names.sort());
  expect(new Set(listed).size).toBe(listed.length);
});
