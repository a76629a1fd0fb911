import type { Plan } from "../lib/plan/shapes";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { startServe } from "../tests/support/serve-process";
import { test as base, expect, type BrowserContext, type Page, type Request, type TestInfo } from "@playwright/test";

export { expect };

const ROOT = join(__dirname, "..");
const PROJECT_DIR = ".ai/repo/project";

/** The checked-in plan each project's copy was made from (pristine bytes to restore). */
const SOURCES: Record<string, string> = { demo: "examples/demo", majordomus: "tests/fixtures/majordomus", plans: "examples/demo", doors: "examples/demo" };

export interface Problem {
  kind: "console" | "pageerror" | "response" | "requestfailed";
  text: string;
}

export interface Repo {
  /** The temporary copy this project's server shows. */
  dir: string;
  /** A record file's path in the copy: `issue("BK-020")`, `milestone("booking")`. */
  issue(id: string): string;
  milestone(id: string): string;
  /** Put a record file of the copy back to the bytes of the checked-in plan. */
  restore(...paths: string[]): void;
  /** `cockpit …` on the copy; returns stdout. */
  cockpit(...args: string[]): string;
}

interface Fixtures {
  repo: Repo;
  /** Everything the page reported as wrong so far (the check at the end of each test reads it). */
  problems: Problem[];
  /** goto + wait for the page to settle + a screenshot into test-results/screenshots/. */
  visit: (path: string) => Promise<void>;
  /** A screenshot of the page as it is now, into test-results/screenshots/. */
  shot: (label?: string) => Promise<void>;
}

/**
 * A record's bytes as the copy was made: its last commit (the demo copy is a history whose dates
 * are moved to end yesterday, so it differs from examples/demo), else the checked-in plan.
 */
function pristineBytes(dir: string, source: string, rel: string): Buffer {
  try {
    return execFileSync("git", ["show", `HEAD:${rel.split("\\").join("/")}`], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return readFileSync(join(source, rel));
  }
}

function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 80) || "root";
}

/**
 * Screenshots of every page a test visits and of its last state, into
 * test-results/screenshots/, when COCKPIT_E2E_SHOTS=1 (to look at the pages); a failed test's own
 * screenshot is Playwright's, always. Off by default: they cost a run a minute and nobody reads them.
 */
const SHOTS = process.env.COCKPIT_E2E_SHOTS === "1";

async function screenshot(page: Page, info: TestInfo, counter: { n: number }, label?: string) {
  if (!SHOTS) return;
  const dir = join(info.project.outputDir, "screenshots");
  mkdirSync(dir, { recursive: true });
  const where = label ?? new URL(page.url()).pathname + new URL(page.url()).hash;
  const name = `${info.project.name}--${slug(info.titlePath.slice(1).join(" "))}--${String(++counter.n).padStart(2, "0")}-${slug(where)}.png`;
  await page.screenshot({ path: join(dir, name), fullPage: false }).catch(() => {
    /* a page closed mid-test has nothing to show */
  });
}

/**
 * Ignored, because nothing failed: the browser aborting the live-update channel (an EventSource)
 * or the header's poll of the sync state when the page navigates away, and Next's router aborting its own link prefetches (it reads a
 * dynamic page's prefetch response up to what it can cache, then cancels the rest, and cancels
 * prefetches it no longer needs), and the router dropping the tail of an RSC response (of a
 * navigation, a refresh or a server action) that the server answered with a success status. An
 * RSC request aborted before any answer, or answered with an error status, is still reported.
 * Nothing else is ignored.
 */
async function isHarmlessAbort(request: Request, failure: string | undefined): Promise<boolean> {
  if (!(failure ?? "").includes("ERR_ABORTED")) return false;
  if (request.resourceType() === "eventsource") return true;
  // The header's poll of the sync state (GET /api/v1/sync) cut by a navigation or the page closing:
  // the next page asks again.
  if (request.resourceType() === "fetch" && request.method() === "GET" && new URL(request.url()).pathname === "/api/v1/sync") return true;
  const h = request.headers();
  if (request.resourceType() !== "fetch" || !(h.rsc === "1" || h["next-action"])) return false;
  if (h["next-router-prefetch"] === "1") return true;
  // A navigation, a refresh or a server action the server answered (2xx) whose stream the router
  // stops reading once it has what it renders: the page shows the answer; the tail is dropped.
  const response = await request.response().catch(() => null);
  return !!response && response.status() < 400;
}

/** The path of a router fetch of a page's server render (a GET with `rsc: 1`, no prefetch), else undefined. */
function rscRenderPath(request: Request): string | undefined {
  const h = request.headers();
  if (request.resourceType() !== "fetch" || request.method() !== "GET" || h.rsc !== "1" || h["next-router-prefetch"] === "1") return undefined;
  return new URL(request.url()).pathname;
}

