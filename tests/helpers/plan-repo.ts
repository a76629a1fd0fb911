// Fixture builder for the transition tests: a real repository (real files, real `git init`) in a
// fresh temporary folder, and a copy of the majordomus corpus when a test needs real records.
// Nothing here ever writes under tests/fixtures.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { buildSync } from "esbuild";

export const ROOT = join(__dirname, "..", "..");
export const CORPUS = join(ROOT, "tests", "fixtures", "majordomus");
export const PROJECT = ".ai/repo/project";
export const ISSUES = `${PROJECT}/issues`;
export const MILESTONES = `${PROJECT}/milestones`;
export const LEDGER = ".ai/local/state/ledger.jsonl";
export const LOCK = ".ai/local/state/plan.lock";
export const CLI = join(ROOT, "bin", "cockpit");

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
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}

function gitInit(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "tests@cockpit.invalid");
  git(dir, "config", "user.name", "Cockpit Tests");
  git(dir, "config", "commit.gpgsign", "false");
}

export interface IssueSpec {
  id: string;
  milestone?: string;
  priority?: string;
  depends_on?: string[];
  evidence_required?: string[];
  cancelled?: boolean;
  /** Raw lines appended after the generated ones (stamps, seals, evidence, …). */
  extra?: string;
}

export interface MilestoneSpec {
  id: string;
  order?: number;
  depends_on?: string[];
  evidence_required?: string[];
  extra?: string;
}

const flow = (items: readonly string[]) => `[${items.join(", ")}]`;

/** A complete issue record (as test/lib.sh `pj_issue`): block evidence goes last. */
export function issueYaml(s: IssueSpec): string {
  const lines = [
    `id: ${s.id}`,
    `milestone: ${s.milestone ?? "M1"}`,
    `title: Issue ${s.id}`,
    `slug: ${s.id.toLowerCase()}`,
    `priority: ${s.priority ?? "p1"}`,
    "profile: implementation",
    `objective: Objective of ${s.id}`,
    `scope: [src/${s.id}]`,
    `depends_on: ${flow(s.depends_on ?? [])}`,
    "acceptance_criteria: [it works]",
    'validation: ["true"]',
    `evidence_required: ${flow(s.evidence_required ?? ["proof"])}`,
  ];
  if (s.cancelled) lines.push("cancelled: true");
  lines.push("created_at: 2026-10-01");
  return lines.join("\n") + "\n" + (s.extra ?? "");
}

export function milestoneYaml(s: MilestoneSpec): string {
  const lines = [
    `id: ${s.id}`,
    `title: Milestone ${s.id}`,
    `slug: ${s.id.toLowerCase()}`,
    `order: ${s.order ?? 1}`,
    "priority: p1",
    "problem: a problem",
    "outcome: an outcome",
    "acceptance_criteria: [done]",
    "validation: [check]",
    `evidence_required: ${flow(s.evidence_required ?? [])}`,
    `depends_on: ${flow(s.depends_on ?? [])}`,
  ];
  return lines.join("\n") + "\n" + (s.extra ?? "");
}

export interface RepoSpec {
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
  repo.write(`${PROJECT}/project.yaml`, "schema_version: 1\nname: Test\nrepository: tests/plan\ndefault_branch: main\n");
  for (const m of spec.milestones ?? [{ id: "M1" }]) repo.write(`${MILESTONES}/${m.id}.yaml`, milestoneYaml(m));
  for (const i of spec.issues ?? []) repo.writeIssue(i.id, "raw" in i ? i.raw : issueYaml(i));
  for (const [rel, text] of Object.entries(spec.files ?? {})) repo.write(rel, text);
  if (spec.commit) repo.commitAll();
  return repo;
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

// ---- the command line ------------------------------------------------------------------------

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  pid: number;
  /** When the process was spawned and when it exited (ms since the epoch). */
  spawnedAt: number;
  exitedAt: number;
}

/** Make sure dist/cli.js exists and is not older than the sources (builds once when it is). */
export function ensureCliBuilt(): void {
  const bundle = join(ROOT, "dist", "cli.js");
  let newest = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) newest = Math.max(newest, st.mtimeMs);
    }
  };
  walk(join(ROOT, "lib"));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= newest) return;
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build-cli.mjs")], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm run build:cli failed: ${r.stderr}`);
}

/** Spawn `node bin/cockpit plan …`; resolves when it exits (never rejects on a non-zero exit). */
export function spawnCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; onSpawn?: () => void } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [CLI, "plan", ...args], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("spawn", () => options.onSpawn?.());
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ code, signal, stdout, stderr, pid: child.pid ?? -1, spawnedAt, exitedAt: Date.now() }),
    );
  });
}

/** A pid that belonged to a process which has exited (and been reaped). */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

/** A deterministic pseudo-random generator (mulberry32), so "random" delays repeat run to run. */
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

// ---- small node scripts that use the library (bundled with esbuild, run as real processes) ----

/**
 * Bundle a TypeScript snippet into a runnable script. `source` may import the library by the
 * absolute paths `libPath("plan/lock")` gives.
 */
export function bundleScript(name: string, source: string): string {
  const dir = tempDir("cockpit-script-");
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const out = join(dir, `${name}.cjs`);
  buildSync({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: out, logLevel: "warning" });
  return out;
}

/** The absolute import path of a library module, for `bundleScript` sources. */
export function libPath(module: string): string {
  return JSON.stringify(join(ROOT, "lib", module));
}

export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

/** Run a script to its end, killing it (SIGKILL) if it outlives `timeoutMs`. */
export function runNode(script: string, args: readonly string[] = [], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 10_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}
