// `npm test`: every runner (unit, cucumber, end-to-end), then one closing line that sums them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reports = join(root, "reports");
mkdirSync(reports, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

// Each step's wall time, by label (two builds add up under "build"), printed above the closing line.
const times = new Map();

function run(label, command, args, extraEnv = {}) {
  process.stdout.write(`\n== ${label}: ${command} ${args.join(" ")}\n`);
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  times.set(label, (times.get(label) ?? 0) + (Date.now() - started));
  if ((r.status ?? 1) !== 0) stepsFailed.push(label);
  return r.status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;
// What failed, by name, repeated just above the closing line: a log read from its end shows it.
const failures = [];
const stepsFailed = [];
const firstLine = (text) => {
  const lines = String(text ?? "").replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? "";
  // A property's first line only counts its runs: the error it got and the seed that replays it follow.
  if (!/^(Error: )?Property failed/.test(first)) return first.slice(0, 1200);
  const got = lines.findIndex((l) => /^Got /.test(l));
  const seed = lines.find((l) => /seed: -?\d+/.test(l));
  return [first, got >= 0 ? lines[got] : "", seed ?? ""].filter(Boolean).join(" | ").slice(0, 600);
};

// The test files that took longest, from every runner: [label, milliseconds].
const fileTimes = [];

// 0. The linter, when the project has one: a step that fails the run, like the typecheck.
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts ?? {};
if (scripts.lint && run("lint", "npm", ["run", "--silent", "lint"]) !== 0) broken = true;

// 1. The command line's bundle, so tests run against the current sources.
if (run("build", "npm", ["run", "--silent", "build:cli"]) !== 0) broken = true;

// 2. The web app's production build (reused while the sources are unchanged): the HTTP and MCP
// contract tests and the end-to-end tests run against it.
if (!broken && run("build", process.execPath, ["bin/cockpit", "serve", "--build-only"]) !== 0) broken = true;

// The types of the app and of the tests, checked once (the build does not check them again).
if (run("typecheck", "npx", ["tsc", "--noEmit", "-p", "tsconfig.test.json"]) !== 0) broken = true;

// 3. Unit and integration tests (vitest).
const vitestJson = join(reports, "vitest.json");
const vitestStatus = run("unit", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, "utf8"));
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests;
  totals.skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  for (const file of v.testResults ?? []) {
    if (file.endTime && file.startTime) fileTimes.push([`unit ${relative(root, file.name)}`, file.endTime - file.startTime]);
    for (const t of file.assertionResults ?? []) {
      if (t.status === "failed") failures.push(`unit ${relative(root, file.name)} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === "failed") failures.push(`unit ${relative(root, file.name)}: ${firstLine(file.message)}`);
  }
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
        else if (statuses.some((s) => s === "failed" || s === "undefined" || s === "ambiguous")) {
          totals.failed++;
          const step = (el.steps ?? []).find((st) => st.result?.status !== "passed");
          failures.push(`cucumber ${feature.uri} › ${el.name}: ${step?.keyword ?? ""}${step?.name ?? ""} ${firstLine(step?.result?.error_message)}`);
        }
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
    const status = run("e2e", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson });
    if (existsSync(e2eJson)) {
      const report = JSON.parse(readFileSync(e2eJson, "utf8"));
      const s = report.stats;
      // A spec file's time is the sum of its tests' runs, in every project that runs it.
      const e2eFiles = new Map();
      const walk = (suite) => {
        for (const spec of suite.specs ?? []) {
          for (const t of spec.tests ?? []) {
            const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
            e2eFiles.set(spec.file, (e2eFiles.get(spec.file) ?? 0) + ms);
            if (t.status !== "unexpected") continue;
            const last = t.results?.at(-1);
            failures.push(`e2e [${t.projectName}] ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(last?.error?.message)}`);
          }
        }
        for (const child of suite.suites ?? []) walk(child);
      };
      for (const suite of report.suites ?? []) walk(suite);
      for (const [file, ms] of e2eFiles) fileTimes.push([`e2e ${join("e2e", file)}`, ms]);
      totals.passed += s.expected + s.flaky;
      totals.failed += s.unexpected;
      totals.skipped += s.skipped;
      if (status !== 0 && s.unexpected === 0) broken = true;
    } else broken = true;
  }
}

// Where the time went: each step, then the ten slowest test files.
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`\ntime: ${[...times].map(([label, ms]) => `${label} ${seconds(ms)}`).join(", ")}`);
if (fileTimes.length > 0) {
  console.log("slowest test files:");
  for (const [file, ms] of fileTimes.sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${seconds(ms).padStart(8)}  ${file}`);
}

if (broken && totals.failed === 0) totals.failed = 1;
if (failures.length > 0 || broken) {
  console.log(`\nfailed: ${failures.length} test(s)${stepsFailed.length ? `; steps that exited non-zero: ${stepsFailed.join(", ")}` : ""}`);
  for (const f of failures) console.log(`  ${f}`);
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed` + (totals.skipped ? `, ${totals.skipped} skipped` : ""));
process.exit(totals.failed > 0 ? 1 : 0);