/** The path of a load of a page itself (a navigation or a reload), else undefined. */
function documentPath(request: Request): string | undefined {
  if (request.resourceType() !== "document" || request.method() !== "GET") return undefined;
  return new URL(request.url()).pathname;
}

interface WorkerFixtures {
  /** The server this worker's tests visit, and the plan it serves. */
  server: { url: string; dir: string };
  /** One browser context per worker (so per project), its HTTP cache shared by the tests. */
  sharedContext: BrowserContext;
}

/**
 * A project marked `perWorker` (playwright.config.ts) gets, in each worker, its own copy of the
 * project's plan and its own `cockpit serve` over it on a free port: two workers never write to one
 * plan. The others share the server the config started.
 */
async function workerServer(metadata: Record<string, unknown>, configured: string | undefined, workerIndex: number) {
  const template = metadata.repo as string;
  if (!metadata.perWorker) return { url: configured!, dir: template, stop: async () => {} };
  const dir = `${template}-worker-${workerIndex}`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  const served = await startServe(dir, [], { env: { COCKPIT_DIST_DIR: metadata.dist as string } });
  const stop = async () => {
    await served.stop();
    if (!process.env.COCKPIT_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  };
  return { url: served.url, dir, stop };
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // The app keeps nothing in the browser (no cookie, no storage): what a test inherits from the
  // one before is the HTTP cache of the app's scripts, which saves each test loading them again.
  server: [
    async ({}, use, worker) => {
      const s = await workerServer(worker.project.metadata, worker.project.use.baseURL, worker.workerIndex);
      await use({ url: s.url, dir: s.dir });
      await s.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  sharedContext: [
    async ({ browser, server }, use, worker) => {
      const { viewport } = worker.project.use;
      const context = await browser.newContext({ baseURL: server.url, viewport, acceptDownloads: true });
      await use(context);
      await context.close();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  context: async ({ sharedContext }, use) => {
    await use(sharedContext);
    for (const p of sharedContext.pages()) await p.close();
  },

  repo: async ({ server }, use, info) => {
    const dir = server.dir;
    const source = join(ROOT, SOURCES[info.project.name]);
    const rel = (p: string) => (p.startsWith(dir) ? p.slice(dir.length + 1) : p);
    await use({
      dir,
      issue: (id) => join(dir, PROJECT_DIR, "issues", `${id}.yaml`),
      milestone: (id) => join(dir, PROJECT_DIR, "milestones", `${id}.yaml`),
      restore: (...paths) => {
        for (const p of paths) {
          const pristine = pristineBytes(dir, source, rel(p));
          if (!readFileSync(p).equals(pristine)) writeFileSync(p, pristine);
        }
      },
      cockpit: (...args) =>
        execFileSync(process.execPath, [join(ROOT, "bin/cockpit"), ...args, "--repo", dir], { cwd: ROOT, encoding: "utf8" }),
    });
  },

  problems: async ({}, use) => {
    await use([]);
  },

  page: async ({ page, problems }, use, info) => {
    trackInFlight(page);
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push({ kind: "console", text: `${msg.text()} (${msg.location().url})` });
    });
    page.on("pageerror", (error) => problems.push({ kind: "pageerror", text: `${error.name}: ${error.message}` }));
    page.on("response", (response) => {
      if (response.status() >= 400) {
        problems.push({ kind: "response", text: `${response.status()} ${response.request().method()} ${response.url()}` });
      }
    });
    // The renders of a page that finished well, by path and time (the router's fetches of a page's
    // server render, GET ?_rsc=…, and loads of the page itself, as a reload): an earlier router
    // fetch of the same path aborted before them was superseded, not lost.
    const rendered = new Map<string, number>();
    const superseded = new Map<Problem, { path: string; at: number }>();
    page.on("requestfinished", async (request) => {
      const path = rscRenderPath(request) ?? documentPath(request);
      const answered = path === undefined ? null : await request.response().catch(() => null);
      if (path !== undefined && answered && answered.status() < 400) rendered.set(path, Date.now());
    });
    page.on("requestfailed", async (request) => {
      const at = Date.now();
      const failure = request.failure()?.errorText;
      if (await isHarmlessAbort(request, failure)) return;
      const h = request.headers();
      const kind = h["next-action"] ? " [server action]" : h.rsc ? ` [rsc${h["next-router-prefetch"] ? " prefetch" : ""}]` : "";
      const answered = await request.response().catch(() => null);
      const after = answered ? ` after a ${answered.status()} answer` : "";
      const problem: Problem = { kind: "requestfailed", text: `${request.resourceType()} ${request.method()} ${request.url()}${kind}: ${failure}${after}` };
      problems.push(problem);
      const path = rscRenderPath(request);
      if (path !== undefined && !answered && (failure ?? "").includes("ERR_ABORTED")) superseded.set(problem, { path, at });
    });
    await use(page);
    // Let the page finish what it fetches, so closing it aborts nothing but the live-update
    // channel; then keep its last state too.
    await quiet(page).catch(() => {});
    if (!page.isClosed()) await screenshot(page, info, shotCounter(info), "end");
    // A refresh the router dropped for a newer render of the same page (a move's own refresh, then
    // the live stream's, or a reload) is no failure when that newer one was answered well.
    for (const [problem, { path, at }] of superseded) {
      if ((rendered.get(path) ?? 0) >= at && problems.includes(problem)) problems.splice(problems.indexOf(problem), 1);
    }
    expect(problems, "console errors, page errors and failed requests").toEqual([]);
  },

  visit: async ({ page }, use, info) => {
    await use(async (path) => {
      // A navigation aborts what the previous page still fetches: let it finish first.
      await quiet(page);
      await page.goto(path);
      await settle(page);
      await screenshot(page, info, shotCounter(info));
    });
  },

  shot: async ({ page }, use, info) => {
    await use((label) => screenshot(page, info, shotCounter(info), label));
  },
});

const counters = new WeakMap<TestInfo, { n: number }>();
function shotCounter(info: TestInfo) {
  let c = counters.get(info);
  if (!c) counters.set(info, (c = { n: 0 }));
  return c;
}

/** The page has loaded, React has hydrated it, the live-update channel is open and its fetches are done. */
export async function settle(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "live");
  await quiet(page);
}

const inFlight = new WeakMap<Page, Set<Request>>();

function trackInFlight(page: Page) {
  const set = new Set<Request>();
  inFlight.set(page, set);
  page.on("request", (r) => {
    // The live-update channel stays open for the page's life; a download is not a fetch; a link
    // prefetch is the router's to cancel (see isHarmlessAbort).
    if (r.resourceType() === "eventsource" || r.url().startsWith("blob:") || r.headers()["next-router-prefetch"] === "1") return;
    set.add(r);
  });
  page.on("requestfinished", (r) => set.delete(r));
  // An error status is reported when it arrives; its body may never be read to the end.
  page.on("response", (r) => {
    if (r.status() >= 400) set.delete(r.request());
  });
  page.on("requestfailed", (r) => set.delete(r));
}

/**
 * Wait until the page has had no request in flight (the live-update channel aside) for `idleMs`:
 * Next prefetches the links it shows, and a navigation would abort those fetches half-way.
 */
export async function quiet(page: Page, { idleMs = 150, timeout = 10_000 } = {}) {
  const set = inFlight.get(page);
  if (!set || page.isClosed()) return;
  const deadline = Date.now() + timeout;
  let idleSince = set.size === 0 ? Date.now() : 0;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    if (set.size > 0) idleSince = 0;
    else if (!idleSince) idleSince = Date.now();
    else if (Date.now() - idleSince >= idleMs) return;
  }
  throw new Error(`the page still fetches after ${timeout} ms: ${[...set].map((r) => r.url()).join(", ")}`);
}

