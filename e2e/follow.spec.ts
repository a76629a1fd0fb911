import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { runGit } from "../tests/support/git";
import { freePort } from "../tests/support/ports";

// A team's Cockpit following its remote, in a real browser: a bare origin holding the demo plan,
// the server's clone served by `cockpit serve --follow --follow-interval 2` (as the product starts
// it, with a users file), and a teammate's clone pushing with plain git and the CLI.

const ROOT = join(__dirname, "..");
const INTERVAL_S = 2;
const SHOTS = process.env.COCKPIT_SHOTS_DIR;

let dir = "";
let bare = "";
let server = "";
let teammate = "";
let base = "";
let token = "";
let serving: ChildProcess | undefined;

const git = (cwd: string, ...args: string[]) => runGit(cwd, ["-c", "commit.gpgsign=false", ...args]);
const cockpit = (...args: string[]) => execFileSync(process.execPath, [join(ROOT, "bin/cockpit"), ...args], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const issueFile = (clone: string, id: string) => join(clone, ".ai/repo/project/issues", `${id}.yaml`);

/** The teammate starts `id` with the CLI in their clone, commits it and pushes, as anyone would. */
function teammatePushes(id: string): void {
  git(teammate, "pull", "-q", "--rebase", "origin", "main");
  cockpit("plan", "start", id, "--repo", teammate);
  git(teammate, "commit", "-qam", `${id}: start by a teammate`);
  git(teammate, "push", "-q", "origin", "HEAD:main");
}

async function shoot(page: Page, label: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SHOTS, `follow-${label}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), "cockpit-e2e-follow-"));
  const seed = join(dir, "seed");
  cpSync(join(ROOT, "examples/demo"), seed, { recursive: true });
  git(seed, "init", "-q", "-b", "main");
  git(seed, "add", "-A");
  git(seed, "-c", "user.name=Seed", "-c", "user.email=seed@team.example", "commit", "-qm", "the demo plan");
  bare = join(dir, "origin.git");
  git(dir, "clone", "-q", "--bare", seed, bare);
  for (const [clone, who] of [
    [(server = join(dir, "server")), "The Team Server"],
    [(teammate = join(dir, "teammate")), "Tess Teammate"],
  ]) {
    git(dir, "clone", "-q", bare, clone);
    git(clone, "config", "user.name", who);
    git(clone, "config", "user.email", `${who.split(" ")[0].toLowerCase()}@team.example`);
  }
  const users = join(dir, "users.yaml");
  token = cockpit("users", "add", "ada", "--email", "ada@team.example", "--users", users).trim();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  serving = spawn(process.execPath, ["bin/cockpit", "serve", "--repo", server, "--port", String(port), "--users", users, "--follow", "--follow-interval", String(INTERVAL_S)], {
    cwd: ROOT,
    env: { ...process.env, COCKPIT_TOKEN: "", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/api/v1/sync`).then(
      async (r) => r.ok && ((await r.json()) as { message: string }).message.startsWith("synced with"),
      () => false,
    );
    if (ok) break;
    if (i > 600 || serving.exitCode !== null) throw new Error("cockpit serve --follow did not answer");
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  serving?.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a teammate's push shows on the served page within two intervals", async ({ page }) => {
  await page.goto(`${base}/issues/BK-016`);
  await expect(page.getByTestId("issue-status")).toHaveText("READY");
  await expect(page.getByTestId("sync-status")).toContainText("synced with origin/main");
  teammatePushes("BK-016");
  const pushedAt = Date.now();
  await expect(page.getByTestId("issue-status")).toHaveText("ACTIVE", { timeout: 2 * INTERVAL_S * 1000 + 1000 });
  expect(Date.now() - pushedAt).toBeLessThanOrEqual(2 * INTERVAL_S * 1000 + 1000);
  await shoot(page, "synced");
});

test("a move made in the browser by a signed-in user is on the origin, authored by that user", async ({ page }) => {
  await page.goto(`${base}/signin?next=${encodeURIComponent("/issues/BK-020")}`);
  await page.getByLabel("Token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${base}/issues/BK-020`);
  await expect(page.getByText("Signed in as ada")).toBeVisible();
  await page.getByTestId("move-start").click();
  await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-020: READY → ACTIVE\./);
  // Answered after the push: the origin has it already.
  expect(git(bare, "log", "-1", "--format=%an <%ae>%n%s", "main")).toBe("ada <ada@team.example>\nBK-020: start");
  expect(git(bare, "show", "--name-only", "--format=", "main")).toBe(".ai/repo/project/issues/BK-020.yaml");
  expect(git(server, "status", "--porcelain", "--", ".ai/repo")).toBe("");
});

test("an uncommitted hand edit holds the fast-forward, and the header says so", async ({ page }) => {
  await page.goto(`${base}/issues/BK-024`);
  appendFileSync(issueFile(server, "BK-027"), "# a note made by hand on the server\n");
  teammatePushes("BK-024");
  const badge = page.getByTestId("sync-status");
  await expect(badge).toContainText(/held: uncommitted changes hold the fast-forward to origin\/main \(.*BK-027\.yaml/, { timeout: 15_000 });
  await expect(page.getByTestId("issue-status")).toHaveText("READY");
  await shoot(page, "held");
  // The hand edit gone, following goes on: the teammate's move arrives.
  git(server, "checkout", "--", ".ai/repo/project/issues/BK-027.yaml");
  await expect(page.getByTestId("issue-status")).toHaveText("ACTIVE", { timeout: 15_000 });
  await expect(badge).toContainText("synced with origin/main", { timeout: 10_000 });
});

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(`${base}/signin?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${base}${next}`);
}

