import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Every "§N.M" in the code names a heading of docs/plan-semantics.md, so a newcomer who clones the
// repository can follow each one. "YAML 1.2 §7.4" names the YAML specification, not ours.
const root = join(__dirname, "..", "..");

function trackedSources(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "lib", "app", "components", "scripts", "tests", "features", "e2e", "bin", "proxy.ts"], { cwd: root, encoding: "utf8" });
  return out.split("\0").filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !f.startsWith("tests/fixtures/"));
}

function headings(): Set<string> {
  const text = readFileSync(join(root, "docs", "plan-semantics.md"), "utf8");
  const numbers = new Set<string>();
  for (const m of text.matchAll(/^#{2,3} (\d+(?:\.\d+)*)\.? /gm)) numbers.add(m[1]);
  return numbers;
}

describe("docs/plan-semantics.md", () => {
  it("has a heading for every § the code cites", () => {
    const known = headings();
    expect(known.has("2.4")).toBe(true);
    const dangling: string[] = [];
    let cited = 0;
    for (const file of trackedSources()) {
      const text = readFileSync(join(root, file), "utf8");
      for (const m of text.matchAll(/(YAML 1\.2 )?§ ?(\d+(?:\.\d+)*)/g)) {
        if (m[1]) continue;
        cited++;
        if (!known.has(m[2])) dangling.push(`${file}: §${m[2]}`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(dangling).toEqual([]);
  });

  it("is what the code points to: nothing names a specification outside the repository", () => {
    const outside: string[] = [];
    for (const file of [...trackedSources(), "README.md"]) {
      const text = readFileSync(join(root, file), "utf8");
      if (file !== "tests/docs/references.test.ts" && /\/work\/shared|shared\/(spec|seeds|fixtures)\/|\.\.\/shared\/[a-z-]+\.md/.test(text)) outside.push(file);
    }
    expect(outside).toEqual([]);
  });
});
