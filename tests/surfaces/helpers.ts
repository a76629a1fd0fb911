// Shared fixtures of the surface tests: a free port, a fresh copy of the demo repository, the
// production server over it, MCP clients (stdio and streamable HTTP) and the command line.
// Nothing here writes outside a temporary folder, except the web build `cockpit serve
// --build-only` keeps in .next/ (reused while the sources are unchanged).
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { fetchWithin } from "../support/fetch-within";
import { freePort } from "../support/ports";
import { createHash } from "node:crypto";
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { inject } from "vitest";
import { watchChild } from "../support/processes";

export const ROOT = join(__dirname, "..", "..");
export const CLI = join(ROOT, "bin", "cockpit");
const NEXT_BIN = join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** The repository the surface tests serve: the bundled demo, or the majordomus corpus without it. */
export const SOURCE_REPO = existsSync(join(ROOT, "examples", "demo", ".ai", "repo", "project", "project.yaml"))
  ? join(ROOT, "examples", "demo")
  : join(ROOT, "tests", "fixtures", "majordomus");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ temporary repositories

const created: string[] = [];

/** A fresh temporary copy of SOURCE_REPO (removed by `cleanup`). */
export function copyRepo(prefix = "cockpit-surface-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  cpSync(SOURCE_REPO, dir, { recursive: true });
  return dir;
}

/**
 * Put a copy back in SOURCE_REPO's state, in place (same path: a server started over it keeps
 * serving it). Every file is rewritten, so caches keyed by inode, size and times see the change.
 */
export function resetRepo(dir: string): void {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
  cpSync(SOURCE_REPO, dir, { recursive: true });
}

/** Remove every folder `copyRepo` made (and `ensureBuild`, outside a run that shares its build). */
export function cleanup(): void {
  while (created.length > 0) rmSync(created.pop()!, { recursive: true, force: true });
}

/** Every file under a folder, relative, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** One digest of every file of a repository (records, ledger, lock, anything): what "wrote nothing" compares. */
export function hashRepo(dir: string): string {
  const hash = createHash("sha256");
  for (const f of filesUnder(dir)) hash.update(f).update("\0").update(readFileSync(join(dir, f))).update("\0");
  return hash.digest("hex");
}

// ------------------------------------------------------------------ ports and the web build

export { freePort };

// One lock per checkout (its .next/ is what the lock guards), not one for every checkout on the machine.
const BUILD_LOCK = join(tmpdir(), `cockpit-surface-tests-build-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}.lock`);

/**
 * `node bin/cockpit serve --build-only`: builds the web app when it is missing or stale, reuses it
 * otherwise; then takes a copy of the build for the servers and returns its folder (relative to the
 * app, as next.config.js's COCKPIT_DIST_DIR wants it). A server started over the copy keeps working
 * when .next/ is rebuilt under it. The copy is the run's (tests/support/global-setup.ts): the first
 * file builds and copies, the others take it as it is. Serialised across test files (vitest runs
 * them in parallel workers) by a lock file, so two `next build`s never share one .next/.
 */
