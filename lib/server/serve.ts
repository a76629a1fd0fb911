import { configEnvironment, notifyUrlProblem, resolveConfig } from "../config";
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs, UsageError } from "../surfaces/cli/args";
import { asksForHelp, commandHelp } from "../surfaces/cli/command-help";
import { terminalWidth } from "../surfaces/cli/terminal-width";
import { currentUsers, isLoopback } from "./security";
import { SERVE_HELP, SERVE_OPTIONS } from "./serve-options";

export { SERVE_HELP, SERVE_OPTIONS };

// `cockpit serve --repo DIR [--port P] [--host H] …`: the production Next.js server over one
// repository, behind a front of our own (dist/front.js) that knows each request's real peer. It
// builds first when there is no build, or when the sources or the lock file changed.

/** The folder that holds package.json, app/ and .next/ (found upwards from this file or bundle). */
export const APP_ROOT = findAppRoot(__dirname);

function findAppRoot(from: string): string {
  for (let dir = from; ; dir = resolve(dir, "..")) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "next.config.js"))) return dir;
    if (resolve(dir, "..") === dir) return resolve(from, "..");
  }
}

const SOURCES = ["app", "components", "lib", "public", "proxy.ts", "instrumentation.ts", "next.config.js", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];
/** The build folder (`COCKPIT_DIST_DIR`, as next.config.js reads it; `.next` by default). */
const distDir = () => process.env.COCKPIT_DIST_DIR || ".next";
const stampPath = (root: string) => join(root, distDir(), "cockpit-build.json");

function listFiles(root: string, rel: string, out: string[]): void {
  const path = join(root, rel);
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name === "node_modules" || name.endsWith(".test.ts") || name.endsWith(".test.tsx")) continue;
      listFiles(root, join(rel, name), out);
    }
  } else out.push(rel);
}

/** A digest of everything the build is made from. */
export function sourceDigest(root = APP_ROOT): string {
  const files: string[] = [];
  for (const s of SOURCES) listFiles(root, s, files);
  const hash = createHash("sha256");
  for (const f of files) hash.update(f).update("\0").update(readFileSync(join(root, f))).update("\0");
  return hash.digest("hex");
}

export function isBuildCurrent(root = APP_ROOT): boolean {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(root), "utf8")) as { digest?: string };
    return existsSync(join(root, distDir(), "BUILD_ID")) && stamp.digest === sourceDigest(root);
  } catch {
    return false;
  }
}

