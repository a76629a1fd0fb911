// Shared helpers of the benchmark sections: timing, statistics, child processes, peak memory,
// bundling TypeScript for in-process measurements, tables and reports.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const requireFromRoot = createRequire(join(ROOT, "package.json"));

/** Benchmark data and scratch files live here (outside the repository). */
export const BENCH_TMP = join(tmpdir(), "cockpit-bench");

/** A garbage collection on demand, so a timed run does not pay for the previous run's garbage. */
export const gc = (() => {
  if (typeof globalThis.gc === "function") return globalThis.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc");
})();

export const now = () => process.hrtime.bigint();
export const msSince = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function summary(values) {
  return {
    median: round(median(values)),
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
    runs: values.length,
    samples: values.map(round),
  };
}

export const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Time `fn` `runs` times after `warmup` untimed calls, collecting garbage before each call.
 * Returns wall times and CPU times (user + system of this process, GC threads included) in ms;
 * CPU time is the steadier figure when other work competes for the machine.
 */
export function timeInProcess(fn, { runs, warmup = 2, setup }) {
  for (let i = 0; i < warmup; i++) fn(setup?.(i));
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    // `setup(i)` prepares each call's input, outside the timing.
    const input = setup?.(warmup + i);
    gc();
    const c0 = process.cpuUsage();
    const t0 = now();
    fn(input);
    wall.push(msSince(t0));
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

let devNull;
const TIME_BIN = "/usr/bin/time";
export const HAVE_TIME = existsSync(TIME_BIN);

/**
 * Run `command args…` with stdout to /dev/null; returns its wall time in ms and, when
 * `/usr/bin/time` exists (it then wraps the command: one extra exec, well under a millisecond),
 * its peak resident memory in MB and its CPU time (user + system, 10 ms resolution). Throws when
 * the command fails.
 */
export function runProcess(command, args) {
  devNull ??= openSync("/dev/null", "w");
  mkdirSync(BENCH_TMP, { recursive: true });
  const rssFile = join(BENCH_TMP, `rss-${process.pid}`);
  const [cmd, argv] = HAVE_TIME ? [TIME_BIN, ["-f", "%M %U %S", "-o", rssFile, command, ...args]] : [command, args];
  const t0 = now();
  const r = spawnSync(cmd, argv, { stdio: ["ignore", devNull, "pipe"], maxBuffer: 64 * 1024 * 1024 });
  const ms = msSince(t0);
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 500)}`);
  }
  let rssMb;
  let cpuMs;
  if (HAVE_TIME) {
    const [kb, user, sys] = readFileSync(rssFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
    rssMb = round(kb / 1024, 1);
    cpuMs = round((user + sys) * 1000, 0);
    rmSync(rssFile, { force: true });
  }
  return { ms, rssMb, cpuMs };
}

let rssWrapper;

/**
 * Peak resident memory (MB) of `node script args…` without /usr/bin/time: a wrapper runs the
 * script in its own process and reports `process.resourceUsage().maxRSS` on exit.
 */
export function peakRssViaWrapper(script, args) {
  devNull ??= openSync("/dev/null", "w");
  rssWrapper ??= writeScratch(
    "rss-wrapper.cjs",
    [
      '"use strict";',
      "// Runs a node script in this process and writes its peak RSS (KB) to argv[2] on exit.",
      'const fs = require("node:fs");',
      "const [out, script, ...rest] = process.argv.slice(2);",
      "process.argv = [process.argv[0], script, ...rest];",
      'process.on("exit", () => fs.writeFileSync(out, String(process.resourceUsage().maxRSS)));',
      "require(script);",
    ].join("\n"),
  );
  const scratch = mkdtempSync(join(BENCH_TMP, "rss-"));
  const out = join(scratch, "rss");
  try {
    const r = spawnSync(process.execPath, [rssWrapper, out, script, ...args], { stdio: ["ignore", devNull, "pipe"] });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`${script} exited ${r.status ?? r.signal}: ${String(r.stderr).slice(0, 500)}`);
    return round(Number(readFileSync(out, "utf8").trim()) / 1024, 1);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Write a helper file into the benchmark scratch folder; returns its path. */
export function writeScratch(name, text) {
  mkdirSync(BENCH_TMP, { recursive: true });
  const path = join(BENCH_TMP, name);
  writeFileSync(path, text);
  return path;
}

/**
 * Bundle a TypeScript entry of this repository with esbuild into a CommonJS file under the
 * scratch folder and load it, so in-process figures measure the same compiled code the CLI runs.
 */
let planFixtures;

/**
 * The generator of the bench's plan repositories (tests/support/plan-fixture.ts, the test support
 * that the tests use too), bundled once per process.
 */
export async function loadPlanFixtures() {
  planFixtures ??= await loadBundled("tests/support/plan-fixture.ts", "plan-fixture");
  return planFixtures;
}

/** `entry` bundled into BENCH_TMP for node (its native and listed modules left to node_modules); the file's path. */
export async function bundleFile(entry, name, external = []) {
  const { build } = await import("esbuild");
  mkdirSync(BENCH_TMP, { recursive: true });
  const outfile = join(BENCH_TMP, `${name}-${process.pid}.cjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "warning",
    absWorkingDir: ROOT,
    // As in scripts/build-cli.mjs: a native module is loaded from node_modules, never bundled.
    // The bundle lives outside the repository, so its `require` resolves from the repository root.
    external: ["better-sqlite3", ...external],
    // As there too: an import() becomes a require(), so pg (loaded at the first use of a database) resolves as a require does.
    supported: { "dynamic-import": false },
    banner: { js: `require = require("node:module").createRequire(${JSON.stringify(join(ROOT, "package.json"))});` },
  });
  return outfile;
}

