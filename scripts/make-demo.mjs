#!/usr/bin/env node
// Writes the bundled demo plan: a small team shipping "Harbor Bookings", an appointment-booking
// web product. Usage: node scripts/make-demo.mjs [OUTPUT_DIR]   (default: examples/demo)
//
// The output is deterministic: no clock, no randomness. Running the script twice gives
// byte-identical files (tests/demo.test.ts holds that). The demo lives in scripts/demo/: the plan
// (plan.mjs, issues.mjs), the code beside it (code.mjs), its records in file form (records.mjs,
// sealed with lib/plan/seal.ts through seal.mjs), the YAML writer (yaml.mjs) and the history
// (history.mjs) that scripts/demo-history.mjs writes as git commits.

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeDemo } from "./demo/files.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? join(root, "examples/demo"));
  const count = writeDemo(outDir);
  process.stdout.write(`make-demo: wrote ${count} files to ${outDir}\n`);
}
