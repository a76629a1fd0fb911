// Real plan repositories for the tests (real files, real `git init`) in fresh temporary folders,
// a copy of the majordomus corpus when a test needs real records, and branch commits made without
// touching the working tree. Nothing here ever writes under tests/fixtures.
import { runGit } from "./git";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ISSUES, MILESTONES, PROJECT, issueYaml, milestoneYaml, projectYaml, type IssueSpec, type MilestoneSpec } from "./record-files";
import { seededRandom } from "./random";

export { ISSUES, MILESTONES, PROJECT, issueYaml, milestoneYaml, type IssueSpec, type MilestoneSpec } from "./record-files";
export { seededRandom } from "./random";

export const ROOT = join(__dirname, "..", "..");
export const CORPUS = join(ROOT, "tests", "fixtures", "majordomus");
export const LEDGER = ".ai/local/state/ledger.jsonl";
export const LOCK = ".ai/local/state/plan.lock";

/** A canonical stamp after SEALED_FROM, and a few more; tests pass them as the transition clock. */
export const AT = "2026-10-20T10:00:00Z";
export const AT2 = "2026-10-20T11:00:00Z";
export const AT3 = "2026-10-20T12:00:00Z";

const created: string[] = [];

/** A fresh temporary folder, removed by `cleanupRepos`. */
export function tempDir(prefix = "cockpit-plan-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Remove every folder this module created (call from `afterAll`). */
export function cleanupRepos(): void {
  while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
}

/** Run git in a folder; throws with git's stderr when it fails. */
export function git(cwd: string, ...args: string[]): string {
  return gitWith(cwd, process.env, args);
}

function gitWith(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[], input?: string): string {
  return runGit(cwd, args, { env, input });
}

function gitInit(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "tests@cockpit.invalid");
  git(dir, "config", "user.name", "Cockpit Tests");
  git(dir, "config", "commit.gpgsign", "false");
}

/** A git repository holding a copy of the demo plan, committed once ("the demo plan"). */
export function demoGitCopy(prefix: string): string {
  const dir = tempDir(prefix);
  cpSync(join(ROOT, "examples", "demo"), dir, { recursive: true });
  gitInit(dir);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "the demo plan");
  return dir;
}

export interface RepoSpec {
  /** Default: one milestone, M1. */
  milestones?: MilestoneSpec[];
  issues?: (IssueSpec | { id: string; raw: string })[];
  /** Any other files, by path relative to the repository. */
  files?: Record<string, string>;
  /** Commit everything after writing it (default false: HEAD stays unborn). */
  commit?: boolean;
}

export class PlanRepo {
  constructor(readonly root: string) {}

  path(rel: string): string {
    return join(this.root, rel);
  }
  issuePath(id: string): string {
    return this.path(`${ISSUES}/${id}.yaml`);
  }
  milestonePath(id: string): string {
    return this.path(`${MILESTONES}/${id}.yaml`);
  }
  /** A record's text (issue first, then milestone). */
  read(id: string): string {
    const p = existsSync(this.issuePath(id)) ? this.issuePath(id) : this.milestonePath(id);
    return readFileSync(p, "utf8");
  }
  bytes(rel: string): Buffer | undefined {
    const p = this.path(rel);
    return existsSync(p) ? readFileSync(p) : undefined;
  }
  write(rel: string, text: string): void {
    mkdirSync(dirname(this.path(rel)), { recursive: true });
    writeFileSync(this.path(rel), text);
  }
  writeIssue(id: string, text: string): void {
    this.write(`${ISSUES}/${id}.yaml`, text);
  }
  /** The ledger's text, or undefined while it does not exist. */
  ledger(): string | undefined {
    const p = this.path(LEDGER);
    return existsSync(p) ? readFileSync(p, "utf8") : undefined;
  }
  ledgerLines(): Record<string, string>[] {
    const text = this.ledger();
    if (text === undefined) return [];
    return text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, string>);
  }
  git(...args: string[]): string {
    return git(this.root, ...args);
  }
  commitAll(message = "records"): string {
    this.git("add", "-A");
    this.git("commit", "-q", "-m", message);
    return this.git("rev-parse", "HEAD");
  }
  /** Every file's bytes under the project folder and `.ai/local` (undefined ledger = absent). */
  snapshot(): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else out.set(relative(this.root, p), readFileSync(p).toString("base64"));
      }
    };
    walk(this.path(PROJECT));
    walk(this.path(".ai/local"));
    return out;
  }
}

