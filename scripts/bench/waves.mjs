// Benchmark section "waves": how long the browser takes to draw the waves graph. Plans of 100,
// 1,000 and 3,000 issues (milestones of 100, every dependency on an earlier wave: the generator of
// tests/support/plan-fixture.ts) are each served by the production server (`next start`), and headless
// Chromium (Debian's /usr/bin/chromium, driven by playwright-core) loads /waves: the figure is the
// time from the start of the navigation until every node is in the page (`.react-flow__node`
// count = the issue count, none hidden) for 100 and 1,000 issues, and until the collapsed graph
// (one node per milestone) is for 3,000, where the page starts collapsed. Median of 3 loads each,
// after one untimed load (the scripts cached, the server warm). Target: 1,000 issues in at most 2 s.
//
//   node scripts/bench/waves.mjs [--sizes 100,1000,3000] [--runs 3] [--no-build]
//
// Part of `npm run bench` (scripts/bench.mjs) as the section `waves`; writes reports/bench-waves.json.

import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_TMP, ROOT, environment, fmtMs, loadPlanFixtures, requireFromRoot, summary, table, writeReport } from "./lib.mjs";

export const name = "waves";
export const description = "the /waves graph in headless Chromium: navigation → every node drawn, for 100, 1k and 3k (collapsed) issues";

export const DEFAULT_SIZES = [100, 1000, 3000];
/** Above this many issues the page starts collapsed by milestone (COLLAPSE_ABOVE in components/WavesGraph.tsx). */
const COLLAPSE_ABOVE = 1000;
export const TARGETS = { render_1k_ms: 2000 };

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const log = (text) => process.stderr.write(`[bench waves] ${text}\n`);

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitForServer(port, child) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it answered`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/plan/status`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not answer within 90 s");
}

