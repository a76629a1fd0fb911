// Benchmark section "import": `cockpit plan import` of 10,000 issues from each format, as a
// person runs it (one process: read the source, parse, derive before and after, write every
// record under the plan lock, one ledger line each), into a fresh git repository. The sources are
// generated in each tool's own format: 100 epics/milestones/tags of 100 issues, each issue but the
// first of its group blocked by the one before it, every fifth one closed. Target (issue 28):
// 10,000 issues in at most 20 s.
//
//   node scripts/bench.mjs --only import [--sizes 10000]

import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_TMP, ROOT, environment, fmtMs, fmtMb, runProcess, table, writeReport } from "./lib.mjs";

export const name = "import";
export const description = "cockpit plan import of 10,000 issues from beads, Backlog.md, Task Master and GitHub Issues";

const TARGET_MS = 20_000;
const GROUP = 100;
const CLI = join(ROOT, "bin", "cockpit");

const when = (k) => new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString();

/** Each format's source of `n` issues, written under `dir`; the path to give the importer. */
const SOURCES = {
  beads(dir, n) {
    const lines = [];
    for (let g = 0; g < n / GROUP; g++) lines.push(JSON.stringify({ id: `bd-e${g}`, title: `Epic ${g}`, status: "open", priority: 1, issue_type: "epic", created_at: when(g) }));
    for (let k = 0; k < n; k++) {
      const g = Math.floor(k / GROUP);
      const deps = [{ issue_id: `bd-e${g}.${k}`, depends_on_id: `bd-e${g}`, type: "parent-child" }];
      if (k % GROUP) deps.push({ issue_id: `bd-e${g}.${k}`, depends_on_id: `bd-e${g}.${k - 1}`, type: "blocks" });
      const closed = k % 5 === 0;
      lines.push(
        JSON.stringify({
          id: `bd-e${g}.${k}`,
          title: `Issue ${k} of epic ${g}`,
          description: `What issue ${k} does.\nOn two lines.`,
          acceptance_criteria: "- [ ] it works\n- [ ] it is tested",
          status: closed ? "closed" : "open",
          priority: k % 5,
          issue_type: "task",
          created_at: when(k),
          updated_at: when(k),
          ...(closed ? { closed_at: when(k + 1) } : {}),
          dependencies: deps,
        }),
      );
    }
    const path = join(dir, "issues.jsonl");
    writeFileSync(path, lines.join("\n") + "\n");
    return path;
  },
  backlog(dir, n) {
    for (const sub of ["tasks", "completed", "milestones"]) mkdirSync(join(dir, "backlog", sub), { recursive: true });
    writeFileSync(join(dir, "backlog", "config.yml"), 'project_name: "bench"\ntask_prefix: "back"\n');
    for (let g = 0; g < n / GROUP; g++) writeFileSync(join(dir, "backlog", "milestones", `m-${g} - group.md`), `---\nid: m-${g}\ntitle: "Group ${g}"\n---\n\n## Description\n\nGroup ${g}.\n`);
    for (let k = 1; k <= n; k++) {
      const g = Math.floor((k - 1) / GROUP);
      const done = k % 5 === 0;
      const deps = (k - 1) % GROUP ? `\n  - task-${k - 1}` : " []";
      writeFileSync(
        join(dir, "backlog", done ? "completed" : "tasks", `back-${k} - Task-${k}.md`),
        `---\nid: BACK-${k}\ntitle: Task ${k}\nstatus: ${done ? "Done" : "To Do"}\nassignee: []\ncreated_date: '2026-01-01 10:00'\nlabels: []\nmilestone: m-${g}\ndependencies:${deps}\npriority: medium\n---\n\n## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\nWhat task ${k} does.\n<!-- SECTION:DESCRIPTION:END -->\n\n## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [ ] #1 it works\n<!-- AC:END -->\n`,
      );
    }
    return dir;
  },
  taskmaster(dir, n) {
    const tags = {};
    for (let g = 0; g < n / GROUP; g++) {
      tags[g === 0 ? "master" : `tag-${g}`] = {
        tasks: Array.from({ length: GROUP }, (_, i) => ({
          id: i + 1,
          title: `Task ${i + 1} of tag ${g}`,
          description: "What it does.",
          status: i % 5 === 0 ? "done" : "pending",
          dependencies: i ? [i] : [],
          priority: "medium",
          details: "How.",
          testStrategy: "Run the tests.",
        })),
        metadata: { description: `Tag ${g}` },
      };
    }
    const path = join(dir, "tasks.json");
    writeFileSync(path, JSON.stringify(tags, null, 2));
    return path;
  },
  github(dir, n) {
    const issues = Array.from({ length: n }, (_, i) => ({
      number: i + 1,
      title: `Issue ${i + 1}`,
      body: "What it does.",
      state: i % 5 === 0 ? "CLOSED" : "OPEN",
      labels: [{ id: "LA_1", name: "bug", description: "", color: "d73a4a" }],
      milestone: { number: Math.floor(i / GROUP) + 1, title: `Milestone ${Math.floor(i / GROUP) + 1}`, description: "", dueOn: null },
      assignees: [{ id: "U_1", login: "octocat", name: "" }],
      createdAt: when(i),
      closedAt: i % 5 === 0 ? when(i + 1) : null,
    }));
    writeFileSync(join(dir, "issues.json"), JSON.stringify(issues));
    writeFileSync(join(dir, "deps.json"), JSON.stringify(issues.filter((_, i) => i % GROUP).map((x) => ({ issue: x.number, blocked_by: [x.number - 1] }))));
    return join(dir, "issues.json");
  },
};

export async function run(options = {}) {
  const sizes = options.sizes ?? [10_000];
  const rows = [];
  const figures = [];
  let ok = true;
  for (const n of sizes) {
    for (const format of Object.keys(SOURCES)) {
      const base = join(BENCH_TMP, `import-${format}-${n}-${process.pid}`);
      rmSync(base, { recursive: true, force: true });
      const src = join(base, "source");
      const repo = join(base, "repo");
      mkdirSync(src, { recursive: true });
      mkdirSync(repo, { recursive: true });
      spawnSync("git", ["init", "-q", "-b", "main"], { cwd: repo });
      const path = SOURCES[format](src, n);
      const args = [CLI, "plan", "import", format, path, "--repo", repo, "--json", ...(format === "github" ? ["--dependencies", join(src, "deps.json")] : [])];
      const dry = runProcess(process.execPath, [...args, "--dry-run"]);
      const real = runProcess(process.execPath, args);
      const pass = real.ms <= TARGET_MS;
      ok &&= pass;
      figures.push({ format, issues: n, dry_run_ms: Math.round(dry.ms), import_ms: Math.round(real.ms), peak_rss_mb: real.rssMb, cpu_ms: real.cpuMs, target_ms: TARGET_MS, ok: pass });
      rows.push([format, n, fmtMs(dry.ms), fmtMs(real.ms), fmtMb(real.rssMb), pass ? "ok" : `over ${fmtMs(TARGET_MS)}`]);
      rmSync(base, { recursive: true, force: true });
    }
  }
  const report = { environment: environment(), target_ms: TARGET_MS, figures };
  const path = writeReport("bench-import", report);
  const text = [`import — ${description} (target ${fmtMs(TARGET_MS)})`, table(["format", "issues", "dry run", "import", "peak RSS", "target"], rows), `report: ${path}`].join("\n");
  return { name, text, report, ok };
}
