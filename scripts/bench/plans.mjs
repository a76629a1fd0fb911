// Children claimed per second by 3 coordinator processes on one execution plan: on the SQLite
// store (one clone: the file is the clone's) against PostgreSQL (3 clones of one origin, one
// database). max_parallel is the number of children, so only the store's serialisation limits
// the rate. The server is a throwaway cluster from Debian's postgresql package, as in the tests.
import { rmSync } from "node:fs";
import { benchClones, bundleFile, environment, fmtMs, median, raceProcesses, round, table, writeReport } from "./lib.mjs";

export const name = "plans";
export const description = "children claimed per second, 3 coordinator processes: SQLite store against PostgreSQL";

const CHILDREN = 48; // max_parallel is at most 50
const COORDINATORS = 3;

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
  // The plan is made in the store the coordinators will use: the configuration is passed, not
  // written into this process's environment (the coordinators get it as theirs).
  const config = env.COCKPIT_DATABASE_URL ? { database: env.COCKPIT_DATABASE_URL } : {};
  const root = await lib.createExecutionPlan(repos[0], { milestone: "M1" }, { execution_mode: "parallel", max_parallel: CHILDREN }, { config });
  lib.closeStores();
  await lib.closeDatabases();

  const { out, wall } = await raceProcesses("plans-coordinator", COORDINATOR, COORDINATORS, (w) => [bundle, repos[w % repos.length], root.plan_id], env);
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

  const one = benchClones("plans-sqlite", CHILDREN, 1);
  const sqlite = await race(lib, bundle, one.clones, { COCKPIT_DATABASE_URL: "" });

  const server = await lib.startPostgres();
  let postgres;
  const three = benchClones("plans-pg", CHILDREN, COORDINATORS);
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