function startServer(repo, port) {
  return spawn(process.execPath, [join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, COCKPIT_REPO: repo, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

// Runs in the page before any of its scripts: records performance.now() (ms since the navigation
// started) on the first animation frame where the graph holds `expected` nodes, none hidden.
function installProbe({ selector, expected }) {
  const tick = () => {
    const nodes = document.querySelectorAll(selector);
    if (nodes.length === expected && !document.querySelector(`${selector}[style*="visibility: hidden"]`)) {
      window.__wavesDrawn = performance.now();
      return;
    }
    window.__wavesSeen = nodes.length;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** One timed load of /waves: ms from the navigation's start until the graph is drawn. */
async function timeLoad(context, url, expected) {
  const page = await context.newPage();
  try {
    await page.addInitScript(installProbe, { selector: ".react-flow__node", expected });
    const t0 = process.hrtime.bigint();
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => window.__wavesDrawn !== undefined, undefined, { timeout: 120_000, polling: 50 }).catch(async (error) => {
      const seen = await page.evaluate(() => window.__wavesSeen).catch(() => "?");
      throw new Error(`${url}: the graph never showed ${expected} nodes (last seen ${seen}): ${error.message}`);
    });
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const inPageMs = await page.evaluate(() => window.__wavesDrawn);
    const count = Number(await page.getByTestId("waves-graph").getAttribute("data-node-count"));
    if (count !== expected) throw new Error(`${url}: data-node-count is ${count}, not ${expected}`);
    return { ms: inPageMs, wallMs };
  } finally {
    await page.close();
  }
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes("=") ? argv[i].split("=", 2) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--sizes") options.sizes = value().split(",").map((s) => Number(s.replace(/k$/i, "000")));
    else if (flag === "--runs") options.runs = Number(value());
    else if (flag === "--no-build") options.build = false;
    else throw new Error(`unknown option '${argv[i]}' (--sizes N,…, --runs N, --no-build)`);
  }
  return options;
}

/**
 * The section: figures for every size, as a table (`text`) and a report (reports/bench-waves.json);
 * `ok` when 1,000 issues draw within the target. `options.waveSizes` (or `sizes`, when this runs
 * alone) and `runs` override the defaults; `build: false` skips making sure the build is current.
 */
export async function run(options = {}) {
  const sizes = options.waveSizes ?? DEFAULT_SIZES;
  const runs = Math.max(1, options.runs && options.runs < 10 ? options.runs : 3);
  const env = environment();
  if (env.load_average[0] > env.cpus) log(`warning: load average ${env.load_average[0]} on ${env.cpus} CPUs; other work competes with the figures`);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install chromium)`);

  if (options.build !== false) {
    const build = spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "serve", "--build-only"], { stdio: "inherit", cwd: ROOT });
    if (build.status !== 0) throw new Error("the web app did not build");
  }

  const { ISSUES_PER_MILESTONE, ensurePlanFixture } = await loadPlanFixtures();
  const { chromium } = requireFromRoot("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results = [];
  try {
    for (const n of sizes) {
      const fixture = ensurePlanFixture(n);
      // A copy per size: the server may be pointed at it while the next fixture is generated.
      const repo = join(BENCH_TMP, `waves-${n}-${process.pid}`);
      rmSync(repo, { recursive: true, force: true });
      cpSync(fixture.dir, repo, { recursive: true });
      const collapsed = n > COLLAPSE_ABOVE;
      const expected = collapsed ? Math.ceil(n / ISSUES_PER_MILESTONE) : n;
      const port = await freePort();
      const server = startServer(repo, port);
      try {
        await waitForServer(port, server);
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const url = `http://127.0.0.1:${port}/waves`;
        await timeLoad(context, url, expected); // untimed: scripts cached, server and JIT warm
        const samples = [];
        for (let k = 0; k < runs; k++) samples.push(await timeLoad(context, url, expected));
        await context.close();
        const ms = summary(samples.map((s) => s.ms));
        const wall = summary(samples.map((s) => s.wallMs));
        results.push({ issues: n, milestones: fixture.milestones, collapsed, nodes: expected, ms, wall_ms: wall });
        log(`${n} issues: ${expected} nodes drawn in ${fmtMs(ms.median)} (median of ${runs})`);
      } finally {
        await stopServer(server);
        rmSync(repo, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }

  const at1k = results.find((r) => r.issues === 1000);
  const ok = !at1k || at1k.ms.median <= TARGETS.render_1k_ms;
  const report = { section: name, generated_at: new Date().toISOString(), environment: env, runs, targets: TARGETS, results };
  writeReport(`bench-${name}`, report);
  const rows = results.map((r) => [
    r.issues.toLocaleString("en"),
    r.collapsed ? `${r.nodes} milestones (collapsed)` : `${r.nodes} issues`,
    fmtMs(r.ms.median),
    `${fmtMs(r.ms.min)} – ${fmtMs(r.ms.max)}`,
    fmtMs(r.wall_ms.median),
  ]);
  const text = [
    `Waves graph in headless Chromium, navigation → every node drawn (median of ${runs}; ${env.cpus} cores, load ${env.load_average.join(" ")})`,
    table(["issues", "nodes drawn", "median", "range", "wall (goto → seen)"], rows),
    at1k
      ? `target: 1,000 issues drawn in at most ${fmtMs(TARGETS.render_1k_ms)}: ${ok ? "met" : "MISSED"} (${fmtMs(at1k.ms.median)})`
      : "target: 1,000 issues in at most 2 s (not measured: 1000 is not among the sizes)",
  ].join("\n");
  return { name, text, report, ok };
}

export default run;

// Run alone: node scripts/bench/waves.mjs [--sizes …] [--runs N] [--no-build]
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const options = parseArgs(process.argv.slice(2));
  if (options.sizes) options.waveSizes = options.sizes;
  const result = await run(options);
  process.stdout.write(`\n${result.text}\n`);
  if (!result.ok) process.exitCode = 1;
}
