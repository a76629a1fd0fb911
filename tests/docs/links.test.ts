import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

// The docs are read in the repository (on GitHub, in an editor): every relative link of README.md
// and docs/*.md leads to a file of the repository, and a `#heading` to a heading of that file.
const root = join(__dirname, "..", "..");

function tracked(...paths: string[]): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...paths], { cwd: root, encoding: "utf8" });
  return out.split("\0").filter((f) => f && existsSync(join(root, f)));
}

const pages = () => tracked("README.md", "docs").filter((f) => f.endsWith(".md"));

/** The text of a page outside its code: fenced blocks and inline code hold examples, not links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(text: string): string[] {
  const found: string[] = [];
  for (const m of prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1]);
  for (const m of prose(text).matchAll(/^\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) found.push(m[1]);
  return found.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("the links of README.md and docs/", () => {
  it("finds the headings GitHub makes anchors of", () => {
    expect([...anchors("# The `cockpit` command\n## 3.2 Waves\n## Time\n## Time\n```\n# not a heading\n```\n")]).toEqual([
      "the-cockpit-command",
      "32-waves",
      "time",
      "time-1",
    ]);
  });

  it("lead to files of the repository, and to headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages()) {
      const text = readFileSync(join(root, page), "utf8");
      for (const target of links(text)) {
        checked++;
        const [path, anchor] = target.split("#", 2) as [string, string | undefined];
        const file = path === "" ? join(root, page) : resolve(root, dirname(page), decodeURIComponent(path));
        if (relative(root, file).split(sep)[0] === "..") {
          broken.push(`${page}: ${target} leads outside the repository`);
        } else if (!existsSync(file)) {
          broken.push(`${page}: ${target}: no such file`);
        } else if (anchor !== undefined && statSync(file).isFile() && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(anchor)) {
          broken.push(`${page}: ${target}: no heading '#${anchor}' in ${relative(root, file)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  it("name no file outside the repository: no path of this machine, no ../shared", () => {
    const outside: string[] = [];
    for (const file of tracked(".").filter((f) => !f.startsWith("tests/fixtures/") && f !== "tests/docs/links.test.ts")) {
      if (statSync(join(root, file)).size > 2_000_000) continue;
      const text = readFileSync(join(root, file), "utf8");
      if (text.includes("\0")) continue;
      if (/(^|[\s"'`(=:])\/work\//m.test(text)) outside.push(`${file}: names /work/`);
      if (file.endsWith(".md") && /\.\.\/shared\b/.test(text)) outside.push(`${file}: names ../shared`);
    }
    expect(outside).toEqual([]);
  });

  it("list every page of docs/ in the README", () => {
    const readme = links(readFileSync(join(root, "README.md"), "utf8")).map((t) => t.split("#")[0]);
    const unlisted = pages().filter((p) => p.startsWith("docs/") && !readme.includes(p));
    expect(pages().length).toBeGreaterThan(10);
    expect(unlisted, "add each page to the README's list of docs").toEqual([]);
  });

  it("name only paths of the repository that exist", () => {
    // A path of another tool's repository, named as what the importer reads.
    const theirs = new Set(["scripts/modules/dependency-manager.js"]);
    const missing: string[] = [];
    let named = 0;
    for (const page of pages()) {
      for (const m of readFileSync(join(root, page), "utf8").matchAll(/`((?:lib|app|components|scripts|tests|e2e|bin|features|examples|docs)\/[\w./[\]-]*)`/g)) {
        named++;
        if (!theirs.has(m[1]) && !existsSync(join(root, m[1]))) missing.push(`${page}: ${m[1]}`);
      }
    }
    expect(named).toBeGreaterThan(30);
    expect(missing, "a file was moved or renamed: name it where it is now").toEqual([]);
  });
});