export async function ensureBuild(): Promise<string> {
  const started = Date.now();
  for (;;) {
    try {
      const fd = openSync(BUILD_LOCK, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A lock left by a crashed run is older than any build.
      try {
        if (Date.now() - statSync(BUILD_LOCK).mtimeMs > 10 * 60_000) unlinkSync(BUILD_LOCK);
      } catch {
        /* gone already */
      }
      if (Date.now() - started > 10 * 60_000) throw new Error("waited 10 minutes for another test file's web build");
      await sleep(250);
    }
  }
  try {
    const shared = inject("cockpitBuildCopy");
    if (shared && existsSync(join(ROOT, shared, "BUILD_ID"))) return shared;
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, "serve", "--build-only"], {
        cwd: ROOT,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stdout.on("data", () => undefined);
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("exit", (code) => resolve({ code, stderr }));
    });
    if (r.code !== 0) throw new Error(`cockpit serve --build-only exited ${r.code}:\n${r.stderr.slice(-4000)}`);
    // The copy lives inside the app (Next refuses a distDir outside it), where git and builds leave it alone.
    const copies = join(ROOT, "node_modules", ".cache", "cockpit-surface-tests");
    // Copies a killed run left behind.
    for (const old of existsSync(copies) ? readdirSync(copies) : []) {
      if (Date.now() - statSync(join(copies, old)).mtimeMs > 3 * 3600_000) rmSync(join(copies, old), { recursive: true, force: true });
    }
    // The run's copy is removed when the run ends, a file's own (outside a vitest run) by cleanup().
    const dist = shared ?? join("node_modules", ".cache", "cockpit-surface-tests", `${process.pid}-${Date.now()}`);
    const source = join(ROOT, ".next");
    // fs.cp resolves relative links (.next/node_modules/<external> -> ../../node_modules/…) to absolute ones.
    cpSync(source, join(ROOT, dist), { recursive: true, filter: (src) => !src.startsWith(join(source, "cache")) });
    if (!existsSync(join(ROOT, dist, "BUILD_ID"))) throw new Error(`the copy of the build in ${dist} has no BUILD_ID`);
    if (!shared) created.push(join(ROOT, dist));
    return dist;
  } finally {
    unlinkSync(BUILD_LOCK);
  }
}

// ------------------------------------------------------------------ the production server

export interface RunningServer {
  url: string;
  port: number;
  repo: string;
  /** What the server printed, for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

/** `next start` on a free loopback port over `repo`, from the build `ensureBuild` returned. */
export async function startServer(dist: string, repo: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    // Bound to loopback, and said so (a server that does not know its bind asks for a token when it has one).
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", COCKPIT_DIST_DIR: dist, COCKPIT_REPO: repo, COCKPIT_TOKEN: "", COCKPIT_BIND_HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watched = watchChild(child);
  const { exit } = watched;
  const server: RunningServer = {
    url,
    port,
    repo,
    log: watched.output,
    async stop() {
      if (watched.exited()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (watched.exited()) throw new Error(`next start exited before it answered:\n${watched.output()}`);
    try {
      const r = await fetchWithin(`${url}/api/v1/openapi.json`, {}, 5_000);
      if (r.status === 200) return server;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`next start did not answer within 60 s:\n${watched.output()}`);
    }
    await sleep(100);
  }
}

// ------------------------------------------------------------------ MCP clients

export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

/** An SDK client over stdio to `node bin/cockpit mcp --repo <repo>`. */
export async function mcpStdio(repo: string, options: readonly string[] = []): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--repo", repo, ...options],
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string")),
    stderr: "pipe",
  });
  transport.stderr?.on("data", () => undefined);
  const client = new Client({ name: "cockpit-surface-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/**
 * An SDK client linked in memory to the MCP server `cockpit mcp --repo <repo>` runs (options:
 * `--reference-names`): the MCP surface in process. tests/surfaces/contract-document.test.ts keeps
 * `cockpit mcp` as a process over stdio.
 */
export async function mcpMemory(repo: string, options: readonly string[] = []): Promise<McpConnection> {
  const { mcpInMemory } = await import("../support/mcp-memory");
  const client = await mcpInMemory(repo, "cockpit-surface-tests", { names: options.includes("--reference-names") ? "reference" : "cockpit" });
  return { client, close: () => client.close() };
}

/** An SDK client over streamable HTTP to `<url>/api/mcp` (stateless, JSON responses). */
export async function mcpHttp(url: string, headers: Record<string, string> = {}, path = "/api/mcp"): Promise<McpConnection> {
  const transport = new StreamableHTTPClientTransport(new URL(path, url), { requestInit: { headers } });
  const client = new Client({ name: "cockpit-surface-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

// ------------------------------------------------------------------ the command line

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node bin/cockpit <args>`, asynchronously (several may run at once). */
export function runCli(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `node bin/cockpit <args>`, synchronously. */
export function runCliSync(args: readonly string[]): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}
