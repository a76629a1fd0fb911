#!/usr/bin/env node
// `npm run docs`: makes the pages of docs/ that come from the declarations again (docs/cli.md from
// the command's verb tables, the capability table of docs/http-and-mcp.md from the registry).
// `npm run docs -- --check` writes nothing and exits 1 when a page differs.
// Run through tsx (`tsx scripts/docs.mjs`), which loads the TypeScript sources as they are.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { generatedDocs } = await import("../lib/surfaces/generated-docs.ts");
const read = (path) => {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return "";
  }
};
const check = process.argv.includes("--check");
let stale = 0;
for (const [path, text] of Object.entries(generatedDocs(read))) {
  if (read(path) === text) continue;
  if (check) {
    process.stderr.write(`${path} differs from the declarations it is made from: run npm run docs\n`);
    stale++;
  } else {
    writeFileSync(join(root, path), text);
    process.stdout.write(`wrote ${path}\n`);
  }
}
process.exit(stale ? 1 : 0);