/** `entry`, bundled and loaded in this process. */
export async function loadBundled(entry, name) {
  const outfile = await bundleFile(entry, name);
  try {
    return createRequire(outfile)(outfile);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** Lay rows out in aligned columns (first column left-aligned, the others right-aligned). */
export function table(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => String(r[c] ?? "").length)));
  const line = (r) =>
    r.map((cell, c) => (c === 0 ? String(cell ?? "").padEnd(widths[c]) : String(cell ?? "").padStart(widths[c]))).join("   ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("   "), ...rows.map(line)].join("\n");
}

export const fmtMs = (ms) =>
  ms === undefined ? "-" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`;
export const fmtMb = (mb) => (mb === undefined ? "-" : `${mb.toFixed(0)} MB`);
export const sizeLabel = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** Write a section's figures to reports/<name>.json. */
export function writeReport(name, data) {
  const dir = join(ROOT, "reports");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(data, null, 2) + "\n");
  return path;
}

export function environment() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: availableParallelism(),
    cpu_model: cpus()[0]?.model,
    load_average: loadavg().map((x) => round(x)),
  };
}

/** A child's stdout, line by line: each call of the function returned waits for the next line. */
function lineReader(child) {
  let buffer = "";
  const waiters = [];
  child.stdout.on("data", (d) => {
    buffer += d;
    let i;
    while ((i = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      waiters.shift()?.(line);
    }
  });
  return () => new Promise((r) => waiters.push(r));
}

/**
 * Processes racing from one start line: `count` runs of `source` (a CommonJS script written to
 * BENCH_TMP), `args(k)` the arguments of the k-th. Each prints a line when it is ready; once all
 * are, each is told "go" and its next line is its result (JSON). Returns the results and the wall
 * time from "go" to the last result.
 */
export async function raceProcesses(name, source, count, args, env = {}) {
  const script = join(BENCH_TMP, `${name}-${process.pid}.cjs`);
  mkdirSync(BENCH_TMP, { recursive: true });
  writeFileSync(script, source);
  try {
    const children = Array.from({ length: count }, (_, k) =>
      spawn(process.execPath, [script, ...args(k)], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...env } }),
    );
    const readers = children.map(lineReader);
    await Promise.all(readers.map((f) => f()));
    const results = readers.map((f) => f());
    const t0 = process.hrtime.bigint();
    // Ended, not only written: a child that read its go has no open stdin to keep it alive.
    for (const c of children) c.stdin.end("go\n");
    const out = (await Promise.all(results)).map((l) => JSON.parse(l));
    return { out, wall: Number(process.hrtime.bigint() - t0) / 1e6 };
  } finally {
    rmSync(script, { force: true });
  }
}

const benchGit = (cwd, ...args) => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
};

/**
 * An origin holding one milestone M1 of `issues` READY issues (I0001…), and `n` clones of it,
 * under BENCH_TMP/<label>-<pid>: `base` (remove it when done) and the clones' folders.
 */
export function benchClones(label, issues, n) {
  const base = join(BENCH_TMP, `${label}-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  const seed = join(base, "seed");
  const project = join(seed, ".ai/repo/project");
  mkdirSync(join(project, "milestones"), { recursive: true });
  mkdirSync(join(project, "issues"), { recursive: true });
  writeFileSync(join(project, "project.yaml"), `schema_version: 1\nname: Bench\nrepository: bench/${label}\ndefault_branch: main\n`);
  writeFileSync(
    join(project, "milestones/M1.yaml"),
    "id: M1\ntitle: Milestone\nslug: m1\norder: 1\npriority: p1\nproblem: p\noutcome: o\nacceptance_criteria: [done]\nvalidation: [check]\nevidence_required: []\ndepends_on: []\n",
  );
  for (let i = 1; i <= issues; i++) {
    const id = `I${String(i).padStart(4, "0")}`;
    writeFileSync(
      join(project, `issues/${id}.yaml`),
      `id: ${id}\nmilestone: M1\ntitle: Issue ${id}\nslug: ${id.toLowerCase()}\npriority: p1\nprofile: implementation\nobjective: o\nscope: [src/${id}]\ndepends_on: []\nacceptance_criteria: [it works]\nvalidation: ["true"]\nevidence_required: [proof]\ncreated_at: 2026-10-01\n`,
    );
  }
  writeFileSync(join(seed, ".gitignore"), ".ai/local/\n");
  benchGit(base, "init", "-q", "-b", "main", seed);
  benchGit(seed, "add", "-A");
  benchGit(seed, "-c", "user.name=bench", "-c", "user.email=bench@cockpit.invalid", "commit", "-qm", "plan");
  const clones = [];
  for (let k = 0; k < n; k++) {
    const dir = join(base, `clone-${k}`);
    benchGit(base, "clone", "-q", seed, dir);
    clones.push(dir);
  }
  return { base, clones };
}

/** A TCP port nobody listens on right now (the kernel's pick, released before it is returned). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Wait until `url` answers 200, or fail once `child` (the server) exited or `seconds` passed. */
export async function waitForServer(url, child, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it answered`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}