/** Wait until the server serves `check` true of the plan (after a change on disk). */
export async function waitForPlan(page: Page, check: (plan: PlanJson) => boolean, timeout = 5_000) {
  await expect
    .poll(async () => check((await (await page.request.get("/api/v1/plan")).json()) as PlanJson), { timeout })
    .toBe(true);
}

/** The plan as GET /api/v1/plan answers it: the product's own type, never a copy of it. */
export type PlanJson = Plan;

export interface SeriousViolation {
  rule: string;
  impact: string;
  help: string;
  count: number;
  nodes: string[];
}

/**
 * axe's serious and critical violations on the page as it is now (axe's default rules: WCAG 2.x A
 * and AA, and best practices). The whole report is attached to the test. Legacy mode runs axe in
 * the page itself: these pages have no frames, and it is several times faster on the big graphs
 * than axe's cross-frame mode.
 */
export async function seriousViolations(page: Page, label = new URL(page.url()).pathname): Promise<SeriousViolation[]> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] }).analyze();
  await test.info().attach(`axe ${label}`, { body: JSON.stringify(results.violations, null, 2), contentType: "application/json" });
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      count: v.nodes.length,
      nodes: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(" ")} — ${n.html.slice(0, 160)} — ${(n.failureSummary ?? "").split("\n").slice(1).join(" ").trim()}`),
    }));
}
