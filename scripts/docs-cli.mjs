#!/usr/bin/env node
// `npm run docs`: writes docs/cli.md from the command's verb tables (lib/surfaces/cli/reference.ts).
// `npm run docs -- --check` writes nothing and exits 1 when docs/cli.md differs from the tables.
// Run through tsx (`tsx scripts/docs-cli.mjs`), which loads the TypeScript sources as they are.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "cli.md");
const { cliReference } = await import("../lib/surfaces/cli/reference.ts");
const text = cliReference();

if (process.argv.includes("--check")) {
  let written = "";
  try {
    written = readFileSync(target, "utf8");
  } catch {}
  if (written !== text) {
    process.stderr.write("docs/cli.md differs from the verb tables in lib/surfaces/cli/: run npm run docs\n");
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  process.stdout.write(`wrote docs/cli.md (${text.split("\n").length} lines)\n`);
}
