// Agents the Cockpit knows (docs/agents.md): claims per second with 8 agent processes on each
// store (the clone's SQLite file; a shared PostgreSQL over 2 clones), a heartbeat's p50 over HTTP
// in a running `cockpit serve`, and the time from an agent's death to its issue being claimed
// again by another (target: at most the lease's time to live plus one second).
import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, benchClones, bundleFile, environment, fmtMs, freePort, median, raceProcesses, round, table, waitForServer, writeReport } from "./lib.mjs";

export const name = "agents";
export const description = "sessions: claims/s with 8 agents on SQLite and PostgreSQL, heartbeat p50 in a server, death to reclaim";

const ISSUES = 400;
const AGENTS = 8;
const PER_AGENT = 10;
const HEARTBEATS = 300;
/** Heartbeats sent before the measured ones, so the server is warm for the route. */
const WARM_HEARTBEATS = 100;
const TTL_S = 2;

const AGENT = `
const lib = require(process.argv[2]);
const repo = process.argv[3];
const count = Number(process.argv[4]);
const actor = process.argv[5];
const cache = new lib.RecordCache();
lib.loadRecords(repo, cache);
let plan;
const planOf = () => (plan ??= lib.loadPlan(repo, cache));
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  const times = [], issues = [];
  let refused = 0;
  for (let k = 0; k < count; k++) {
    const s = process.hrtime.bigint();
    const hooks = lib.leaseWriteOptions(repo, planOf, undefined, { actor, kind: "agent" }, {});
    try { issues.push((await lib.claim(repo, undefined, { by: actor, cache, ...hooks })).issue); } catch (e) { refused++; }
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  await lib.closeDatabases();
  process.stdout.write(JSON.stringify({ issues, refused, times }) + "\\n");
});
`;

async function race(bundle, repos, env) {
  const { out, wall } = await raceProcesses("agents-claimer", AGENT, AGENTS, (w) => [bundle, repos[w % repos.length], String(PER_AGENT), `agent-${w}`], env);
  const issues = out.flatMap((r) => r.issues);
  return { claims: issues.length, distinct: new Set(issues).size, refused: out.reduce((n, r) => n + r.refused, 0), wall_ms: round(wall), per_second: round((1000 * issues.length) / wall), median_claim_ms: round(median(out.flatMap((r) => r.times))) };
}

function post(port, path, body, actor) {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const t = process.hrtime.bigint();
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(text), "x-cockpit-actor": actor }, agent: keepAlive }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (data += d));
      res.on("end", () => resolve({ status: res.statusCode, body: data, ms: Number(process.hrtime.bigint() - t) / 1e6 }));
    });
    req.on("error", reject);
    req.end(text);
  });
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** A heartbeat's latency over HTTP in a warm server, and the time from an agent's death to the next claim of its issue. */
async function served(repo) {
  const build = spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "serve", "--build-only"], { stdio: "inherit", cwd: ROOT });
  if (build.status !== 0) throw new Error("the web app did not build");
  const port = await freePort();
  const server = spawn(process.execPath, [join(ROOT, "bin/cockpit"), "serve", "--repo", repo, "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, COCKPIT_LEASE_TTL_S: String(TTL_S), COCKPIT_DATABASE_URL: "", COCKPIT_TOKEN: "", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "ignore"],
  });
  try {
    await waitForServer(`http://127.0.0.1:${port}/api/v1/openapi.json`, server, 90);
    const claimed = JSON.parse((await post(port, "/api/v1/plan/claim", {}, "beat-1")).body);
    // Warm: the route's first answers load and compile its code; those are not what is measured.
    for (let i = 0; i < WARM_HEARTBEATS; i++) await post(port, "/api/v1/plan/heartbeat", { issue: claimed.issue, note: `warm ${i}` }, "beat-1");
    const times = [];
    for (let i = 0; i < HEARTBEATS; i++) {
      const r = await post(port, "/api/v1/plan/heartbeat", { issue: claimed.issue, note: `step ${i}` }, "beat-1");
      if (r.status !== 200) throw new Error(`a heartbeat answered ${r.status}: ${r.body}`);
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);
    // An agent claims and dies (never heard from again); another asks for work every 100 ms.
    const dead = JSON.parse((await post(port, "/api/v1/plan/claim", {}, "doomed")).body);
    const died = Date.now();
    let reclaimedAfter;
    for (let i = 0; i < 200 && reclaimedAfter === undefined; i++) {
      const r = JSON.parse((await post(port, "/api/v1/plan/claim", {}, `survivor-${i}`)).body);
      if (r.issue === dead.issue) reclaimedAfter = Date.now() - died;
      else await new Promise((res) => setTimeout(res, 100));
    }
    return { heartbeat_p50_ms: round(times[Math.floor(times.length / 2)]), heartbeat_p99_ms: round(times[Math.floor(times.length * 0.99)]), death_to_reclaim_ms: reclaimedAfter ?? null };
  } finally {
    server.kill("SIGTERM");
    keepAlive.destroy();
  }
}

