// Test support (not used by the product): generate a real repository with a plan (milestones and
// issues as YAML records, dependencies across waves, overlapping scopes), `git init` and a first
// commit; and make branch commits without touching the working tree.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sealOf } from "../plan/seal";

export interface TestIssue {
  id: string;
  milestone?: string;
  depends_on?: string[];
  scope: string[];
  evidence_required?: string[];
  /** Written DONE (sealed stamps and evidence) or cancelled. */
  state?: "DONE" | "CANCELLED";
}

export interface TestMilestone {
  id: string;
  order?: number;
  depends_on?: string[];
}

export interface TestRepoSpec {
  milestones?: TestMilestone[];
  issues: TestIssue[];
  /** Other files (path → text), committed with the records. */
  files?: Record<string, string>;
  /** Make the first commit (default true). */
  commit?: boolean;
}

export function git(cwd: string, args: readonly string[], env?: Record<string, string>): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: env ? { ...process.env, ...env } : process.env });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}

const flow = (items: readonly string[]) => `[${items.join(", ")}]`;
const DONE_AT = "2026-10-15T10:00:00Z";

function issueYaml(i: TestIssue): string {
  const evidence = i.evidence_required ?? ["proof"];
  const lines = [
    `id: ${i.id}`,
    `milestone: ${i.milestone ?? "M1"}`,
    `title: Issue ${i.id}`,
    `slug: ${i.id.toLowerCase()}`,
    "priority: p1",
    "profile: implementation",
    `objective: Objective of ${i.id}`,
    `scope: ${flow(i.scope)}`,
    `depends_on: ${flow(i.depends_on ?? [])}`,
    "acceptance_criteria: [it works]",
    'validation: ["true"]',
    `evidence_required: ${flow(evidence)}`,
  ];
  if (i.state === "CANCELLED") lines.push("cancelled: true");
  if (i.state === "DONE") {
    lines.push(`started_at: ${DONE_AT}`, `started_event: ${sealOf("plan_start", i.id, DONE_AT)}`);
    lines.push(`completed_at: ${DONE_AT}`, `completed_event: ${sealOf("plan_done", i.id, DONE_AT)}`);
  }
  lines.push("created_at: 2026-10-01");
  if (i.state === "DONE" && evidence.length > 0) {
    lines.push("evidence:");
    for (const t of evidence) lines.push(`  - covers: ${t}`, "    type: test", '    command: "true"');
  }
  return lines.join("\n") + "\n";
}

function milestoneYaml(m: TestMilestone): string {
  return [
    `id: ${m.id}`,
    `title: Milestone ${m.id}`,
    `slug: ${m.id.toLowerCase()}`,
    `order: ${m.order ?? 1}`,
    "priority: p1",
    "problem: a problem",
    "outcome: an outcome",
    "acceptance_criteria: [done]",
    "validation: [check]",
    "evidence_required: []",
    `depends_on: ${flow(m.depends_on ?? [])}`,
  ].join("\n") + "\n";
}

function write(root: string, rel: string, text: string): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
}

/** A fresh repository in the temporary folder with these records; returns its path. */
export function createTestRepo(spec: TestRepoSpec): string {
  const root = mkdtempSync(join(tmpdir(), "cockpit-exec-"));
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "user.email", "tests@cockpit.invalid"]);
  git(root, ["config", "user.name", "Cockpit Tests"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  write(root, ".gitignore", ".ai/local/\n");
  write(root, ".ai/repo/project/project.yaml", "schema_version: 1\nname: Test\nrepository: tests/execution\ndefault_branch: main\n");
  for (const m of spec.milestones ?? [{ id: "M1" }]) write(root, `.ai/repo/project/milestones/${m.id}.yaml`, milestoneYaml(m));
  for (const i of spec.issues) write(root, `.ai/repo/project/issues/${i.id}.yaml`, issueYaml(i));
  for (const [rel, text] of Object.entries(spec.files ?? {})) write(root, rel, text);
  if (spec.commit !== false) {
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "-m", "records"]);
  }
  return root;
}

export function removeTestRepo(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A deterministic pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * `waves` waves of `perWave` issues (I01, I02, …): every issue after wave 0 depends on one or two
 * issues of the wave before it, and about a third of each wave shares scope with a neighbour (an
 * issue's scope is inside the previous issue's, or equal to it). Deterministic for a seed.
 */
export function wavedIssues(waves = 3, perWave = 6, seed = 1): TestIssue[] {
  const random = seededRandom(seed);
  const out: TestIssue[] = [];
  let n = 0;
  for (let w = 0; w < waves; w++) {
    const previous = out.slice((w - 1) * perWave, w * perWave);
    for (let k = 0; k < perWave; k++) {
      const id = `I${pad(++n)}`;
      const deps: string[] = [];
      if (w > 0) {
        deps.push(previous[Math.floor(random() * previous.length)].id);
        if (random() < 0.5) {
          const second = previous[Math.floor(random() * previous.length)].id;
          if (!deps.includes(second)) deps.push(second);
        }
      }
      let scope = [`src/w${w}/${id.toLowerCase()}`];
      const before = out[out.length - 1];
      if (k > 0 && k % 3 === 1) scope = [`${before.scope[0]}/inner`]; // inside the previous issue's scope
      else if (k > 0 && k % 3 === 2 && random() < 0.5) scope = [before.scope[0], `src/w${w}/${id.toLowerCase()}`];
      if (w > 0 && k === perWave - 1) scope.push(`src/w${w - 1}/i${pad(n - perWave)}`); // reaches back into the wave before
      out.push({ id, depends_on: deps, scope });
    }
  }
  return out;
}

/**
 * Commit `files` on top of `from` and point `branch` at the commit, through a temporary index:
 * the working tree and the real index are not touched. Returns the commit.
 */
export function commitOnBranch(repo: string, branch: string, files: Record<string, string>, from = "HEAD", message = `work on ${branch}`): string {
  const index = join(mkdtempSync(join(tmpdir(), "cockpit-index-")), "index");
  const env = { GIT_INDEX_FILE: index };
  try {
    git(repo, ["read-tree", from], env);
    for (const [path, text] of Object.entries(files)) {
      const blob = spawnSync("git", ["hash-object", "-w", "--stdin"], { cwd: repo, input: text, encoding: "utf8" }).stdout.trim();
      git(repo, ["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`], env);
    }
    const tree = git(repo, ["write-tree"], env);
    const parent = git(repo, ["rev-parse", `${from}^{commit}`]);
    const commit = git(repo, ["commit-tree", tree, "-p", parent, "-m", message]);
    git(repo, ["update-ref", `refs/heads/${branch}`, commit]);
    return commit;
  } finally {
    rmSync(dirname(index), { recursive: true, force: true });
  }
}

/** A file's text at a commit-ish. */
export function showFile(repo: string, rev: string, path: string): string {
  return git(repo, ["show", `${rev}:${path}`]);
}
