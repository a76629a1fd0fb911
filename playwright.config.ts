import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

// End-to-end tests in a real browser (Debian's chromium) against the production build, in two
// workers. Each worker serves its own copy of the demo plan and of the real corpus (majordomus),
// started by the worker (e2e/fixtures.ts) on a free port, so two test files never write to one
// plan; a second copy of the demo that only e2e/plans.spec.ts drives (an execution plan finishes a
// whole milestone, which would change what the demo's tests expect) and the doors project's server
// are started once, here. The tests write to these copies (moves, evidence, edits on disk), never
// to the checked-in plans.
//
// The build is NOT made here: `npm test` (scripts/test-all.mjs) runs `cockpit serve --build-only`
// first. To test a second build folder (so a concurrent rebuild of .next does not disturb a run),
// build it with COCKPIT_DIST_DIR=.next-e2e and run Playwright with the same variable.

const ROOT = __dirname;
const DIST = process.env.COCKPIT_DIST_DIR || ".next";
const BASE_PORT = Number(process.env.COCKPIT_E2E_PORT ?? 3301);

// The demo copy gets the demo's six weeks of history (scripts/demo-history.mjs, as `npm run demo`),
// so /standup, the timelines and the burn-up have a past; the others are one commit.
// A project `perWorker` gets a server per worker over the worker's copy of this one (the template);
// the others get the one server below.
export const REPOS = {
  demo: { source: "examples/demo", port: 0, history: true, perWorker: true },
  majordomus: { source: "tests/fixtures/majordomus", port: 0, history: false, perWorker: true },
  plans: { source: "examples/demo", port: BASE_PORT, history: false, perWorker: false },
  doors: { source: "examples/demo", port: BASE_PORT + 1, history: false, perWorker: false },
} as const;

/** The specs that only their own project runs (each over its own copy), and the others do not. */
const OWN_SPECS: Partial<Record<string, RegExp>> = { plans: /[\\/]plans\.spec\.ts$/, doors: /[\\/]doors\.spec\.ts$/ };
const ANY_OWN_SPEC = /[\\/](plans|doors|follow)\.spec\.ts$/;

/** The shared token and the users of the doors project's server (bound beyond loopback). */
export const DOORS_TOKEN = "e2e-doors-shared-token";
export const DOORS_USERS = ["ada", "bob"] as const;
/** A coding agent of the doors project's users file (`cockpit users add NAME --agent`). */
export const DOORS_AGENT = "builder-1";

export type RepoName = keyof typeof REPOS;

/** `git` in `cwd`, with an identity of its own so a machine without one still commits. */
function git(cwd: string, ...args: string[]) {
  execFileSync("git", ["-c", "user.name=Cockpit e2e", "-c", "user.email=e2e@cockpit.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    stdio: "ignore",
  });
}

/**
 * The demo's history ends yesterday, and /standup opens on the previous working day as the server
 * sees it when a test runs: a run that crosses midnight (UTC) would find yesterday's changes gone.
 * Within this much of midnight the runner waits for the new day before it writes the history.
 */
const MIDNIGHT_MARGIN_MS = 12 * 60_000;

function waitPastMidnight(): void {
  const now = Date.now();
  const toMidnight = 86_400_000 - (now % 86_400_000);
  if (toMidnight > MIDNIGHT_MARGIN_MS) return;
  console.log(`e2e: ${Math.ceil(toMidnight / 1000)} s to midnight (UTC): waiting for the new day, so the demo's "yesterday" holds for the whole run`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, toMidnight + 5_000);
}

