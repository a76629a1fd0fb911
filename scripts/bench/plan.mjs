// Benchmark section "plan": the derivation in memory, the `cockpit plan` command from a cold
// process, the floor (reading the same files and parsing them with js-yaml, nothing else), and
// peak memory. Figures go to stdout as a table and to reports/bench-plan.json.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  BENCH_TMP,
  ROOT,
  environment,
  fmtMb,
  fmtMs,
  loadBundled,
  loadPlanFixtures,
  msSince,
  now,
  HAVE_TIME,
  peakRssViaWrapper,
  requireFromRoot,
  round,
  sizeLabel,
  summary,
  table,
  timeInProcess,
  runProcess,
  writeReport,
  writeScratch,
} from "./lib.mjs";

export const name = "plan";
export const description = "plan derivation: in memory, cold `cockpit plan`, the js-yaml floor, peak memory";

export const DEFAULT_SIZES = [1000, 10000, 100000];
/** Sizes at or above this get the short treatment (fewer runs, one cold run). */
const LARGE = 50000;

export const TARGETS = {
  version_over_node: 1.5,
  demo_next_over_node: 2,
  cached_next_over_floor_10k: 0.5,
  cached_status_over_floor_10k: 0.5,
  derive_10k_ms: 30,
  derive_100k_ms: 500,
  model_over_floor_10k: 1.5,
  peak_rss_10k_mb: 400,
};

const COCKPIT = join(ROOT, "bin/cockpit");

/** A node program that reads every record file and parses it with js-yaml's CORE_SCHEMA, and nothing else. */
function floorScript() {
  const jsYaml = requireFromRoot.resolve("js-yaml");
  return writeScratch(
    "plan-floor.cjs",
    `"use strict";
// The floor of \`cockpit plan\`: read the same files and parse each with js-yaml, nothing else.
const fs = require("node:fs");
const path = require("node:path");
const { load, CORE_SCHEMA } = require(${JSON.stringify(jsYaml)});
const project = path.join(process.argv[2], ".ai/repo/project");
let parsed = 0;
const parse = (file) => {
  load(fs.readFileSync(file, "utf8"), { schema: CORE_SCHEMA });
  parsed++;
};
parse(path.join(project, "project.yaml"));
for (const sub of ["milestones", "issues"]) {
  const dir = path.join(project, sub);
  for (const name of fs.readdirSync(dir)) if (name.endsWith(".yaml")) parse(path.join(dir, name));
}
if (parsed === 0) process.exit(1);
`,
  );
}

const log = (text) => process.stderr.write(`[bench plan] ${text}\n`);

