// Answers from history. `changes`: `cockpit plan changes --since HEAD~1` on a 10k-issue plan,
// against a cold `cockpit plan model` (target: within 2x). `burnup`: a 1k-issue plan whose records
// arrive over 90 days in 200 commits, charted from the command line (cold, target <= 3 s) and
// through the HTTP projection in one process, as the server answers it (warm, target <= 200 ms).
//
//   node scripts/bench.mjs --only time        (or: node scripts/bench/time.mjs)
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_TMP, ROOT, environment, fmtMs, loadBundled, loadPlanFixtures, median, round, table, writeReport } from "./lib.mjs";

// The plan generator the tests share (tests/support/plan-fixture.ts), bundled once.
const { ensurePlanFixture } = await loadPlanFixtures();

export const name = "time";
export const description = "plan changes on a 10k plan vs a cold model; burn-up over 90 days and 200 commits of a 1k plan, cold CLI and warm server";

const HISTORY_VERSION = 1;
const DAYS = 90;
const COMMITS = 200;
const RUNS = 3;
const WARM_RUNS = 10;
const DIR = ".ai/repo/project";
const CLI = join(ROOT, "bin", "cockpit");

function git(cwd, args, when) {
  const env = { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.com" };
  if (when) Object.assign(env, { GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when });
  const r = spawnSync("git", ["-c", "commit.gpgsign=false", ...args], { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Milliseconds of one command-line run (its exit code checked). */
function timeCli(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`cockpit ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

/** The 10k plan committed, then 20 records changed and committed again. */
function changesRepo() {
  const fixture = ensurePlanFixture(10_000);
  const repo = join(BENCH_TMP, `time-changes-${process.pid}`);
  rmSync(repo, { recursive: true, force: true });
  cpSync(fixture.dir, repo, { recursive: true });
  rmSync(join(repo, "fixture.json"), { force: true });
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "-m", "the plan"], iso(Date.now() - 2 * 86_400_000));
  const issues = join(repo, DIR, "issues");
  for (const f of readdirSync(issues).sort().slice(0, 20)) {
    const path = join(issues, f);
    writeFileSync(path, readFileSync(path, "utf8").replace(/^title: (.*)$/m, "title: $1 (revised)").replace(/^depends_on:.*$/m, "depends_on: []"));
  }
  git(repo, ["commit", "-q", "-am", "revise twenty issues"], iso(Date.now() - 86_400_000));
  return repo;
}

/** The 1k plan arriving over DAYS days in COMMITS commits (every milestone file in the first). */
function burnupRepo() {
  const dir = join(BENCH_TMP, `time-burnup-v${HISTORY_VERSION}`);
  if (existsSync(join(dir, ".complete"))) return dir;
  const fixture = ensurePlanFixture(1000);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, DIR, "issues"), { recursive: true });
  cpSync(join(fixture.dir, DIR, "milestones"), join(dir, DIR, "milestones"), { recursive: true });
  cpSync(join(fixture.dir, DIR, "project.yaml"), join(dir, DIR, "project.yaml"));
  git(dir, ["init", "-q", "-b", "main"]);
  const names = readdirSync(join(fixture.dir, DIR, "issues")).sort();
  const start = Date.now() - DAYS * 86_400_000;
  let written = 0;
  for (let k = 0; k < COMMITS; k++) {
    const upto = Math.ceil(((k + 1) / COMMITS) * names.length);
    for (; written < upto; written++) cpSync(join(fixture.dir, DIR, "issues", names[written]), join(dir, DIR, "issues", names[written]));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", `records up to ${upto}`], iso(start + Math.floor((k * (DAYS - 1) * 86_400_000) / COMMITS)));
  }
  writeFileSync(join(dir, ".git", "info", "exclude"), ".complete\n");
  writeFileSync(join(dir, ".complete"), "");
  return dir;
}

export async function run() {
  const env = environment();

  const { handleCapabilityRequest } = await loadBundled("lib/surfaces/http.ts", "time-http");
  /** One GET through the HTTP projection in this process (as the server answers it): its milliseconds. */
  const timeGet = async (repo, target) => {
    const url = new URL(`http://127.0.0.1${target}`);
    const t = process.hrtime.bigint();
    const r = await handleCapabilityRequest(new Request(url), url.pathname, { repo });
    const body = await r.text();
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 200) throw new Error(`${target} answered ${r.status}: ${body.slice(0, 200)}`);
    return ms;
  };

  // --- changes on 10k, and reads at a revision in the server (parsed files kept by blob id)
  const repo = changesRepo();
  const model = [];
  const changes = [];
  let changed = 0;
  const revision = {};
  try {
    for (let k = 0; k < RUNS; k++) {
      model.push(timeCli(["plan", "model", "--json", "--repo", repo]).ms);
      const c = timeCli(["plan", "changes", "--since", "HEAD~1", "--json", "--repo", repo]);
      changes.push(c.ms);
      changed = JSON.parse(c.out).issues.length;
    }
    revision.first = await timeGet(repo, "/api/v1/plan?at=HEAD~1");
    revision.next_commit = await timeGet(repo, "/api/v1/plan?at=HEAD");
    const again = [];
    for (let k = 0; k < WARM_RUNS; k++) again.push(await timeGet(repo, "/api/v1/plan/status?at=HEAD"));
    revision.again = median(again);
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
  const modelMs = median(model);
  const changesMs = median(changes);

  // --- burn-up over 90 days, 200 commits, 1k issues
  const history = burnupRepo();
  const milestone = readdirSync(join(history, DIR, "milestones")).sort()[1].replace(/\.yaml$/, "");
  const cold = [];
  let points = 0;
  for (let k = 0; k < RUNS; k++) {
    const r = timeCli(["plan", "burnup", "--milestone", milestone, "--json", "--repo", history]);
    cold.push(r.ms);
    points = JSON.parse(r.out).points.length;
  }
  const coldMs = median(cold);
  const ask = () => timeGet(history, `/api/v1/plan/burnup?milestone=${encodeURIComponent(milestone)}`);
  const firstInServer = await ask();
  const warm = [];
  for (let k = 0; k < WARM_RUNS; k++) warm.push(await ask());
  const warmMs = median(warm);

  const ratio = changesMs / modelMs;
  const ok = ratio <= 2 && coldMs <= 3000 && warmMs <= 200;
  const report = {
    section: name,
    generated_at: new Date().toISOString(),
    environment: env,
    changes: { plan_issues: 10_000, issues_changed: changed, cold_model_ms: round(modelMs), cold_changes_ms: round(changesMs), ratio: round(ratio), target_ratio: 2 },
    revision_in_server: { plan_issues: 10_000, first_at_head_1_ms: round(revision.first), then_at_head_ms: round(revision.next_commit), again_status_at_head_ms: round(revision.again) },
    burnup: { plan_issues: 1000, days: DAYS, commits: COMMITS, points, cold_cli_ms: round(coldMs), first_in_server_ms: round(firstInServer), warm_in_server_ms: round(warmMs), target_cold_ms: 3000, target_warm_ms: 200 },
  };
  writeReport(`bench-${name}`, report);
  const text = [
    `history answers (${env.cpus} cores, load ${env.load_average.join(" ")})`,
    table(
      ["", "time", "target", ""],
      [
        ["cockpit plan model --json, 10k, cold", fmtMs(modelMs), "-", ""],
        [`cockpit plan changes --since HEAD~1, 10k, cold (${changed} changed)`, fmtMs(changesMs), `<= ${fmtMs(2 * modelMs)}`, `${ratio.toFixed(2)}x ${ratio <= 2 ? "met" : "MISSED"}`],
        ["GET /api/v1/plan?at=HEAD~1 in the server, 10k, first", fmtMs(revision.first), "-", ""],
        ["then ?at=HEAD (20 files differ: only they are parsed)", fmtMs(revision.next_commit), "-", ""],
        ["then /status?at=HEAD again (median)", fmtMs(revision.again), "-", ""],
        [`cockpit plan burnup, 1k, ${DAYS} days, ${COMMITS} commits, cold (${points} points)`, fmtMs(coldMs), "<= 3.00 s", coldMs <= 3000 ? "met" : "MISSED"],
        ["GET /api/v1/plan/burnup in the server, first", fmtMs(firstInServer), "-", ""],
        ["GET /api/v1/plan/burnup in the server, warm (median)", fmtMs(warmMs), "<= 200 ms", warmMs <= 200 ? "met" : "MISSED"],
      ],
    ),
  ].join("\n");
  return { name, text, report, ok };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await run();
  process.stdout.write(r.text + "\n");
}