// The config is loaded by the runner and again by every worker: the runner makes the copies and
// names them in the environment, which the workers (and the web servers) inherit.
if (!process.env.COCKPIT_E2E_ROOT) {
  waitPastMidnight();
  const root = mkdtempSync(join(tmpdir(), "cockpit-e2e-"));
  for (const [name, { source, history }] of Object.entries(REPOS)) {
    const dir = join(root, name);
    if (history) {
      execFileSync(process.execPath, [join(ROOT, "scripts/demo-history.mjs"), dir], { stdio: "ignore" });
      continue;
    }
    cpSync(join(ROOT, source), dir, { recursive: true });
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", `Plan copied from ${source}`);
  }
  // The doors project's users, made as a lead would: `cockpit users add NAME --users FILE`.
  const tokens: Record<string, string> = {};
  for (const name of [...DOORS_USERS, DOORS_AGENT]) {
    const kind = name === DOORS_AGENT ? ["--agent"] : [];
    tokens[name] = execFileSync(process.execPath, [join(ROOT, "bin", "cockpit"), "users", "add", name, ...kind, "--users", join(root, "doors-users.yaml")], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  }
  process.env.COCKPIT_E2E_DOORS_TOKENS = JSON.stringify(tokens);
  process.env.COCKPIT_E2E_ROOT = root;
  // Removed when the runner exits (kept with COCKPIT_E2E_KEEP=1, to look at what the tests wrote).
  process.on("exit", () => {
    if (!process.env.COCKPIT_E2E_KEEP) rmSync(root, { recursive: true, force: true });
  });
}
const E2E_ROOT = process.env.COCKPIT_E2E_ROOT;

if (!existsSync(join(ROOT, DIST, "BUILD_ID"))) {
  throw new Error(`no production build in ${DIST}/: run \`node bin/cockpit serve --build-only\` (npm test does) before Playwright`);
}

export default defineConfig({
  testDir: "./e2e",
  outputDir: "test-results",
  // One worker by default: with two on a two-core machine (COCKPIT_E2E_WORKERS=2, each with its own
  // copies and servers) a few tests still time out under the load; a file's tests run in order.
  fullyParallel: false,
  workers: Number(process.env.COCKPIT_E2E_WORKERS ?? 1),
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    viewport: { width: 1280, height: 800 },
    // With COCKPIT_E2E_SHOTS=1 each test saves a screenshot of every page it visits, and of its
    // last state, into test-results/screenshots/ (e2e/fixtures.ts); Playwright adds one to a failed
    // test's report.
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: (Object.entries(REPOS) as [RepoName, (typeof REPOS)[RepoName]][]).filter(([, { perWorker }]) => !perWorker).map(([name, { port }]) => ({
    // The doors project's server is bound beyond loopback (every address, IPv6 and IPv4), as a
    // team would serve it: `cockpit serve` with a shared token and a users file.
    command:
      name === "doors"
        ? `node bin/cockpit serve --repo ${join(E2E_ROOT, name)} --host :: --port ${port} --users ${join(E2E_ROOT, "doors-users.yaml")}`
        : `node node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`,
    cwd: ROOT,
    // A 401 also says the server is up (the doors server answers nobody without a token).
    url: `http://127.0.0.1:${port}/api/v1/plan`,
    env: {
      COCKPIT_REPO: join(E2E_ROOT, name),
      NEXT_TELEMETRY_DISABLED: "1",
      COCKPIT_DIST_DIR: DIST,
      ...(name === "doors" ? { COCKPIT_TOKEN: DOORS_TOKEN } : { COCKPIT_BIND_HOST: "127.0.0.1" }),
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  })),
  projects: [
    ...(Object.entries(REPOS) as [RepoName, (typeof REPOS)[RepoName]][]).map(([name, { port, perWorker }]) => ({
      name,
      ...(OWN_SPECS[name]
        ? { testMatch: OWN_SPECS[name] }
        : // A test tagged with the other repository's name is not run here.
          { testIgnore: ANY_OWN_SPEC, grepInvert: name === "demo" ? /@majordomus/ : /@demo/ }),
      // A per-worker project's address is its worker's server's (e2e/fixtures.ts sets baseURL).
      use: perWorker ? {} : { baseURL: `http://127.0.0.1:${port}` },
      metadata: { repo: join(E2E_ROOT, name), perWorker, dist: DIST },
    })),
    // e2e/follow.spec.ts starts its own `cockpit serve --follow` servers over a bare origin and clones.
    { name: "follow", testMatch: /[\\/]follow\.spec\.ts$/ },
  ],
});