export async function run(options = {}) {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  // Cold runs per command: at least 7 below LARGE (9 at the small sizes, where a run is cheap).
  const coldRunsFor = (n) => Math.max(7, options.runs ?? (n >= 10000 ? 7 : 9));
  const started = now();
  const envAtStart = environment();
  if (envAtStart.load_average[0] > envAtStart.cpus) {
    log(`warning: load average ${envAtStart.load_average[0]} on ${envAtStart.cpus} CPUs; other work competes with the figures`);
  }

  // ---- fixtures
  const { GENERATOR_VERSION, ensurePlanFixture } = await loadPlanFixtures();
  const fixtures = {};
  for (const n of sizes) {
    log(`fixture ${sizeLabel(n)}: preparing…`);
    const f = ensurePlanFixture(n, BENCH_TMP);
    fixtures[n] = f;
    log(
      `fixture ${sizeLabel(n)}: ${f.dir} (${f.reused ? "reused" : `generated in ${fmtMs(f.generated_in_ms)}`}; ` +
        `${f.files} files, ${(f.bytes / 1e6).toFixed(1)} MB, ${Math.round(f.bytes / f.files)} B/file, ${f.stamps} stamps)`,
    );
  }

  // ---- the derivation in memory, on records loaded beforehand
  log("bundling lib/repo/index.ts with esbuild…");
  const planLib = await loadBundled("lib/repo/index.ts", "plan-lib");
  const derive = {};
  // The same, each call after one issue record was replaced by an edited copy (a new object, as
  // the loader gives for a changed file): what a server pays per edit.
  const deriveOneChanged = {};
  const loadInProcess = {};
  // The first derivation of freshly loaded records (what a cold command pays); the timed runs
  // after it pass the same DerivationMemory, as a server does for the repository it serves, and
  // reuse what it kept (the id index, the facts of each record it read last, the seal checks).
  const firstDerive = {};
  // Without a memory (a one-shot command, or a move's derivations): from scratch every time.
  const deriveFromScratch = {};
  const shape = {};
  for (const n of sizes) {
    const large = n >= LARGE;
    let t0 = now();
    let records = planLib.loadRecords(fixtures[n].dir);
    loadInProcess[n] = round(msSince(t0));
    const memory = new planLib.DerivationMemory();
    t0 = now();
    const plan = planLib.derivePlan(records, memory);
    firstDerive[n] = round(msSince(t0));
    shape[n] = {
      issues: plan.issues.length,
      milestones: plan.milestones.length,
      waves: plan.waves.length,
      edges: plan.edges.length,
      failures: plan.findings.filter((f) => f.level === "FAIL").length,
      warnings: plan.findings.filter((f) => f.level === "WARN").length,
      scope_conflicts: plan.findings.filter((f) => f.code === "scope_conflict").length,
      by_status: Object.fromEntries(
        plan.statuses.issue.map((s) => [s, plan.issues.filter((i) => i.status === s).length]),
      ),
    };
    if (shape[n].failures > 0) {
      throw new Error(`the ${n}-issue fixture derives ${shape[n].failures} FAIL finding(s); the generator is wrong`);
    }
    const runs = large ? 5 : n >= 10000 ? 15 : 25;
    const samples = timeInProcess(() => planLib.derivePlan(records, memory), { runs, warmup: large ? 3 : 10 });
    derive[n] = { ...summary(samples.wall), cpu: summary(samples.cpu) };
    let current = records;
    const edited = timeInProcess((input) => planLib.derivePlan(input, memory), {
      runs,
      warmup: large ? 3 : 10,
      setup: (i) => {
        const issues = current.issues.slice();
        const k = (i * 7919) % issues.length;
        issues[k] = { ...issues[k], title: `${issues[k].title} (edit ${i})` };
        current = { ...current, issues };
        return current;
      },
    });
    deriveOneChanged[n] = { ...summary(edited.wall), cpu: summary(edited.cpu) };
    const scratch = timeInProcess(() => planLib.derivePlan(records), { runs: large ? 3 : runs, warmup: large ? 1 : 5 });
    deriveFromScratch[n] = { ...summary(scratch.wall), cpu: summary(scratch.cpu) };
    log(
      `derive ${sizeLabel(n)}: median ${fmtMs(derive[n].median)} (cpu ${fmtMs(derive[n].cpu.median)}) over ${runs} runs, ` +
        `after one record changed ${fmtMs(deriveOneChanged[n].median)}, without a memory ${fmtMs(deriveFromScratch[n].median)} ` +
        `(load in process ${fmtMs(loadInProcess[n])})`,
    );
    current = undefined;
    records = undefined;
  }

  // ---- cold processes: cockpit plan model / next, and the floor, interleaved; peak memory
  const floor = floorScript();
  const commands = {
    model: (dir) => [COCKPIT, "plan", "model", "--json", "--repo", dir],
    next: (dir) => [COCKPIT, "plan", "next", "--json", "--repo", dir],
    floor: (dir) => [floor, dir],
  };
  const kinds = Object.keys(commands);
  const cold = {};
  const rss = {};
  for (const n of sizes) {
    const dir = fixtures[n].dir;
    const runs = n >= LARGE ? 1 : coldRunsFor(n);
    const samples = Object.fromEntries(kinds.map((k) => [k, []]));
    const peaks = Object.fromEntries(kinds.map((k) => [k, []]));
    const cpu = Object.fromEntries(kinds.map((k) => [k, []]));
    // One untimed round at the small size: the first node start-up on a fresh machine is slower.
    if (n < 10000) for (const k of kinds) runProcess(process.execPath, commands[k](dir));
    for (let r = 0; r < runs; r++) {
      // Rotate the order every round so no command always runs right after another.
      for (let j = 0; j < kinds.length; j++) {
        const k = kinds[(r + j) % kinds.length];
        const { ms, rssMb, cpuMs } = runProcess(process.execPath, commands[k](dir));
        samples[k].push(ms);
        if (rssMb !== undefined) peaks[k].push(rssMb);
        if (cpuMs !== undefined) cpu[k].push(cpuMs);
      }
    }
    cold[n] = Object.fromEntries(
      kinds.map((k) => [k, { ...summary(samples[k]), ...(cpu[k].length ? { cpu: summary(cpu[k]) } : {}) }]),
    );
    cold[n].model_over_floor = round(cold[n].model.median / cold[n].floor.median, 3);
    cold[n].next_over_floor = round(cold[n].next.median / cold[n].floor.median, 3);
    if (cpu.model.length) cold[n].model_over_floor_cpu = round(cold[n].model.cpu.median / cold[n].floor.cpu.median, 3);
    if (!HAVE_TIME && n >= 10000) {
      for (const k of kinds) {
        const [script, ...args] = commands[k](dir);
        peaks[k].push(peakRssViaWrapper(script, args));
      }
    }
    if (peaks.model.length) rss[n] = Object.fromEntries(kinds.map((k) => [k, Math.max(...peaks[k])]));
    log(
      `cold ${sizeLabel(n)}: model ${fmtMs(cold[n].model.median)}, next ${fmtMs(cold[n].next.median)}, ` +
        `floor ${fmtMs(cold[n].floor.median)} (${runs} run${runs > 1 ? "s" : ""} each)` +
        (rss[n] ? `; peak RSS model ${fmtMb(rss[n].model)}, next ${fmtMb(rss[n].next)}, floor ${fmtMb(rss[n].floor)}` : ""),
    );
  }

  // ---- cold starts: the command's own start-up, the demo, and 10k issues with the parse cache
  const starts = coldStarts(options, sizes.filter((n) => n >= 10000 && n < LARGE), fixtures, floor, coldRunsFor);

  // ---- targets
  const targets = [];
  const target = (label, value, limit, unit) =>
    value !== undefined && targets.push({ target: label, value, limit, unit, pass: value <= limit });
  target("derive in memory, 10k", derive[10000]?.median, TARGETS.derive_10k_ms, "ms");
  target("  after one record changed, 10k", deriveOneChanged[10000]?.median, TARGETS.derive_10k_ms, "ms");
  target("derive in memory, 100k", derive[100000]?.median, TARGETS.derive_100k_ms, "ms");
  target("  after one record changed, 100k", deriveOneChanged[100000]?.median, TARGETS.derive_100k_ms, "ms");
  target("cockpit plan model / floor, 10k", cold[10000]?.model_over_floor, TARGETS.model_over_floor_10k, "x");
  target("peak RSS cockpit plan model, 10k", rss[10000]?.model, TARGETS.peak_rss_10k_mb, "MB");
  target("cockpit --version / node -e 0", starts.version_over_node, TARGETS.version_over_node, "x");
  target("cockpit plan next (demo) / node -e 0", starts.demo_next_over_node, TARGETS.demo_next_over_node, "x");
  target("plan next, parse cache in place / floor, 10k", starts.git[10000]?.next_cached_over_floor, TARGETS.cached_next_over_floor_10k, "x");
  target("plan status, parse cache in place / floor, 10k", starts.git[10000]?.status_cached_over_floor, TARGETS.cached_status_over_floor_10k, "x");

  const report = {
    section: "plan",
    generated_at: new Date().toISOString(),
    environment: envAtStart,
    load_average_at_end: environment().load_average,
    generator_version: GENERATOR_VERSION,
    fixtures: Object.fromEntries(
      sizes.map((n) => {
        const { dir, files, bytes, stamps, milestones, reused } = fixtures[n];
        return [n, { dir, files, bytes, avg_file_bytes: Math.round(bytes / files), milestones, stamps, reused, plan: shape[n] }];
      }),
    ),
    derive_in_memory_ms: derive,
    derive_after_one_change_ms: deriveOneChanged,
    derive_without_memory_ms: deriveFromScratch,
    load_records_in_process_ms: loadInProcess,
    derive_first_call_ms: firstDerive,
    cold_process_ms: cold,
    cold_starts_ms: starts,
    peak_rss_mb: rss,
    targets,
    total_seconds: round(msSince(started) / 1000, 1),
  };
  const reportPath = writeReport("bench-plan", report);

  // ---- the table
  const cols = sizes.map(sizeLabel);
  const row = (label, f) => [label, ...sizes.map((n) => f(n) ?? "-")];
  const ratio = (x) => (x === undefined ? undefined : `${x.toFixed(2)}x`);
  const lines = [
    `plan — derivation and \`cockpit plan\` (fixtures: ${join(BENCH_TMP, `plan-v${GENERATOR_VERSION}-<n>`)})`,
    "",
    table(
      ["", ...cols],
      [
        row("issues / milestones", (n) => `${shape[n].issues} / ${shape[n].milestones}`),
        row("waves / findings (scope conflicts)", (n) => `${shape[n].waves} / ${shape[n].failures + shape[n].warnings} (${shape[n].scope_conflicts})`),
        row("record bytes (avg per file)", (n) => `${(fixtures[n].bytes / 1e6).toFixed(1)} MB (${Math.round(fixtures[n].bytes / fixtures[n].files)} B)`),
        row("derivePlan repeated, with a memory, median", (n) => fmtMs(derive[n]?.median)),
        row("  min .. max (runs)", (n) => derive[n] && `${fmtMs(derive[n].min)} .. ${fmtMs(derive[n].max)} (${derive[n].runs})`),
        row("  CPU time, median", (n) => derive[n] && fmtMs(derive[n].cpu.median)),
        row("  after one record changed, median", (n) => fmtMs(deriveOneChanged[n]?.median)),
        row("  first call after loading (1 run, info)", (n) => fmtMs(firstDerive[n])),
        row("  without a memory, median (info)", (n) => fmtMs(deriveFromScratch[n]?.median)),
        row("loadRecords in process (1 run, info)", (n) => fmtMs(loadInProcess[n])),
        row("cockpit plan model --json, median", (n) => fmtMs(cold[n]?.model.median)),
        row("cockpit plan next --json, median", (n) => fmtMs(cold[n]?.next.median)),
        row("floor: read + js-yaml CORE, median", (n) => fmtMs(cold[n]?.floor.median)),
        row("  cold runs each", (n) => cold[n] && String(cold[n].model.runs)),
        row("  CPU time model / next / floor", (n) => cold[n]?.model.cpu && [cold[n].model.cpu, cold[n].next.cpu, cold[n].floor.cpu].map((c) => fmtMs(c.median)).join(" / ")),
        row("model / floor", (n) => ratio(cold[n]?.model_over_floor)),
        row("  by CPU time", (n) => ratio(cold[n]?.model_over_floor_cpu)),
        row("next / floor", (n) => ratio(cold[n]?.next_over_floor)),
        row(`peak RSS cockpit plan model (${HAVE_TIME ? "/usr/bin/time %M" : "resourceUsage"})`, (n) => rss[n] && fmtMb(rss[n].model)),
        row("peak RSS cockpit plan next", (n) => rss[n] && fmtMb(rss[n].next)),
        row("peak RSS floor", (n) => rss[n] && fmtMb(rss[n].floor)),
      ],
    ),
    "",
    "cold starts (each a new process; the parse cache lives in the copy's git folder)",
    table(
      ["", "median", "/ node -e 0", "/ floor"],
      [
        ["node -e 0", fmtMs(starts.node.median), "1.00x", ""],
        ["cockpit --version", fmtMs(starts.version.median), ratio(starts.version_over_node), ""],
        ["cockpit plan next --json (demo)", fmtMs(starts.demo_next.median), ratio(starts.demo_next_over_node), ""],
        ...Object.entries(starts.git).flatMap(([n, g]) => [
          [`floor, ${sizeLabel(Number(n))} in git`, fmtMs(g.floor.median), "", "1.00x"],
          [`  plan next, first run (no parse cache)`, fmtMs(g.next_first.median), "", ratio(g.next_first.median / g.floor.median)],
          [`  plan next, parse cache in place`, fmtMs(g.next_cached.median), "", ratio(g.next_cached_over_floor)],
          [`  plan status, first run (no parse cache)`, fmtMs(g.status_first.median), "", ratio(g.status_first.median / g.floor.median)],
          [`  plan status, parse cache in place`, fmtMs(g.status_cached.median), "", ratio(g.status_cached_over_floor)],
        ]),
      ],
    ),
    "",
    targets.length === 0
      ? "(no target applies to the sizes measured)"
      : table(
          ["target", "measured", "limit", "result"],
          targets.map((t) => [
            t.target,
            t.unit === "x" ? ratio(t.value) : t.unit === "MB" ? fmtMb(t.value) : fmtMs(t.value),
            t.unit === "x" ? `<= ${t.limit}x` : `<= ${t.limit} ${t.unit}`,
            t.pass ? "PASS" : "MISS",
          ]),
        ),
    "",
    `node ${envAtStart.node}, ${envAtStart.cpus} CPUs (${envAtStart.cpu_model}); load average ${envAtStart.load_average.join(" ")} at start, ${report.load_average_at_end.join(" ")} at end`,
    `report: ${reportPath}   (section took ${report.total_seconds} s)`,
  ];
  return { name, report, text: lines.join("\n"), ok: targets.every((t) => t.pass) };
}

