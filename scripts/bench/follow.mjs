// A following server (cockpit serve --follow) over a local bare remote: a move's answer including
// its commit and push (p50/p99, each move on the remote before it is answered), and claims per
// second with 4 following servers, one process and one clone each, racing on the one remote. The
// commands are invoked on the served context as a POST invokes them (without HTTP).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { benchClones, bundleFile, environment, fmtMs, raceProcesses, round, sizeLabel, table, writeReport } from "./lib.mjs";

export const name = "follow";
export const description = "a following server: a move's answer including its push (p50/p99), and claims/s with 4 servers on one remote";

const MOVES = 30;
const WARMUP = 3;
const SERVERS = 4;
const PER_SERVER = 10;
/** Target of issue 24: a move through a following server, answered after its push, on 10k issues. */
const TARGET_MOVE_P50_MS = 300;

/** p50, p99 and the extremes of some timings (ms). */
function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
  return { p50: at(50), p99: at(99), min: round(sorted[0]), max: round(sorted[sorted.length - 1]), runs: values.length };
}

const git = (cwd, ...args) => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
};

/** A bare origin with `issues` READY issues and `n` clones of it, each with an identity to commit as. */
function origin(label, issues, n) {
  const { base } = benchClones(label, issues, 0);
  const bare = join(base, "origin.git");
  git(base, "clone", "-q", "--bare", join(base, "seed"), bare);
  // The remote keeps house apart, as a hosted one does: no `gc --auto` inside each push.
  git(bare, "config", "receive.autogc", "false");
  const clones = Array.from({ length: n }, (_, k) => {
    const dir = join(base, `server-${k}`);
    git(base, "clone", "-q", bare, dir);
    git(dir, "config", "user.name", `server-${k}`);
    git(dir, "config", "user.email", `server-${k}@bench.invalid`);
    return dir;
  });
  return { base, bare, clones };
}

const SERVER = `
const lib = require(process.argv[2]);
const repo = process.argv[3];
const count = Number(process.argv[4]);
(async () => {
  await lib.sync(lib.follow(repo, { intervalMs: 600000 }));
  // The first command loads the records; a claim refused for want of ready issues is counted below.
  process.stdout.write("ready\\n");
  process.stdin.once("data", async () => {
    const times = [], issues = [], refusals = [];
    for (let k = 0; k < count; k++) {
      const s = process.hrtime.bigint();
      const r = await lib.invoke(lib.planClaimCapability, lib.contextFor(repo, "bench"), {});
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
      if (r.ok) issues.push({ issue: r.value.issue, pushed: r.value.pushed, ...(r.value.pushed ? {} : { why: r.value.sync_message }) });
      else refusals.push(r.error.message);
    }
    await lib.unfollow(repo);
    process.stdout.write(JSON.stringify({ issues, refusals, times }) + "\\n");
    process.exit(0);
  });
})();
`;

async function moves(lib, size) {
  const o = origin(`follow-move-${size}`, size, 1);
  const repo = o.clones[0];
  try {
    await lib.sync(lib.follow(repo, { intervalMs: 600_000 }));
    const times = [];
    let pushed = 0;
    for (let k = 1; k <= MOVES + WARMUP; k++) {
      const id = `I${String(k).padStart(4, "0")}`;
      const t0 = process.hrtime.bigint();
      const r = await lib.invoke(lib.planTransitionCapability, lib.contextFor(repo, "bench"), { issue: id, transition: "start" });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
      if (k > WARMUP) times.push(ms);
      if (r.value.pushed) pushed++;
    }
    await lib.unfollow(repo);
    const onRemote = git(o.bare, "log", "--format=%s", "main").split("\n").filter((s) => s.endsWith(": start")).length;
    return { size, moves: MOVES, pushed: pushed - WARMUP, on_remote: onRemote - WARMUP, ...percentiles(times) };
  } finally {
    rmSync(o.base, { recursive: true, force: true });
  }
}

async function race(bundle, size) {
  const o = origin(`follow-race-${size}`, size, SERVERS);
  try {
    const { out, wall } = await raceProcesses("follow-server", SERVER, SERVERS, (k) => [bundle, o.clones[k], String(PER_SERVER)]);
    const answered = out.flatMap((r) => r.issues);
    const started = git(o.bare, "log", "--format=%s", "main").split("\n").filter((s) => s.endsWith(": start")).map((s) => s.split(":")[0]);
    return {
      size,
      servers: SERVERS,
      attempts: SERVERS * PER_SERVER,
      claims: answered.length,
      refused: out.reduce((n, r) => n + r.refusals.length, 0),
      started_on_remote: started.length,
      distinct_on_remote: new Set(started).size,
      answered_missing_on_remote: answered.filter((a) => a.pushed && !started.includes(a.issue)).length,
      not_pushed: answered.filter((a) => !a.pushed).map((a) => `${a.issue}: ${a.why}`),
      answered_twice: answered.length - new Set(answered.map((a) => a.issue)).size,
      refusals: out.flatMap((r) => r.refusals),
      wall_ms: round(wall),
      per_second: round((1000 * answered.length) / wall),
      claim: percentiles(out.flatMap((r) => r.times)),
    };
  } finally {
    rmSync(o.base, { recursive: true, force: true });
  }
}

export async function run(options = {}) {
  const env = environment();
  const sizes = options.sizes ?? [10_000];
  const bundle = await bundleFile("scripts/bench/follow-entry.ts", "follow-lib");
  const lib = (await import("node:module")).createRequire(bundle)(bundle);
  const moveRows = [];
  const raceRows = [];
  try {
    for (const size of sizes) {
      moveRows.push(await moves(lib, size));
      raceRows.push(await race(bundle, size));
    }
  } finally {
    rmSync(bundle, { force: true });
  }
  const report = { section: name, generated_at: new Date().toISOString(), environment: env, target_move_p50_ms: TARGET_MOVE_P50_MS, moves: moveRows, race: raceRows };
  writeReport(`bench-${name}`, report);
  const text = [
    `A following server over a local bare remote (${env.cpus} cores, load ${env.load_average.join(" ")}); each answer comes after the push`,
    table(
      ["move (start), answered after its push", "moves", "on the remote", "p50", "p99", `target p50`],
      moveRows.map((r) => [`${sizeLabel(r.size)} issues`, String(r.moves), String(r.on_remote), fmtMs(r.p50), fmtMs(r.p99), `<= ${TARGET_MOVE_P50_MS} ms`]),
    ),
    "",
    table(
      [`claims, ${SERVERS} following servers racing`, "claims", "refused", "distinct on remote", "p50", "per second"],
      raceRows.map((r) => [`${sizeLabel(r.size)} issues`, `${r.claims}/${r.attempts}`, String(r.refused), `${r.distinct_on_remote}/${r.started_on_remote}`, fmtMs(r.claim.p50), String(r.per_second)]),
    ),
    ...raceRows.map((r) => `${sizeLabel(r.size)}: ${r.answered_twice} issues answered to two servers, ${r.answered_missing_on_remote} answered as pushed but missing on the remote, ${r.not_pushed.length} answered as waiting; a claim refused had lost 3 times`),
  ].join("\n");
  const ok =
    moveRows.every((r) => r.p50 <= TARGET_MOVE_P50_MS && r.on_remote === r.moves && r.pushed === r.moves) &&
    raceRows.every((r) => r.distinct_on_remote === r.started_on_remote && r.answered_missing_on_remote === 0 && r.answered_twice === 0);
  return { name, text, report, ok };
}
