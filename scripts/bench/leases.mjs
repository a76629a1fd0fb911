// Claims per second with 8 writer processes: over 2 clones coordinated by a shared PostgreSQL
// (leases), against the file lock, which is safe on one clone only (run over 2 clones, it hands
// the same issues out twice, and that count is printed too). The server is a throwaway cluster
// from Debian's postgresql package, as in the tests.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, benchClones, bundleFile, environment, fmtMs, median, raceProcesses, round, table, writeReport } from "./lib.mjs";

export const name = "leases";
export const description = "claims per second, 8 processes: 2 clones on PostgreSQL leases against the file lock";

const ISSUES = 400;
const WRITERS = 8;
const PER_WRITER = 10;

const WRITER = `
const lib = require(process.argv[2]);
const repo = process.argv[3];
const count = Number(process.argv[4]);
const cache = new lib.RecordCache();
lib.loadRecords(repo, cache);
let plan;
const actor = "writer-" + process.pid;
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  const times = [], issues = [];
  let refused = 0;
  for (let k = 0; k < count; k++) {
    const s = process.hrtime.bigint();
    const hooks = lib.leaseWriteOptions(repo, () => (plan ??= lib.loadPlan(repo, cache)), undefined, { actor, kind: "agent" }, {});
    try { issues.push((await lib.claim(repo, undefined, { by: actor, cache, ...hooks })).issue); } catch (e) { refused++; }
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  await lib.closeDatabases();
  process.stdout.write(JSON.stringify({ issues, refused, times }) + "\\n");
});
`;

/** WRITERS processes spread over the repos, released at once; the wall time of all their claims. */
async function race(bundle, repos, env) {
  const { out, wall } = await raceProcesses("leases-writer", WRITER, WRITERS, (w) => [bundle, repos[w % repos.length], String(PER_WRITER)], env);
  const issues = out.flatMap((r) => r.issues);
  return {
    claims: issues.length,
    distinct: new Set(issues).size,
    refused: out.reduce((n, r) => n + r.refused, 0),
    wall_ms: round(wall),
    per_second: round((1000 * issues.length) / wall),
    median_claim_ms: round(median(out.flatMap((r) => r.times))),
  };
}

export async function run() {
  const env = environment();
  const bundle = await bundleFile("scripts/bench/leases-entry.ts", "leases-lib", ["pg", "esbuild"]);
  const lib = (await import("node:module")).createRequire(bundle)(bundle);

  const oneClone = benchClones("leases-file-one", ISSUES, 1);
  const fileOne = await race(bundle, oneClone.clones, { COCKPIT_DATABASE_URL: "" });
  const twoPlain = benchClones("leases-file-two", ISSUES, 2);
  const fileTwo = await race(bundle, twoPlain.clones, { COCKPIT_DATABASE_URL: "" });

  const server = await lib.startPostgres();
  let pgTwo;
  try {
    server.createDatabase("bench");
    const url = server.urlFor("bench");
    const twoDb = benchClones("leases-pg-two", ISSUES, 2);
    // The first use migrates the database: done before the race so that it is not timed.
    spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "plan", "next", "--repo", twoDb.clones[0]], { env: { ...process.env, COCKPIT_DATABASE_URL: url }, stdio: "ignore" });
    pgTwo = await race(bundle, twoDb.clones, { COCKPIT_DATABASE_URL: url });
    pgTwo.lease_rows = Number(server.sql("SELECT count(*) FROM cockpit_sessions WHERE ended IS NULL", "bench"));
    rmSync(twoDb.base, { recursive: true, force: true });
  } finally {
    await server.stop();
  }
  for (const dir of [oneClone.base, twoPlain.base]) rmSync(dir, { recursive: true, force: true });
  rmSync(bundle, { force: true });

  const report = {
    section: name,
    generated_at: new Date().toISOString(),
    environment: env,
    plan_issues: ISSUES,
    writers: WRITERS,
    attempts: WRITERS * PER_WRITER,
    file_lock_one_clone: fileOne,
    file_lock_two_clones: fileTwo,
    postgres_two_clones: pgTwo,
  };
  writeReport(`bench-${name}`, report);
  const row = (label, r) => [label, `${r.claims}/${WRITERS * PER_WRITER}`, String(r.distinct), fmtMs(r.median_claim_ms), String(r.per_second)];
  const text = [
    `Claims with ${WRITERS} writer processes on a ${ISSUES}-issue plan (${env.cpus} cores, load ${env.load_average.join(" ")})`,
    table(
      ["", "claims", "distinct", "median", "per second"],
      [
        row("file lock + SQLite sessions, 1 clone", fileOne),
        row("PostgreSQL leases, 2 clones", pgTwo),
        row("file lock, 2 clones (unsafe: a store each)", fileTwo),
      ],
    ),
    `PostgreSQL check: ${pgTwo.claims} claims, ${pgTwo.distinct} distinct issues, ${pgTwo.lease_rows} live sessions; the file lock over 2 clones handed out ${fileTwo.claims - fileTwo.distinct} issues twice`,
  ].join("\n");
  return { name, text, report, ok: pgTwo.claims === pgTwo.distinct && pgTwo.lease_rows === pgTwo.claims && fileOne.claims === fileOne.distinct };
}