export async function run() {
  const env = environment();
  const bundle = await bundleFile("scripts/bench/leases-entry.ts", "agents-lib", ["pg", "esbuild", "better-sqlite3"]);
  const lib = (await import("node:module")).createRequire(bundle)(bundle);

  const embedded = benchClones("agents-sqlite", ISSUES, 1);
  const sqlite = await race(bundle, embedded.clones, { COCKPIT_DATABASE_URL: "" });
  const pgServer = await lib.startPostgres();
  let postgres;
  try {
    pgServer.createDatabase("bench");
    const url = pgServer.urlFor("bench");
    const twoDb = benchClones("agents-pg", ISSUES, 2);
    // The first use migrates the database: done before the race so that it is not timed.
    spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "plan", "next", "--repo", twoDb.clones[0]], { env: { ...process.env, COCKPIT_DATABASE_URL: url }, stdio: "ignore" });
    postgres = await race(bundle, twoDb.clones, { COCKPIT_DATABASE_URL: url });
    postgres.live_sessions = Number(pgServer.sql("SELECT count(*) FROM cockpit_sessions WHERE ended IS NULL", "bench"));
    rmSync(twoDb.base, { recursive: true, force: true });
  } finally {
    await pgServer.stop();
  }
  const serving = benchClones("agents-served", 50, 1);
  const server = await served(serving.clones[0]);
  for (const dir of [embedded.base, serving.base]) rmSync(dir, { recursive: true, force: true });
  rmSync(bundle, { force: true });

  const report = { section: name, generated_at: new Date().toISOString(), environment: env, plan_issues: ISSUES, agents: AGENTS, attempts: AGENTS * PER_AGENT, sqlite_one_clone: sqlite, postgres_two_clones: postgres, lease_ttl_s: TTL_S, ...server };
  writeReport(`bench-${name}`, report);
  const row = (label, r) => [label, `${r.claims}/${AGENTS * PER_AGENT}`, String(r.distinct), fmtMs(r.median_claim_ms), String(r.per_second)];
  const reclaimOk = server.death_to_reclaim_ms !== null && server.death_to_reclaim_ms <= TTL_S * 1000 + 1000;
  const text = [
    `Claims by ${AGENTS} agent processes on a ${ISSUES}-issue plan (${env.cpus} cores, load ${env.load_average.join(" ")})`,
    table(["", "claims", "distinct", "median", "per second"], [row("SQLite sessions, 1 clone", sqlite), row("PostgreSQL sessions, 2 clones", postgres)]),
    `heartbeat over HTTP in a warm server: p50 ${fmtMs(server.heartbeat_p50_ms)}, p99 ${fmtMs(server.heartbeat_p99_ms)} (target p50 ≤ 5 ms: ${server.heartbeat_p50_ms <= 5 ? "met" : "missed"})`,
    `an agent's death to its issue claimed again: ${server.death_to_reclaim_ms ?? "never"} ms with a ${TTL_S} s lease (target ≤ ${TTL_S * 1000 + 1000} ms: ${reclaimOk ? "met" : "missed"})`,
  ].join("\n");
  return { name, text, report, ok: sqlite.claims === sqlite.distinct && postgres.claims === postgres.distinct && postgres.live_sessions === postgres.claims && reclaimOk };
}
