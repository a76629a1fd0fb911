// Claims per second with 8 writer processes: over 2 clones coordinated by a shared PostgreSQL
// (leases), against the file lock, which is safe on one clone only (run over 2 clones, it hands
// the same issues out twice, and that count is printed too). The server is a throwaway cluster
// from Debian's postgresql package, as in the tests.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP, ROOT, environment, fmtMs, median, round, table, writeReport, bundleFile, lineReader } from "./lib.mjs";

export const name = "leases";
export const description = "claims per second, 8 processes: 2 clones on PostgreSQL leases against the file lock";

const ISSUES = 400;
const WRITERS = 8;
const PER_WRITER = 10;

function git(cwd, ...args) {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/** A bare origin with one milestone of ISSUES READY issues, and `n` clones of it. */
function clones(label, n) {
  const base = join(BENCH_TMP, `leases-${label}-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  const seed = join(base, "seed");
  const project = join(seed, ".ai/repo/project");
  mkdirSync(join(project, "milestones"), { recursive: true });
  mkdirSync(join(project, "issues"), { recursive: true });
  writeFileSync(join(project, "project.yaml"), "schema_version: 1\nname: Bench\nrepository: bench/leases\ndefault_branch: main\n");
  writeFileSync(
    join(project, "milestones/M1.yaml"),
    "id: M1\ntitle: Milestone\nslug: m1\norder: 1\npriority: p1\nproblem: p\noutcome: o\nacceptance_criteria: [done]\nvalidation: [check]\nevidence_required: []\ndepends_on: []\n",
  );
  for (let i = 1; i <= ISSUES; i++) {
    const id = `I${String(i).padStart(4, "0")}`;
    writeFileSync(
      join(project, `issues/${id}.yaml`),
      `id: ${id}\nmilestone: M1\ntitle: Issue ${id}\nslug: ${id.toLowerCase()}\npriority: p1\nprofile: implementation\nobjective: o\nscope: [src/${id}]\ndepends_on: []\nacceptance_criteria: [it works]\nvalidation: ["true"]\nevidence_required: [proof]\ncreated_at: 2026-10-01\n`,
    );
  }
  writeFileSync(join(seed, ".gitignore"), ".ai/local/\n");
  git(base, "init", "-q", "-b", "main", seed);
  git(seed, "add", "-A");
  git(seed, "-c", "user.name=bench", "-c", "user.email=bench@cockpit.invalid", "commit", "-qm", "plan");
  const out = [];
  for (let k = 0; k < n; k++) {
    const dir = join(base, `clone-${k}`);
    git(base, "clone", "-q", seed, dir);
    out.push(dir);
  }
  return { base, clones: out };
}

const WRITER = `
const lib = require(process.argv[2]);
const repo = process.argv[3];
const count = Number(process.argv[4]);
const cache = new lib.RecordCache();
lib.loadRecords(repo, cache);
let plan;
const hooks = lib.leaseWriteOptions(repo, () => (plan ??= lib.loadPlan(repo, cache)));
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  const times = [], issues = [];
  let refused = 0;
  for (let k = 0; k < count; k++) {
    const s = process.hrtime.bigint();
    try { issues.push((await lib.claim(repo, undefined, { cache, ...hooks })).issue); } catch (e) { refused++; }
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  await lib.closeDatabases();
  process.stdout.write(JSON.stringify({ issues, refused, times }) + "\\n");
});
`;

/** WRITERS processes spread over the repos, released at once; the wall time of all their claims. */
async function race(bundle, repos, env) {
  const script = join(BENCH_TMP, `leases-writer-${process.pid}.cjs`);
  writeFileSync(script, WRITER);
  const children = Array.from({ length: WRITERS }, (_, w) =>
    spawn(process.execPath, [script, bundle, repos[w % repos.length], String(PER_WRITER)], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...env } }),
  );
  const readers = children.map(lineReader);
  await Promise.all(readers.map((f) => f()));
  const results = readers.map((f) => f());
  const t0 = process.hrtime.bigint();
  for (const c of children) c.stdin.write("go\n");
  const out = (await Promise.all(results)).map((l) => JSON.parse(l));
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  rmSync(script, { force: true });
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

  const oneClone = clones("file-one", 1);
  const fileOne = await race(bundle, oneClone.clones, { COCKPIT_DATABASE_URL: "" });
  const twoPlain = clones("file-two", 2);
  const fileTwo = await race(bundle, twoPlain.clones, { COCKPIT_DATABASE_URL: "" });

  const server = await lib.startPostgres();
  let pgTwo;
  try {
    server.createDatabase("bench");
    const url = server.urlFor("bench");
    const twoDb = clones("pg-two", 2);
    // The first use migrates the database: done before the race so that it is not timed.
    spawnSync(process.execPath, [join(ROOT, "bin/cockpit"), "plan", "next", "--repo", twoDb.clones[0]], { env: { ...process.env, COCKPIT_DATABASE_URL: url }, stdio: "ignore" });
    pgTwo = await race(bundle, twoDb.clones, { COCKPIT_DATABASE_URL: url });
    pgTwo.lease_rows = Number(server.sql("SELECT count(*) FROM cockpit_leases", "bench"));
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
        row("file lock, 1 clone", fileOne),
        row("PostgreSQL leases, 2 clones", pgTwo),
        row("file lock, 2 clones (unsafe)", fileTwo),
      ],
    ),
    `PostgreSQL check: ${pgTwo.claims} claims, ${pgTwo.distinct} distinct issues, ${pgTwo.lease_rows} lease rows; the file lock over 2 clones handed out ${fileTwo.claims - fileTwo.distinct} issues twice`,
  ].join("\n");
  return { name, text, report, ok: pgTwo.claims === pgTwo.distinct && pgTwo.lease_rows === pgTwo.claims && fileOne.claims === fileOne.distinct };
}
