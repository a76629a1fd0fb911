// Transitions per second on a generated 10k-issue plan: one writer that keeps its parsed files (as
// the server does), eight writer processes racing `claim` through the one plan lock, and the cost of
// one `cockpit plan start` process (what an agent pays from the command line).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP, ROOT, environment, fmtMs, loadBundled, loadPlanFixtures, median, round, table, writeReport } from "./lib.mjs";

export const name = "transitions";
export const description = "transitions per second on a 10k-issue plan, alone and with 8 concurrent writers";

const SIZE = 10_000;
const ALONE = 20;
const WRITERS = 8;
const PER_WRITER = 5;

/** A fresh, writable copy of the fixture, committed to git so the ledger records a real head. */
function freshCopy(source, label) {
  const dir = join(BENCH_TMP, `transitions-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true });
  const git = (...args) => spawnSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@cockpit.invalid", "commit", "-qm", "fixture");
  return dir;
}

function readyIssues(plan, n) {
  return plan.issues.filter((i) => i.status === "READY").slice(0, n).map((i) => i.id);
}

const WRITER = `
const { claim, RecordCache, loadRecords } = require(process.argv[2]);
const repo = process.argv[3];
const count = Number(process.argv[4]);
const cache = new RecordCache();
loadRecords(repo, cache);
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  const times = [];
  let ok = 0, refused = 0;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < count; k++) {
    const s = process.hrtime.bigint();
    try { await claim(repo, undefined, { cache }); ok++; } catch (e) { refused++; }
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  process.stdout.write(JSON.stringify({ ok, refused, times, total: Number(process.hrtime.bigint() - t0) / 1e6 }) + "\\n");
});
`;

async function concurrentWriters(bundlePath, repo) {
  const script = join(BENCH_TMP, `writer-${process.pid}.cjs`);
  writeFileSync(script, WRITER);
  const children = Array.from({ length: WRITERS }, () =>
    spawn(process.execPath, [script, bundlePath, repo, String(PER_WRITER)], { stdio: ["pipe", "pipe", "inherit"] }),
  );
  const lines = children.map((c) => {
    let buffer = "";
    const waiters = [];
    c.stdout.on("data", (d) => {
      buffer += d;
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        waiters.shift()?.(line);
      }
    });
    return () => new Promise((r) => waiters.push(r));
  });
  const nextLine = lines.map((f) => f());
  await Promise.all(nextLine); // every writer has its files parsed
  const results = lines.map((f) => f());
  const t0 = process.hrtime.bigint();
  for (const c of children) c.stdin.write("go\n");
  const out = (await Promise.all(results)).map((l) => JSON.parse(l));
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  rmSync(script, { force: true });
  return { out, wall };
}

export async function run() {
  const env = environment();
  const { ensurePlanFixture } = await loadPlanFixtures();
  const fixture = ensurePlanFixture(SIZE);
  const lib = await loadBundled("lib/plan/index.ts", "transitions");

  // One writer keeping its parsed files: what the server does for every POST.
  const aloneRepo = freshCopy(fixture.dir, "alone");
  const cache = new lib.RecordCache();
  lib.loadRecords(aloneRepo, cache);
  const ids = readyIssues(lib.loadPlan(aloneRepo, cache), ALONE);
  const alone = [];
  for (const id of ids) {
    const t = process.hrtime.bigint();
    await lib.transition(aloneRepo, id, "start", { cache });
    alone.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const aloneLedger = readFileSync(join(aloneRepo, ".ai/local/state/ledger.jsonl"), "utf8").trim().split("\n").length;

  // Eight writer processes racing `claim` on one repository.
  const raceRepo = freshCopy(fixture.dir, "race");
  const bundlePath = join(BENCH_TMP, `transitions-lib-${process.pid}.cjs`);
  const { build } = await import("esbuild");
  await build({ entryPoints: [join(ROOT, "lib/plan/index.ts")], outfile: bundlePath, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "warning" });
  const race = await concurrentWriters(bundlePath, raceRepo);
  const started = race.out.reduce((n, r) => n + r.ok, 0);
  const raceLedger = readFileSync(join(raceRepo, ".ai/local/state/ledger.jsonl"), "utf8").trim().split("\n");
  const distinct = new Set(raceLedger.map((l) => JSON.parse(l).issue)).size;

  // One `cockpit plan start` process, cold.
  const cliRepo = freshCopy(fixture.dir, "cli");
  const cliIds = readyIssues(lib.loadPlan(cliRepo), 3);
  const cli = cliIds.map((id) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "plan", "start", id, "--repo", cliRepo, "--json"], { stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error(`cockpit plan start ${id} exited ${r.status}`);
    return Number(process.hrtime.bigint() - t) / 1e6;
  });

  for (const dir of [aloneRepo, raceRepo, cliRepo]) rmSync(dir, { recursive: true, force: true });
  rmSync(bundlePath, { force: true });

  const aloneTotal = alone.reduce((a, b) => a + b, 0);
  const report = {
    section: name,
    generated_at: new Date().toISOString(),
    environment: env,
    plan_issues: SIZE,
    alone: { transitions: alone.length, median_ms: round(median(alone)), per_second: round((1000 * alone.length) / aloneTotal), ledger_lines: aloneLedger },
    concurrent: {
      writers: WRITERS,
      attempts: WRITERS * PER_WRITER,
      started,
      distinct_issues: distinct,
      ledger_lines: raceLedger.length,
      wall_ms: round(race.wall),
      per_second: round((1000 * started) / race.wall),
      median_claim_ms: round(median(race.out.flatMap((r) => r.times))),
    },
    cli_cold: { runs: cli.length, median_ms: round(median(cli)) },
  };
  writeReport(`bench-${name}`, report);
  const text = [
    `Transitions on a ${SIZE / 1000}k-issue plan (${env.cpus} cores, load ${env.load_average.join(" ")})`,
    table(
      ["", "transitions", "median", "per second"],
      [
        ["one writer, parsed files kept (server)", String(alone.length), fmtMs(report.alone.median_ms), String(report.alone.per_second)],
        [`${WRITERS} writer processes racing claim`, `${started}/${WRITERS * PER_WRITER}`, fmtMs(report.concurrent.median_claim_ms), String(report.concurrent.per_second)],
        ["cockpit plan start, one cold process", String(cli.length), fmtMs(report.cli_cold.median_ms), String(round(1000 / report.cli_cold.median_ms))],
      ],
    ),
    `race check: ${started} starts, ${distinct} distinct issues, ${raceLedger.length} ledger lines`,
  ].join("\n");
  return { name, text, report, ok: started === distinct && raceLedger.length === started };
}
