// Lighthouse's mobile performance score of every page, on the demo plan served by the production
// build (`cockpit serve`), in Debian's chromium. Lighthouse's defaults: a mid-range phone (CPU
// slowed 4×, a slow 4G network, both simulated), the performance category alone. Each page is
// measured `--runs` times (3 by default) and the median run is reported, with its total blocking
// time, largest contentful paint, first contentful paint and speed index. Target: 90 on every page.
// The score depends on the machine (its CPU times are multiplied, not replaced): measure on an idle
// machine, and read the load average printed with the figures.
//
//   node scripts/bench.mjs --only lighthouse [--runs N]      (or: node scripts/bench/lighthouse.mjs)
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_TMP, ROOT, environment, fmtMs, freePort, median, table, waitForServer, writeReport } from "./lib.mjs";
import { writeDemoHistory } from "../demo-history.mjs";

export const name = "lighthouse";
export const description = "Lighthouse mobile performance of every page on the demo plan (median of --runs, 3 by default): score, TBT, LCP, FCP, SI";

const TARGET = 90;
const DEFAULT_RUNS = 3;
const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";

/** Every page a person opens, with the demo's own ids for the pages of one record or person. */
async function pagesOf(base) {
  const plan = await (await fetch(`${base}/api/v1/plan`)).json();
  const next = await (await fetch(`${base}/api/v1/plan/next`)).json();
  // The first person /people links to.
  const person = /href="\/people\/([^"?#]+)"/.exec(await (await fetch(`${base}/people`)).text())?.[1];
  const milestone = plan.project.active_milestone || plan.milestones[0]?.id;
  const issue = next.issue?.id ?? plan.issues[0]?.id;
  return [
    "/",
    "/roadmap",
    "/waves",
    "/standup",
    "/findings",
    "/issues",
    "/board",
    "/people",
    ...(person ? [`/people/${person}`] : []),
    "/activity",
    "/inbox",
    "/agents",
    "/plans",
    ...(milestone ? [`/milestones/${encodeURIComponent(milestone)}`] : []),
    ...(issue ? [`/issues/${encodeURIComponent(issue)}`] : []),
  ];
}

const metric = (lhr, id) => lhr.audits[id]?.numericValue;

export async function run(options = {}) {
  const runs = options.runs ?? DEFAULT_RUNS;
  if (!existsSync(CHROMIUM)) {
    const text = `== lighthouse ==\nskipped: no chromium at ${CHROMIUM} (set CHROME_PATH)`;
    return { name, text, report: { skipped: true }, ok: true };
  }
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");

  const dir = join(BENCH_TMP, `lighthouse-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const repo = join(dir, "repo");
  writeDemoHistory(repo);
  if (!existsSync(join(ROOT, "dist", "cli.js"))) spawnSync("npm", ["run", "--silent", "build:cli"], { cwd: ROOT, stdio: "inherit" });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // `cockpit serve` builds the app first when the build is missing or stale.
  const server = spawn(process.execPath, [join(ROOT, "bin", "cockpit"), "serve", "--repo", repo, "--port", String(port), "--host", "127.0.0.1"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"] });
  const rows = [];
  const report = { environment: environment(), target: TARGET, runs, pages: [] };
  try {
    await waitForServer(`${base}/api/v1/plan`, server);
    const pages = await pagesOf(base);
    // One visit of each page first: the server's first answer of a page compiles nothing, but it
    // reads the plan and fills its caches, which is not what a person opening the page waits for.
    for (const path of pages) await fetch(base + path).then((r) => r.arrayBuffer());
    for (const path of pages) {
      const results = [];
      for (let k = 0; k < runs; k++) {
        const { lhr } = await lighthouse(base + path, { port: chrome.port, onlyCategories: ["performance"], logLevel: "error", output: "json" });
        results.push({
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          tbt: metric(lhr, "total-blocking-time"),
          lcp: metric(lhr, "largest-contentful-paint"),
          fcp: metric(lhr, "first-contentful-paint"),
          si: metric(lhr, "speed-index"),
          cls: metric(lhr, "cumulative-layout-shift"),
        });
      }
      const scores = results.map((r) => r.score);
      const mid = median(scores);
      const chosen = results.find((r) => r.score === mid) ?? results[0];
      report.pages.push({ path, median: mid, scores, ...chosen });
      rows.push([path, String(mid), scores.join(" "), fmtMs(chosen.tbt), fmtMs(chosen.lcp), fmtMs(chosen.fcp), fmtMs(chosen.si), chosen.cls?.toFixed(3) ?? "-", mid >= TARGET ? "yes" : "no"]);
    }
  } finally {
    await chrome.kill();
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)));
    rmSync(dir, { recursive: true, force: true });
  }
  const ok = report.pages.every((p) => p.median >= TARGET);
  writeReport("bench-lighthouse", report);
  const text = [
    `== lighthouse: mobile performance, median of ${runs} (target ≥ ${TARGET} on every page; load average ${report.environment.load_average.join(" ")}) ==`,
    table(["page", "score", "runs", "TBT", "LCP", "FCP", "SI", "CLS", `≥ ${TARGET}`], rows),
  ].join("\n");
  return { name, text, report, ok };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runsArg = process.argv.indexOf("--runs");
  const result = await run(runsArg > 0 ? { runs: Number(process.argv[runsArg + 1]) } : {});
  process.stdout.write(`${result.text}\n`);
}
