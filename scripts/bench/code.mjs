// The code in the plan: plan.code on a generated repository of 10,000 commits and 500 branches
// (a 1k-issue plan, branches named after issues, half merged with merge commits). Cold, from the
// command line, against a cold `cockpit plan model` plus 3x the time of the bare graph read
// (`git log --branches --remotes --format='%H %P%x00%B'`), the ratio printed; and in a server
// (the HTTP projection in this process), the time until plan.code answers with one new commit
// (target <= 100 ms). Then 1,000,000 remote-tracking branches naming one issue are written into
// packed-refs (as a fetch from a hostile remote would bring them): plan.code's answer with its
// finding, the latency of /api/v1/plan/status asked again and again meanwhile (target <= 200 ms
// each) and this process's peak RSS over that time (target: less than 300 MB over its RSS before).
//
//   node scripts/bench.mjs --only code
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP, ROOT, environment, fmtMs, loadBundled, loadPlanFixtures, median, round, table, writeReport } from "./lib.mjs";

const { ensurePlanFixture } = await loadPlanFixtures();
const { addPackedRefs } = await loadBundled("tests/support/packed-refs.ts", "packed-refs");

export const name = "code";
export const description = "plan.code on 10,000 commits and 500 branches: cold vs cold model + 3x git log; one new commit in a server";

const COMMITS = 10_000;
const BRANCHES = 500;
const PER_BRANCH = 15;
const RUNS = 5;
const MANY_REFS = 1_000_000;
const CLI = join(ROOT, "bin", "cockpit");
const DIR = ".ai/repo/project";