/** `next build` takes about a minute here; fifteen is a build that will not finish. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

const nextBin = (root: string) => join(root, "node_modules", "next", "dist", "bin", "next");

/** Build the web app when it is missing or stale, showing next's progress. */
export function ensureBuild(root = APP_ROOT, log: (s: string) => void = (s) => process.stderr.write(s + "\n")): boolean {
  if (isBuildCurrent(root)) return true;
  log("cockpit serve: building the web app (first run, or the sources changed); this takes about a minute…");
  const r = spawnSync(process.execPath, [nextBin(root), "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    // Before the server listens (no request waits on it), yet bounded like every child we start.
    timeout: BUILD_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  if (r.error) log(`cockpit serve: the build did not finish within ${BUILD_TIMEOUT_MS / 60_000} min (${r.error.message})`);
  if (r.status !== 0) return false;
  mkdirSync(join(root, distDir()), { recursive: true });
  writeFileSync(stampPath(root), JSON.stringify({ digest: sourceDigest(root), built: new Date().toISOString() }));
  return true;
}

export { isLoopback };

export interface ServeOptions {
  repo: string;
  port: number;
  host: string;
  buildOnly: boolean;
  usersFile?: string;
  allowedHosts: string[];
  trustProxy: boolean;
  /** The coordination database (`--database`, else COCKPIT_DATABASE_URL from the environment). */
  database?: string;
  /** `Name <email>`: the author of the commits plan.commit makes (git's config otherwise). */
  author?: string;
  /** The branch plan.code measures merges on (else origin/HEAD's branch, else HEAD's). */
  defaultBranch?: string;
  /** `--follow [REMOTE/BRANCH]`: "" for the upstream (else origin/<branch>); absent: no following. */
  follow?: string;
  /** `--follow-interval S`: seconds between syncs (default 60, at least 2). */
  followInterval?: number;
  /** `--notify-url URL`…, else COCKPIT_NOTIFY_URLS: where events are POSTed (docs/inbox.md#webhooks). */
  notifyUrls: string[];
  /** `--ask-escalate-after`: seconds an ask waits before ask.escalated. */
  askEscalateAfterS?: number;
  /** `--lease-ttl S` and `--stale-after S` (lib/config.ts checks them). */
  leaseTtl?: string;
  staleAfter?: string;
}

const HOST_NAME = /^(\.?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function parseServeArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): ServeOptions {
  // `--follow=origin/main` is `--follow origin/main`: the remote and branch are the word after it.
  const split = argv.flatMap((a) => (a.startsWith("--follow=") ? ["--follow", a.slice("--follow=".length)] : [a]));
  const args = parseArgs(split, SERVE_OPTIONS);
  const following = args.options.has("follow");
  if (args.words.length > (following ? 1 : 0)) {
    throw new UsageError(`cockpit serve takes no argument${following ? " but the REMOTE/BRANCH --follow follows" : ""}, but was given '${args.words[following ? 1 : 0]}'`);
  }
  const follow = following ? (args.words[0] ?? "") : undefined;
  if (follow && (!/^[^/\s]+\/[^\s]+$/.test(follow) || follow.startsWith("-") || /[\0-\x20~^:?*[\\]|\.\.|@\{/.test(follow))) {
    throw new UsageError(`--follow takes REMOTE/BRANCH (origin/main), or nothing for the branch's upstream, not '${follow}'`);
  }
  const intervalText = args.options.get("follow-interval");
  if (intervalText !== undefined && !following) throw new UsageError("--follow-interval is the pace of --follow; give --follow too");
  const followInterval = intervalText === undefined ? undefined : Number(intervalText);
  if (followInterval !== undefined && (!/^[0-9]+(\.[0-9]+)?$/.test(intervalText!) || followInterval < 2)) {
    throw new UsageError(`--follow-interval takes seconds, at least 2 (default 60), not '${intervalText}'`);
  }
  const port = args.options.get("port") ?? env.PORT ?? "3000";
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port takes a port number (0-65535), not '${port}'`);
  const host = args.options.get("host") ?? "127.0.0.1";
  const usersOption = args.options.get("users") ?? env.COCKPIT_USERS;
  const usersFile = usersOption ? resolve(usersOption) : undefined;
  if (usersFile) {
    const users = currentUsers(usersFile);
    if (users.problem) throw new UsageError(`${users.problem}; make one with \`cockpit users add NAME --users ${usersOption}\``);
  }
  if (!isLoopback(host) && !env.COCKPIT_TOKEN && !usersFile) {
    throw new UsageError(
      `bound to ${host}, Cockpit is reachable from other machines; set COCKPIT_TOKEN or give --users FILE (every request then needs a signed-in session or Authorization: Bearer <token>), or bind to 127.0.0.1`,
    );
  }
  const allowedHosts = (args.lists.get("allowed-host") ?? []).map((h) => h.trim().toLowerCase());
  for (const h of allowedHosts) {
    if (!HOST_NAME.test(h)) throw new UsageError(`--allowed-host takes a host name (such as cockpit.example.com, or .example.com for its subdomains), not '${h}'`);
  }
  const author = args.options.get("author");
  if (author !== undefined && !/^\s*[^<>]+?\s*<[^<>\s]+@[^<>\s]+>\s*$/.test(author)) {
    throw new UsageError(`--author takes 'Name <email>', not '${author}'`);
  }
  const defaultBranch = args.options.get("default-branch");
  if (defaultBranch !== undefined && (defaultBranch === "" || defaultBranch.startsWith("-") || /[\0-\x20~^:?*[\\]/.test(defaultBranch))) {
    throw new UsageError(`--default-branch takes a branch name (main, origin/main), not '${defaultBranch}'`);
  }
  const notifyUrls = [...(args.lists.get("notify-url") ?? (env.COCKPIT_NOTIFY_URLS ?? "").split(/[\s,]+/).filter(Boolean))];
  for (const url of notifyUrls) {
    const problem = notifyUrlProblem(url);
    if (problem) throw new UsageError(`--notify-url: ${problem}`);
  }
  const escalateText = args.options.get("ask-escalate-after");
  const escalate = escalateText === undefined ? undefined : /^([0-9]+)(s|m|h)?$/.exec(escalateText);
  if (escalateText !== undefined && (!escalate || Number(escalate[1]) === 0)) {
    throw new UsageError(`--ask-escalate-after takes a duration above 0: seconds, or with m or h (4h, 90m), not '${escalateText}'`);
  }
  const askEscalateAfterS = escalate ? Number(escalate[1]) * (escalate[2] === "h" ? 3600 : escalate[2] === "m" ? 60 : 1) : undefined;
  const leaseTtl = args.options.get("lease-ttl");
  const staleAfter = args.options.get("stale-after");
  try {
    resolveConfig({ leaseTtl, staleAfter }, {});
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const repo = resolve(args.options.get("repo") ?? ".");
  if (!existsSync(repo) || !statSync(repo).isDirectory()) throw new UsageError(`--repo ${repo} is not a folder`);
  return {
    repo,
    port: Number(port),
    host,
    buildOnly: args.options.has("build-only"),
    usersFile,
    allowedHosts,
    trustProxy: args.options.has("trust-proxy"),
    ...(args.options.has("database") ? { database: args.options.get("database") } : {}),
    ...(author !== undefined ? { author } : {}),
    ...(defaultBranch !== undefined ? { defaultBranch } : {}),
    ...(follow !== undefined ? { follow } : {}),
    ...(followInterval !== undefined ? { followInterval } : {}),
    notifyUrls,
    ...(askEscalateAfterS !== undefined ? { askEscalateAfterS } : {}),
    ...(leaseTtl !== undefined ? { leaseTtl } : {}),
    ...(staleAfter !== undefined ? { staleAfter } : {}),
  };
}

/** The environment the front and the app read their settings from. */
export function serveEnv(options: ServeOptions, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  return {
    ...env,
    COCKPIT_REPO: options.repo,
    COCKPIT_BIND_HOST: options.host,
    COCKPIT_PORT: String(options.port),
    COCKPIT_USERS: options.usersFile ?? "",
    COCKPIT_ALLOWED_HOSTS: options.allowedHosts.join(","),
    COCKPIT_TRUST_PROXY: options.trustProxy ? "1" : "",
    // The configuration crosses into the front's process as its environment, resolved once here.
    ...configEnvironment(resolveConfig({ database: options.database, author: options.author, leaseTtl: options.leaseTtl, staleAfter: options.staleAfter }, env)),
    COCKPIT_DEFAULT_BRANCH: options.defaultBranch ?? env.COCKPIT_DEFAULT_BRANCH ?? "",
    // "1": the upstream; otherwise the REMOTE/BRANCH given (lib/server/follow.ts reads both).
    COCKPIT_FOLLOW: options.follow === undefined ? "" : options.follow || "1",
    COCKPIT_FOLLOW_INTERVAL: options.followInterval === undefined ? "" : String(options.followInterval),
    COCKPIT_NOTIFY_URLS: options.notifyUrls.join(" "),
    COCKPIT_ASK_ESCALATE_AFTER_S: options.askEscalateAfterS === undefined ? (env.COCKPIT_ASK_ESCALATE_AFTER_S ?? "") : String(options.askEscalateAfterS),
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** What the front's process adds for the app it hosts: a nonce of its own, one session key for
 * every bundle (a new one at each start unless one is configured), and the production mode. */
export function frontEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const secret = env.COCKPIT_SESSION_SECRET;
  return {
    COCKPIT_FRONT_NONCE: randomBytes(16).toString("hex"),
    COCKPIT_SESSION_SECRET: secret && secret.length >= 32 ? secret : randomBytes(32).toString("base64url"),
    NODE_ENV: "production",
  };
}

/** Run the server until it exits; returns its exit code. */
export async function runServe(argv: readonly string[]): Promise<number> {
  if (asksForHelp(argv)) {
    process.stdout.write(commandHelp("usage: cockpit serve [options]", "The browser Cockpit, the HTTP API and MCP over HTTP, for one repository.", SERVE_OPTIONS, SERVE_HELP, terminalWidth()) + "\n");
    return 0;
  }
  let options: ServeOptions;
  try {
    options = parseServeArgs(argv);
  } catch (error) {
    process.stderr.write(`cockpit serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (!ensureBuild()) {
    process.stderr.write("cockpit serve: the build failed (see above)\n");
    return 13;
  }
  if (options.buildOnly) return 0;
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  const plan = relative(process.cwd(), options.repo) || ".";
  process.stderr.write(`cockpit serve: Cockpit for ${plan} at http://${shown}:${options.port}/\n`);
  const child = spawn(process.execPath, [join(APP_ROOT, "dist", "front.js")], {
    cwd: APP_ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...serveEnv(options), ...frontEnvironment(process.env) } as NodeJS.ProcessEnv,
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  return new Promise((done) => child.on("exit", (code, signal) => done(code ?? (signal ? 0 : 1))));
}
