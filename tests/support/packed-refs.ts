import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "./git";

// Test support (not used by the product): many refs in a repository in seconds, as a fetch from a
// hostile remote would bring them. Creating a million refs through git takes far too long; git
// reads them just as well from packed-refs, a file sorted by name that it keeps itself.

/**
 * Adds `count` refs named `<prefix><n>` (n zero-padded to 7 digits) pointing at `tip` to the
 * repository's packed-refs: every existing ref is packed first, then the file is written sorted.
 */
export function addPackedRefs(repo: string, prefix: string, count: number, tip: string): void {
  runGit(repo, ["pack-refs", "--all"]);
  const file = join(repo, ".git", "packed-refs");
  const entries: [string, string][] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    // A peeled line ("^<id>") belongs to the ref before it.
    if (line.startsWith("^")) entries[entries.length - 1][1] += `\n${line}`;
    else entries.push([line.slice(line.indexOf(" ") + 1), line]);
  }
  for (let n = 0; n < count; n++) {
    const name = `${prefix}${String(n).padStart(7, "0")}`;
    entries.push([name, `${tip} ${name}`]);
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  writeFileSync(file, `# pack-refs with: peeled fully-peeled sorted \n${entries.map((e) => e[1]).join("\n")}\n`);
}
