// Processes for the tests: the `cockpit` command as a real process, and small node scripts that
// use the library (bundled with esbuild), with their exit, output and timing.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { ROOT, tempDir } from "./repo";

export const CLI = join(ROOT, "bin", "cockpit");

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

/** The JSON a command printed, from a run that must have succeeded (else its exit and stderr are thrown). */
export function jsonOf(r: CliRun): any {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/**
 * What a command said when it refused: its stderr, or under --json (where a refusal is HTTP's error
 * body on stdout and stderr stays empty) the error's message.
 */
export function refusalOf(r: { stdout: string; stderr: string }): string {
  if (r.stderr !== "") return r.stderr;
  try {
    const body = JSON.parse(r.stdout) as { error?: { message?: unknown } } | null;
    return typeof body?.error?.message === "string" ? body.error.message : r.stderr;
  } catch {
    return r.stderr;
  }
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
  options: {
    env?: Record<string, string | undefined>;
    onSpawn?: () => void;
    command?: "plan" | "plans";
    /** A command that runs the node command after it (`setpriv --reuid=…`, `sh -c 'ulimit -f 8; exec "$0" "$@"'`). */
    wrap?: readonly string[];
  } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const spawnedAt = Date.now();
    const [file, ...rest] = [...(options.wrap ?? []), process.execPath, CLI, options.command ?? "plan", ...args];
    const child = spawn(file, rest, { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
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

/**
 * Bundle a TypeScript snippet into a runnable script. `source` may import the library by the
 * absolute paths `libPath("repo/lock")` gives.
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

/** A spawned server's output (stdout and stderr together) and its exit, for a test's waiting and its failure messages. */
export function watchChild(child: ChildProcess): { output: () => string; exited: () => boolean; exit: Promise<void> } {
  let output = "";
  let exited = false;
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exit = new Promise<void>((resolve) =>
    child.on("exit", () => {
      exited = true;
      resolve();
    }),
  );
  return { output: () => output, exited: () => exited, exit };
}