test("the header's Sync now asks the server for a sync (202) and shows the fetch it made", async ({ page }) => {
  await signIn(page, "/issues/BK-016");
  const badge = page.getByTestId("sync-status");
  await expect(badge).toContainText("synced with origin/main");
  const button = badge.getByRole("button", { name: "Sync now" });
  const asked = page.waitForResponse((r) => r.url() === `${base}/api/v1/sync` && r.request().method() === "POST");
  await button.click();
  const answer = await asked;
  expect(answer.status()).toBe(202);
  expect(((await answer.json()) as { following: boolean; remote: string }).following).toBe(true);
  await expect(badge.getByRole("button", { name: "Syncing…" })).toBeDisabled();
  await expect(button).toBeEnabled({ timeout: 10_000 });
  await expect(badge).toContainText(/synced with origin\/main \d s ago/);
});

test("the standup says when its data was last fetched from the remote", async ({ page }) => {
  await page.goto(`${base}/standup`);
  const fetched = page.getByTestId("standup-fetched");
  await expect(fetched).toContainText(/^Data fetched from origin\/main \d+ s ago \(/, { timeout: 15_000 });
  const seconds = Number(/(\d+) s ago/.exec((await fetched.textContent()) ?? "")![1]);
  // Fetched every interval (2 s); the line is read every 10 s and counts the seconds between.
  expect(seconds).toBeLessThan(15);
});

test("a move answered offline that the remote decided against is undone, and the header says so", async ({ page }) => {
  await signIn(page, "/issues/BK-027");
  // The server's way to the origin is cut: its move waits to be pushed.
  git(server, "remote", "set-url", "origin", `${bare}.gone`);
  await page.getByTestId("move-start").click();
  await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-027: READY → ACTIVE\./);
  const badge = page.getByTestId("sync-status");
  await expect(page.getByTestId("sync-waiting")).toHaveText("1 waiting to push", { timeout: 10_000 });
  // Meanwhile a teammate starts the same issue on the origin; then the way is back.
  teammatePushes("BK-027");
  git(server, "remote", "set-url", "origin", bare);
  await expect(page.getByTestId("sync-undone")).toContainText(/^BK-027: start was undone: origin\/main already had BK-027\.yaml changed, in [0-9a-f]{7} by Tess Teammate/, { timeout: 15_000 });
  await expect(badge).toContainText("synced with origin/main");
  await expect(page.getByTestId("sync-waiting")).toHaveCount(0);
  await shoot(page, "undone");
  // The remote decided: the origin keeps the teammate's move, the server is level with it, nothing left over.
  expect(git(bare, "log", "-1", "--format=%an%n%s", "main")).toBe("Tess Teammate\nBK-027: start by a teammate");
  await expect.poll(() => git(server, "rev-parse", "HEAD"), { timeout: 10_000 }).toBe(git(bare, "rev-parse", "main"));
  expect(git(server, "status", "--porcelain", "--", ".ai/repo")).toBe("");
});

test("a commit made by hand on the server is never pushed: following pauses naming it, and the header shows the state", async ({ page }) => {
  await page.goto(`${base}/issues/BK-028`);
  const file = ".ai/repo/project/issues/BK-028.yaml";
  // The server's way to the origin is cut while someone commits a note by hand on the server.
  git(server, "remote", "set-url", "origin", `${bare}.gone`);
  appendFileSync(issueFile(server, "BK-028"), "# a note committed by hand on the server\n");
  git(server, "commit", "-qm", "BK-028: a note by hand", "--", file);
  // Meanwhile a teammate changes the same record on the origin; then the way is back.
  git(teammate, "pull", "-q", "--rebase", "origin", "main");
  appendFileSync(issueFile(teammate, "BK-028"), "# a teammate's note\n");
  git(teammate, "commit", "-qm", "BK-028: a teammate's note", "--", file);
  git(teammate, "push", "-q", "origin", "HEAD:main");
  git(server, "remote", "set-url", "origin", bare);
  const badge = page.getByTestId("sync-status");
  // A following server pushes only the commits it made itself: the hand commit stops it, named.
  await expect(badge).toContainText(/conflict: following is paused: this clone has commits that this server did not make and origin\/main does not have \([0-9a-f]{7} BK-028: a note by hand\)/, { timeout: 15_000 });
  await expect(badge).toContainText("Push them by hand (git push), or take them out of the branch (git reset)");
  await expect(page.getByTestId("sync-waiting")).toHaveCount(0);
  await shoot(page, "conflict");
  // Nothing was resolved for anyone: the origin keeps the teammate's note, the server its own commit.
  expect(git(bare, "log", "-1", "--format=%an%n%s", "main")).toBe("Tess Teammate\nBK-028: a teammate's note");
  expect(git(server, "log", "-1", "--format=%s")).toBe("BK-028: a note by hand");
});