/** A real repository with a plan: project.yaml, milestones and issues, after `git init`. */
export function makePlanRepo(spec: RepoSpec = {}): PlanRepo {
  const repo = new PlanRepo(tempDir());
  gitInit(repo.root);
  repo.write(`${PROJECT}/project.yaml`, projectYaml());
  for (const m of spec.milestones ?? [{ id: "M1" }]) repo.write(`${MILESTONES}/${m.id}.yaml`, milestoneYaml(m));
  for (const i of spec.issues ?? []) repo.writeIssue(i.id, "raw" in i ? i.raw : issueYaml(i));
  for (const [rel, text] of Object.entries(spec.files ?? {})) repo.write(rel, text);
  if (spec.commit) repo.commitAll();
  return repo;
}

/**
 * A committed repository whose `.ai/local/` (the execution store, the ledger) git ignores, as the
 * execution tests want; returns its path. `removeTestRepo` removes it (so does `cleanupRepos`).
 */
export function createTestRepo(spec: RepoSpec): string {
  return makePlanRepo({ ...spec, files: { ".gitignore": ".ai/local/\n", ...spec.files }, commit: spec.commit ?? true }).root;
}

export function removeTestRepo(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A copy of the real majordomus corpus in a temporary git repository. */
export function copyCorpus(): PlanRepo {
  const repo = new PlanRepo(tempDir("cockpit-corpus-"));
  cpSync(CORPUS, repo.root, { recursive: true });
  gitInit(repo.root);
  return repo;
}

/** The files of a folder that end in `.yaml` (what the loader would read as records). */
export function yamlNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".yaml"))
    .sort();
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * `waves` waves of `perWave` issues (I01, I02, …): every issue after wave 0 depends on one or two
 * issues of the wave before it, and about a third of each wave shares scope with a neighbour (an
 * issue's scope is inside the previous issue's, or equal to it). Deterministic for a seed.
 */
export function wavedIssues(waves = 3, perWave = 6, seed = 1): (IssueSpec & { scope: string[] })[] {
  const random = seededRandom(seed);
  const out: (IssueSpec & { scope: string[] })[] = [];
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
  const env = { ...process.env, GIT_INDEX_FILE: index };
  try {
    gitWith(repo, env, ["read-tree", from]);
    for (const [path, text] of Object.entries(files)) {
      const blob = gitWith(repo, env, ["hash-object", "-w", "--stdin"], text);
      gitWith(repo, env, ["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`]);
    }
    const tree = gitWith(repo, env, ["write-tree"]);
    const parent = git(repo, "rev-parse", `${from}^{commit}`);
    const commit = git(repo, "commit-tree", tree, "-p", parent, "-m", message);
    git(repo, "update-ref", `refs/heads/${branch}`, commit);
    return commit;
  } finally {
    rmSync(dirname(index), { recursive: true, force: true });
  }
}

/** A file's text at a commit-ish. */
export function showFile(repo: string, rev: string, path: string): string {
  return git(repo, "show", `${rev}:${path}`);
}

/**
 * A remote `origin` whose ssh command waits for the returned `gate` file to appear (at most 6 s),
 * writes in `gate.out` whether it was let through or gave up, and fails, as an unreachable remote does.
 */
export function gatedRemote(repo: string): { gate: string; outcome: () => string | undefined } {
  const gate = join(tempDir("cockpit-gate-"), "go");
  const script = 'i=0; while [ ! -f "$0" ] && [ $i -lt 120 ]; do sleep 0.05; i=$((i+1)); done; if [ -f "$0" ]; then echo released; else echo gave-up; fi > "$0.out"; exit 1';
  git(repo, "config", "core.sshCommand", `sh -c '${script}' ${gate}`);
  git(repo, "config", "ssh.variant", "simple");
  git(repo, "remote", "add", "origin", "ssh://127.0.0.1/nowhere.git");
  return { gate, outcome: () => (existsSync(`${gate}.out`) ? readFileSync(`${gate}.out`, "utf8").trim() : undefined) };
}