function git(cwd, args, input) {
  const r = spawnSync("git", ["-c", "commit.gpgsign=false", ...args], { cwd, input, encoding: input instanceof Buffer ? "buffer" : "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return typeof r.stdout === "string" ? r.stdout.trim() : r.stdout;
}

function timed(command, args, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

/** A commit on `branch` that changes one file outside .ai/, made through a temporary index (the work tree untouched). */
function commitOnBranch(repo, branch, message) {
  const dir = mkdtempSync(join(BENCH_TMP, "index-"));
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const env = { ...process.env, GIT_INDEX_FILE: join(dir, "index"), GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "b@example.com", GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when };
  const run = (args, input) => {
    const r = spawnSync("git", args, { cwd: repo, env, input, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
  };
  try {
    const parent = run(["rev-parse", `refs/heads/${branch}`]);
    run(["read-tree", parent]);
    const blob = run(["hash-object", "-w", "--stdin"], `${message}\n`);
    run(["update-index", "--add", "--cacheinfo", `100644,${blob},src/bench-new.txt`]);
    const sha = run(["commit-tree", run(["write-tree"]), "-p", parent, "-m", message]);
    run(["update-ref", `refs/heads/${branch}`, sha]);
    return sha;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The 1k plan as the root commit, then main's commits, 500 branches off it and half of them merged: 10,000 commits in all. */
function codeRepo() {
  const fixture = ensurePlanFixture(1000);
  const repo = join(BENCH_TMP, `code-${process.pid}`);
  rmSync(repo, { recursive: true, force: true });
  cpSync(fixture.dir, repo, { recursive: true });
  rmSync(join(repo, "fixture.json"), { force: true });
  const ids = readdirSync(join(repo, DIR, "issues")).filter((f) => f.endsWith(".yaml")).map((f) => f.slice(0, -5)).sort();
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["add", "-A"]);
  git(repo, ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "the plan"]);
  const chunks = [];
  let mark = 0;
  let count = 1;
  let second = Math.floor(Date.now() / 1000) - 200 * 86_400;
  const commit = (ref, from, message, files, merge) => {
    mark++;
    count++;
    second += 60;
    const who = `Dev ${mark % 17} <dev${mark % 17}@example.com> ${second} +0000`;
    const body = Buffer.from(message);
    chunks.push(`commit ${ref}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\ndata ${body.length}\n${message}\nfrom ${from}\n`);
    if (merge) chunks.push(`merge ${merge}\n`);
    for (const [path, text] of files) chunks.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    chunks.push("\n");
    return `:${mark}`;
  };
  let main = "refs/heads/main^0";
  const mainCommits = COMMITS - 1 - BRANCHES * PER_BRANCH - BRANCHES / 2;
  const everyMain = Math.floor(mainCommits / BRANCHES);
  const open = [];
  for (let b = 0; b < BRANCHES; b++) {
    for (let k = 0; k < everyMain; k++) main = commit("refs/heads/main", main, `Main work ${b}.${k}`, [[`src/main/${b % 50}.txt`, `${b}.${k}\n`]]);
    const id = ids[b % ids.length];
    const ref = `refs/heads/${id.toLowerCase()}-work-${b}`;
    let tip = main;
    for (let k = 0; k < PER_BRANCH; k++) tip = commit(ref, tip, k % 3 === 0 ? `${id}: step ${k}\n\nRefs: ${ids[(b + 7) % ids.length]}` : `Step ${k} of branch ${b}`, [[`src/b${b}/f.txt`, `${k}\n`]]);
    open.push({ b, tip });
    // Every other branch is merged into main, a few branches later.
    if (open.length >= 4) {
      const { b: merged, tip: mergedTip } = open.shift();
      if (merged % 2 === 0) main = commit("refs/heads/main", main, `Merge branch ${merged}`, [[`src/b${merged}/f.txt`, `${PER_BRANCH - 1}\n`]], mergedTip);
    }
  }
  while (count < COMMITS) main = commit("refs/heads/main", main, `Main tail ${count}`, [["src/tail.txt", `${count}\n`]]);
  git(repo, ["fast-import", "--quiet", "--done"], Buffer.from(chunks.join("") + "done\n"));
  git(repo, ["reset", "-q", "--hard", "main"]);
  return { repo, ids, commits: Number(git(repo, ["rev-list", "--count", "--branches", "--remotes"])), branches: git(repo, ["for-each-ref", "refs/heads"]).split("\n").length };
}

/**
 * plan.code for `id` once `MANY_REFS` branches name it, with /api/v1/plan/status asked one after
 * another until it answers: each status's latency, and this process's RSS sampled meanwhile.
 */
async function manyRefs(repo, id, ask) {
  const tip = git(repo, ["rev-parse", "refs/heads/main"]);
  addPackedRefs(repo, `refs/remotes/origin/${id.toLowerCase()}-`, MANY_REFS, tip);
  // What this process held before (the bench's own repository and graph, the refs file it wrote):
  // the target is on what the code read adds to it.
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  let done = false;
  const code = ask(`/api/v1/plan/code?id=${encodeURIComponent(id)}`).finally(() => (done = true));
  const status = [];
  while (!done) status.push((await ask("/api/v1/plan/status")).ms);
  const answer = await code;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const codes = answer.body.findings.map((f) => f.code);
  const hasFindings = codes.includes("too_many_refs") && codes.includes("too_many_branches");
  const worst = Math.max(...status);
  const mb = peak / (1024 * 1024);
  const grown = (peak - before) / (1024 * 1024);
  const ok = hasFindings && worst <= 200 && grown < 300;
  const rows = [
    [`GET /api/v1/plan/code?id=${id}, refs read again`, fmtMs(answer.ms), "", hasFindings ? "findings" : "NO FINDING"],
    [`GET /api/v1/plan/status meanwhile (${status.length}), median`, fmtMs(median(status)), "", ""],
    ["  the slowest", fmtMs(worst), "<= 200 ms", worst <= 200 ? "met" : "MISSED"],
    ["peak RSS of this process meanwhile", `${Math.round(mb)} MB`, "", ""],
    ["  over its RSS before the code read", `+${Math.round(grown)} MB`, "< 300 MB", grown < 300 ? "met" : "MISSED"],
  ];
  return { ok, rows, report: { refs_added: MANY_REFS, code_ms: round(answer.ms), findings: codes, status_requests: status.length, status_median_ms: round(median(status)), status_max_ms: round(worst), peak_rss_mb: Math.round(mb), rss_before_mb: Math.round(before / (1024 * 1024)) } };
}

export async function run() {
  const env = environment();
  const { repo, ids, commits, branches } = codeRepo();
  const { handleCapabilityRequest } = await loadBundled("lib/surfaces/http.ts", "code-http");
  const ask = async (target) => {
    const url = new URL(`http://127.0.0.1${target}`);
    const t = process.hrtime.bigint();
    const r = await handleCapabilityRequest(new Request(url), url.pathname, { repo });
    const body = await r.text();
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 200) throw new Error(`${target} answered ${r.status}: ${body.slice(0, 200)}`);
    return { ms, body: JSON.parse(body) };
  };
  try {
    const code = [];
    const model = [];
    const log = [];
    let linked = 0;
    for (let k = 0; k < RUNS; k++) {
      const c = timed(process.execPath, [CLI, "plan", "code", "--json", "--repo", repo]);
      code.push(c.ms);
      linked = JSON.parse(c.out).issues.length;
      model.push(timed(process.execPath, [CLI, "plan", "model", "--json", "--repo", repo]).ms);
      log.push(timed("git", ["log", "--branches", "--remotes", "--format=%H %P%x00%B"], repo).ms);
    }
    const codeMs = median(code);
    const modelMs = median(model);
    const logMs = median(log);
    const budget = modelMs + 3 * logMs;
    const ratio = codeMs / budget;

    // In a server: the first answer reads the graph; then one commit on a branch, and the next answer.
    const first = await ask("/api/v1/plan/code");
    const warm = [];
    for (let k = 0; k < 5; k++) warm.push((await ask("/api/v1/plan/code")).ms);
    const id = ids[3];
    const fresh = commitOnBranch(repo, `${id.toLowerCase()}-work-3`, `${id}: one more`);
    const after = await ask(`/api/v1/plan/code?id=${encodeURIComponent(id)}`);
    const sawIt = after.body.commits.some((c) => c.sha === fresh);
    const newCommitMs = after.ms;
    const many = await manyRefs(repo, ids[5], ask);
    const ok = ratio <= 1 && newCommitMs <= 100 && sawIt && many.ok;
    const report = {
      environment: env,
      repository: { commits, branches, plan_issues: ids.length, linked_issues: linked },
      cold_cli_ms: { plan_code: round(codeMs), plan_model: round(modelMs), git_log: round(logMs), budget: round(budget), ratio: round(ratio, 3) },
      server_ms: { first: round(first.ms), warm: round(median(warm)), after_one_commit: round(newCommitMs), saw_the_commit: sawIt, target: 100 },
      many_refs: many.report,
      ok,
    };
    writeReport(name, report);
    const text = [
      `## code: plan.code on ${commits.toLocaleString("en")} commits and ${branches} branches (a ${ids.length}-issue plan, ${linked} issues linked)`,
      "",
      table(
        ["measure", "time", "target", ""],
        [
          ["cockpit plan code --json, cold (median of 5)", fmtMs(codeMs), `<= ${fmtMs(budget)}`, ratio <= 1 ? "met" : "MISSED"],
          ["  cockpit plan model --json, cold", fmtMs(modelMs), "", ""],
          ["  git log --branches --remotes --format='%H %P%x00%B'", fmtMs(logMs), "", ""],
          [`  ratio: plan code / (model + 3 x git log)`, ratio.toFixed(2), "<= 1", ""],
          ["GET /api/v1/plan/code in the server, first", fmtMs(first.ms), "", ""],
          ["GET /api/v1/plan/code in the server, warm (median of 5)", fmtMs(median(warm)), "", ""],
          ["after one new commit, until plan.code answers with it", fmtMs(newCommitMs), "<= 100 ms", newCommitMs <= 100 && sawIt ? "met" : "MISSED"],
        ],
      ),
      "",
      `with ${MANY_REFS.toLocaleString("en")} more remote-tracking branches naming ${ids[5]} (packed-refs):`,
      "",
      table(["measure", "value", "target", ""], many.rows),
    ].join("\n");
    return { name, text, report, ok };
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

if (process.argv[1] && process.argv[1].endsWith("code.mjs")) {
  const r = await run();
  process.stdout.write(`${r.text}\n`);
}
