// Children claimed per second by 3 coordinator processes on one execution plan: on the SQLite
// store (one clone: the file is the clone's) against PostgreSQL (3 clones of one origin, one
// database). max_parallel is the number of children, so only the store's serialisation limits
// the rate. The server is a throwaway cluster from Debian's postgresql package, as in the tests.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP, environment, fmtMs, median, round, table, writeReport, bundleFile, lineReader } from "./lib.mjs";

export const name = "plans";
export const description = "children claimed per second, 3 coordinator processes: SQLite store against PostgreSQL";

const CHILDREN = 48; // max_parallel is at most 50
const COORDINATORS = 3;

function git(cwd, ...args) {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/** A bare-bones origin with one milestone of CHILDREN READY issues, and `n` clones of it. */
function clones(label, n) {
  const base = join(BENCH_TMP, `plans-${label}-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  const seed = join(base, "seed");
  const project = join(seed, ".ai/repo/project");
  mkdirSync(join(project, "milestones"), { recursive: true });
  mkdirSync(join(project, "issues"), { recursive: true });
  writeFileSync(join(project, "project.yaml"), "schema_version: 1\nname: Bench\nrepository: bench/plans\ndefault_branch: main\n");
  writeFileSync(
    join(project, "milestones/M1.yaml"),
    "id: M1\ntitle: Milestone\nslug: m1\norder: 1\npriority: p1\nproblem: p\noutcome: o\nacceptance_criteria: [done]\nvalidation: [check]\nevidence_required: []\ndepends_on: []\n",
  );
  for (let i = 1; i <= CHILDREN; i++) {
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

// A coordinator: claims until no child is left queued, timing each claim.
const COORDINATOR = `
const lib = require(process.argv[2]);
const [repo, root] = process.argv.slice(3);
process.stdout.write("ready\\n");
process.stdin.once("data", async () => {
  const times = [], claimed = [];
  for (;;) {
    const s = process.hrtime.bigint();
    const r = await lib.claimNext(repo, root);
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
    if (!r.claimed) break;
    claimed.push(r.claimed.plan_id);
  }
  lib.closeStores();
  await lib.closeDatabases();
  process.stdout.write(JSON.stringify({ claimed, times }) + "\\n");
});
`;

/** A plan made in the first repo, then COORDINATORS processes over the repos, released at once. */
async function race(lib, bundle, repos, env) {
  const saved = process.env.COCKPIT_DATABASE_URL;
  if (env.COCKPIT_DATABASE_URL) process.env.COCKPIT_DATABASE_URL = env.COCKPIT_DATABASE_URL;
  else delete process.env.COCKPIT_DATABASE_URL;
  const root = await lib.createExecutionPlan(repos[0], { milestone: "M1" }, { execution_mode: "parallel", max_parallel: CHILDREN });
  lib.closeStores();
  await lib.closeDatabases();
  if (saved === undefined) delete process.env.COCKPIT_DATABASE_URL;
  else process.env.COCKPIT_DATABASE_URL = saved;

  const script = join(BENCH_TMP, `plans-coordinator-${process.pid}.cjs`);
  writeFileSync(script, COORDINATOR);
  const children = Array.from({ length: COORDINATORS }, (_, w) =>
    spawn(process.execPath, [script, bundle, repos[w % repos.length], root.plan_id], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...env } }),
  );
  const readers = children.map(lineReader);
  await Promise.all(readers.map((f) => f()));
  const results = readers.map((f) => f());
  const t0 = process.hrtime.bigint();
  for (const c of children) c.stdin.write("go\n");
  const out = (await Promise.all(results)).map((l) => JSON.parse(l));
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  rmSync(script, { force: true });
  const claimed = out.flatMap((r) => r.claimed);
  return {
    claims: claimed.length,
    distinct: new Set(claimed).size,
    wall_ms: round(wall),
    per_second: round((1000 * claimed.length) / wall),
    median_claim_ms: round(median(out.flatMap((r) => r.times))),
  };
}

export async function run() {
  const env = environment();
  const bundle = await bundleFile("scripts/bench/plans-entry.ts", "plans-lib", ["pg", "esbuild"]);
  const lib = (await import("node:module")).createRequire(bundle)(bundle);

  const one = clones("sqlite", 1);
  const sqlite = await race(lib, bundle, one.clones, { COCKPIT_DATABASE_URL: "" });

  const server = await lib.startPostgres();
  let postgres;
  const three = clones("pg", COORDINATORS);
  try {
    server.createDatabase("bench");
    postgres = await race(lib, bundle, three.clones, { COCKPIT_DATABASE_URL: server.urlFor("bench") });
  } finally {
    await server.stop();
  }
  for (const dir of [one.base, three.base]) rmSync(dir, { recursive: true, force: true });
  rmSync(bundle, { force: true });

  const report = { section: name, generated_at: new Date().toISOString(), environment: env, children: CHILDREN, coordinators: COORDINATORS, sqlite_one_clone: sqlite, postgres_three_clones: postgres };
  writeReport(`bench-${name}`, report);
  const row = (label, r) => [label, `${r.claims}/${CHILDREN}`, String(r.distinct), fmtMs(r.median_claim_ms), String(r.per_second)];
  const text = [
    `Children claimed by ${COORDINATORS} coordinator processes on one ${CHILDREN}-child plan (${env.cpus} cores, load ${env.load_average.join(" ")})`,
    table(["", "claims", "distinct", "median claim", "per second"], [row("SQLite, 1 clone", sqlite), row("PostgreSQL, 3 clones", postgres)]),
  ].join("\n");
  return { name, text, report, ok: [sqlite, postgres].every((r) => r.claims === CHILDREN && r.distinct === CHILDREN) };
}
