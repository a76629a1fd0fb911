// `npm test`: every runner (unit, cucumber, end-to-end), then one closing line that sums them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reports = join(root, "reports");
mkdirSync(reports, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function run(label, command, args) {
  process.stdout.write(`\n== ${label}: ${command} ${args.join(" ")}\n`);
  const r = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  return r.status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

// 1. The command line's bundle, so tests run against the current sources.
if (run("build", "npm", ["run", "--silent", "build:cli"]) !== 0) broken = true;

// 2. The web app's production build (reused while the sources are unchanged): the HTTP and MCP
// contract tests and the end-to-end tests run against it.
if (!broken && run("build", process.execPath, ["bin/cockpit", "serve", "--build-only"]) !== 0) broken = true;

// The tests' own types (the build checks the app's).
if (run("typecheck", "npx", ["tsc", "--noEmit", "-p", "tsconfig.test.json"]) !== 0) broken = true;

// 3. Unit and integration tests (vitest).
const vitestJson = join(reports, "vitest.json");
const vitestStatus = run("unit", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, "utf8"));
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests;
  totals.skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  if (vitestStatus !== 0 && v.numFailedTests === 0) broken = true;
} else broken = true;

// 4. The user's feature files (cucumber), when present.
if (existsSync(join(root, "features")) && existsSync(join(root, "cucumber.js"))) {
  const cucumberJson = join(reports, "cucumber.json");
  const status = run("cucumber", "npx", ["cucumber-js", "--format", `json:${cucumberJson}`]);
  if (existsSync(cucumberJson)) {
    for (const feature of JSON.parse(readFileSync(cucumberJson, "utf8"))) {
      for (const el of feature.elements ?? []) {
        const statuses = (el.steps ?? []).map((s) => s.result?.status);
        if (statuses.every((s) => s === "passed")) totals.passed++;
        else if (statuses.some((s) => s === "failed" || s === "undefined" || s === "ambiguous")) totals.failed++;
        else totals.skipped++;
      }
    }
  } else if (status !== 0) broken = true;
}

// 5. End-to-end tests in a real browser against the production build, when present.
const e2eDir = join(root, "e2e");
if (existsSync(e2eDir) && readdirSync(e2eDir).some((f) => f.endsWith(".spec.ts"))) {
  {
    const e2eJson = join(reports, "e2e.json");
    const status = spawnSync("npx", ["playwright", "test", "--reporter=list,json"], {
      cwd: root,
      stdio: "inherit",
      env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson },
    }).status;
    if (existsSync(e2eJson)) {
      const s = JSON.parse(readFileSync(e2eJson, "utf8")).stats;
      totals.passed += s.expected + s.flaky;
      totals.failed += s.unexpected;
      totals.skipped += s.skipped;
      if (status !== 0 && s.unexpected === 0) broken = true;
    } else broken = true;
  }
}

if (broken && totals.failed === 0) totals.failed = 1;
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed` + (totals.skipped ? `, ${totals.skipped} skipped` : ""));
process.exit(totals.failed > 0 ? 1 : 0);
