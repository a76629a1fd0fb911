// The HTTP surface on a generated 10k-issue plan: p50, p99 and requests per second for
// GET /api/v1/plan/next and /status against the production server, warm, and again with one record
// rewritten before every request (each answer must show the change). Compared with one cold
// `cockpit plan next --json` process: the target is a warm p50 at most 1/20 of it.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { BENCH_TMP, ROOT, environment, fmtMs, freePort, loadPlanFixtures, median, round, table, writeReport } from "./lib.mjs";

export const name = "http";
export const description = "GET /next and /status on a 10k-issue plan: p50, p99, requests/s, warm and with a record touched";

const SIZE = 10_000;
const WARM_REQUESTS = 300;
const TOUCHED_REQUESTS = 40;
const CONCURRENCY = 8;


const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One GET; a kept-alive socket the server closed meanwhile (ECONNRESET) is retried once. */
async function get(port, path) {
  try {
    return await getOnce(port, path);
  } catch (error) {
    if (error.code !== "ECONNRESET") throw error;
    return getOnce(port, path);
  }
}

function getOnce(port, path) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, body, ms: Number(process.hrtime.bigint() - t) / 1e6 }));
    });
    req.on("error", reject);
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function load(port, path, count, concurrency) {
  const times = [];
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const r = await get(port, path);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${r.body.slice(0, 200)}`);
        times.push(r.ms);
      }
    }),
  );
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  return { p50: percentile(times, 50), p99: percentile(times, 99), rps: (1000 * times.length) / wall };
}

async function waitForServer(port, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error("the server exited before it answered");
    try {
      const r = await get(port, "/api/v1/plan/next");
      if (r.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not answer within 60 s");
}

export async function run() {
  const env = environment();
  const { ensurePlanFixture } = await loadPlanFixtures();
  const fixture = ensurePlanFixture(SIZE);
  const repo = join(BENCH_TMP, `http-${process.pid}`);
  rmSync(repo, { recursive: true, force: true });
  cpSync(fixture.dir, repo, { recursive: true });

  const build = spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "serve", "--build-only"], { stdio: "inherit", cwd: ROOT });
  if (build.status !== 0) throw new Error("the web app did not build");

  // One cold command-line answer, the yardstick.
  const cold = [];
  for (let k = 0; k < 3; k++) {
    const t = process.hrtime.bigint();
    spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "plan", "next", "--json", "--repo", repo], { stdio: "ignore" });
    cold.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const coldMs = median(cold);

  const port = await freePort();
  const server = spawn(process.execPath, [join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, COCKPIT_REPO: repo, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitForServer(port, server);
    for (let k = 0; k < 20; k++) await get(port, "/api/v1/plan/status"); // warm up the JIT and the parsed files

    const warm = {};
    for (const route of ["next", "status"]) {
      warm[route] = { c1: await load(port, `/api/v1/plan/${route}`, WARM_REQUESTS, 1), c8: await load(port, `/api/v1/plan/${route}`, WARM_REQUESTS, CONCURRENCY) };
    }

    // Rewrite the next issue's title before every request: each answer must carry the new title.
    const first = JSON.parse((await get(port, "/api/v1/plan/next")).body).issue;
    const file = join(repo, ".ai/repo/project/issues", `${first.id}.yaml`);
    const original = readFileSync(file, "utf8");
    const touched = {};
    for (const route of ["next", "status"]) {
      const times = [];
      for (let k = 0; k < TOUCHED_REQUESTS; k++) {
        const title = `bench touch ${route} ${k}`;
        writeFileSync(file, original.replace(/^title: .*$/m, `title: "${title}"`));
        const r = await get(port, `/api/v1/plan/${route}`);
        const body = JSON.parse(r.body);
        const shown = route === "next" ? body.issue?.title : body.next_ready?.title;
        if (shown !== title) throw new Error(`/${route} did not show the change: '${shown}' instead of '${title}'`);
        times.push(r.ms);
      }
      touched[route] = { p50: percentile(times, 50), p99: percentile(times, 99) };
    }
    writeFileSync(file, original);

    const report = {
      section: name,
      generated_at: new Date().toISOString(),
      environment: env,
      plan_issues: SIZE,
      cold_cli_next_ms: round(coldMs),
      warm: Object.fromEntries(Object.entries(warm).map(([k, v]) => [k, { c1: roundAll(v.c1), c8: roundAll(v.c8) }])),
      touched: Object.fromEntries(Object.entries(touched).map(([k, v]) => [k, roundAll(v)])),
      target: { warm_p50_at_most_ms: round(coldMs / 20) },
    };
    writeReport(`bench-${name}`, report);
    const rows = [];
    for (const route of ["next", "status"]) {
      rows.push([`GET /api/v1/plan/${route}, 1 client`, fmtMs(warm[route].c1.p50), fmtMs(warm[route].c1.p99), warm[route].c1.rps.toFixed(0)]);
      rows.push([`GET /api/v1/plan/${route}, ${CONCURRENCY} clients`, fmtMs(warm[route].c8.p50), fmtMs(warm[route].c8.p99), warm[route].c8.rps.toFixed(0)]);
      rows.push([`GET /api/v1/plan/${route}, record touched each time`, fmtMs(touched[route].p50), fmtMs(touched[route].p99), "-"]);
    }
    const ok = warm.next.c1.p50 <= coldMs / 20;
    const text = [
      `HTTP on a ${SIZE / 1000}k-issue plan (${env.cpus} cores, load ${env.load_average.join(" ")})`,
      table(["", "p50", "p99", "req/s"], rows),
      `cold \`cockpit plan next --json\`: ${fmtMs(coldMs)}; target warm p50 <= ${fmtMs(coldMs / 20)}: ${ok ? "met" : "MISSED"}`,
    ].join("\n");
    return { name, text, report, ok };
  } finally {
    server.kill("SIGTERM");
    agent.destroy();
    rmSync(repo, { recursive: true, force: true });
  }
}

function roundAll(o) {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v)]));
}