/**
 * Cold starts, side by side in one run: `node -e 0` against `cockpit --version` and `plan next` on
 * the demo (a git copy with its history), and, on a git copy of each fixture, `plan next` and
 * `plan status` with no parse cache (removed before each run) and with it in place, against the floor.
 */
function coldStarts(options, sizes, fixtures, floor, coldRunsFor) {
  const demo = join(BENCH_TMP, "cold-demo");
  if (!existsSync(join(demo, ".git"))) execFileSync(process.execPath, [join(ROOT, "scripts/demo-history.mjs"), demo], { stdio: "ignore" });
  const runs = Math.max(9, options.runs ?? 0);
  const rounds = (commands, n) => {
    const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    const kinds = Object.keys(commands);
    // One untimed round: it warms the page cache and V8's code cache of the bundle.
    for (const k of kinds) {
      commands[k].before?.();
      runProcess(process.execPath, commands[k].args);
    }
    for (let r = 0; r < n; r++) {
      for (let j = 0; j < kinds.length; j++) {
        const k = kinds[(r + j) % kinds.length];
        commands[k].before?.();
        samples[k].push(runProcess(process.execPath, commands[k].args).ms);
      }
    }
    return Object.fromEntries(kinds.map((k) => [k, summary(samples[k])]));
  };
  const small = rounds(
    {
      node: { args: ["-e", "0"] },
      version: { args: [COCKPIT, "--version"] },
      demo_next: { args: [COCKPIT, "plan", "next", "--json", "--repo", demo] },
    },
    runs,
  );
  const git = {};
  for (const n of sizes) {
    const copy = `${fixtures[n].dir}-git`;
    if (!existsSync(join(copy, ".git"))) {
      rmSync(copy, { recursive: true, force: true });
      cpSync(fixtures[n].dir, copy, { recursive: true });
      const g = (...args) => execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@cockpit.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: copy, stdio: "ignore" });
      g("init", "-q", "-b", "main");
      g("add", "-A");
      g("commit", "-q", "-m", "plan");
    }
    const noCache = () => rmSync(join(copy, ".git", "cockpit"), { recursive: true, force: true });
    const m = rounds(
      {
        floor: { args: [floor, copy] },
        next_first: { args: [COCKPIT, "plan", "next", "--json", "--repo", copy], before: noCache },
        next_cached: { args: [COCKPIT, "plan", "next", "--json", "--repo", copy] },
        status_first: { args: [COCKPIT, "plan", "status", "--json", "--repo", copy], before: noCache },
        status_cached: { args: [COCKPIT, "plan", "status", "--json", "--repo", copy] },
      },
      coldRunsFor(n),
    );
    git[n] = { ...m, next_cached_over_floor: round(m.next_cached.median / m.floor.median, 3), status_cached_over_floor: round(m.status_cached.median / m.floor.median, 3) };
    log(`cold ${sizeLabel(n)} in git: next ${fmtMs(m.next_first.median)} first, ${fmtMs(m.next_cached.median)} cached; status ${fmtMs(m.status_first.median)} first, ${fmtMs(m.status_cached.median)} cached; floor ${fmtMs(m.floor.median)}`);
  }
  return {
    ...small,
    version_over_node: round(small.version.median / small.node.median, 3),
    demo_next_over_node: round(small.demo_next.median / small.node.median, 3),
    git,
  };
}
