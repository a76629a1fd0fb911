import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, quiet, seriousViolations, settle, test } from "./fixtures";

// The doors project: `cockpit serve --host ::` over a copy of the demo, with COCKPIT_TOKEN and a
// users file (ada, bob). A browser without a session sees the sign-in page and nothing else; a
// signed-in person moves an issue and the ledger names them; signing out ends access. And a
// `cockpit serve` of its own on loopback with a token: a page reads without signing in, a move asks
// to sign in, and after signing in the move is made.

const tokens = () => JSON.parse(process.env.COCKPIT_E2E_DOORS_TOKENS ?? "{}") as Record<string, string>;
const ledgerLines = (dir: string) =>
  readFileSync(join(dir, ".ai/local/state/ledger.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { event: string; by: string; issue?: string });

test.describe.configure({ mode: "serial" });

test("an anonymous browser sees only the sign-in page, and is brought back after signing in", async ({ page, shot, repo }) => {
  const response = await page.goto("/issues/BK-020");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/signin\?next=%2Fissues%2FBK-020$/);
  await expect(page.getByRole("heading", { name: "Sign in to Cockpit" })).toBeVisible();
  // The page asks whether this browser has a session already (a link from another site comes without it).
  await quiet(page);
  const html = await page.content();
  expect(html).not.toContain("Harbor Bookings");
  expect(html).not.toMatch(/BK-001|BK-019|Live calendar feed/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Waves" })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shot("signin");

  // A wrong token: said so, nothing else shown.
  await page.getByLabel("Token").fill("not-a-token");
  await page.getByRole("button", { name: "Sign in" }).click();
  const note = page.getByTestId("signin-note");
  await expect(note).toHaveText("That token is not valid. Check it and try again.");
  await expect(note).toHaveAttribute("role", "alert");
  await quiet(page);
  await shot("signin-wrong");

  // ada's token: back on the page asked for, signed in as ada.
  await page.getByLabel("Token").fill(tokens().ada);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/issues\/BK-020$/);
  await settle(page);
  await expect(page.getByText("Signed in as ada")).toBeVisible();
  await expect(page.getByTestId("issue-status")).toHaveText("READY");
  await shot("signed-in");

  // A move, attributed to ada in the ledger.
  await page.getByTestId("move-start").click();
  await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-020: READY → ACTIVE\./);
  const last = ledgerLines(repo.dir).at(-1)!;
  expect(last).toMatchObject({ event: "plan_start", by: "ada" });
  expect(readFileSync(repo.issue("BK-020"), "utf8")).toMatch(/^started_at: /m);

  // Signing out ends access: the page asks for sign-in again, the API for a token. (The page first
  // finishes the refresh the move started, which leaving would abort.)
  await quiet(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin\?signedout=1$/);
  await expect(page.getByTestId("signin-note")).toHaveText("You are signed out.");
  await expect(page.getByTestId("signin-note")).toHaveAttribute("role", "status");
  await page.goto("/waves");
  await expect(page).toHaveURL(/\/signin\?next=%2Fwaves$/);
  await quiet(page);
});

test("a forged server action and the live stream are refused without a session, and the record is unchanged", async ({ page, repo }) => {
  const file = repo.issue("BK-021");
  const before = readFileSync(file);
  const ledgerBefore = readFileSync(join(repo.dir, ".ai/local/state/ledger.jsonl"));
  // The action's id is in every page's scripts; the request is what the browser would send.
  const manifest = JSON.parse(readFileSync(join(process.cwd(), process.env.COCKPIT_DIST_DIR || ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, unknown>;
  };
  const action = Object.keys(manifest.node)[0];
  const anonymous = page.request;
  const forged = await anonymous.post("/issues/BK-021", {
    headers: { "next-action": action, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
    data: JSON.stringify(["plan.transition", { issue: "BK-021", transition: "start" }]),
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(401);
  const stream = await anonymous.get("/api/v1/events", { maxRedirects: 0 });
  expect(stream.status()).toBe(401);
  expect(await stream.text()).toContain("Authorization: Bearer <token>");
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(readFileSync(join(repo.dir, ".ai/local/state/ledger.jsonl")).equals(ledgerBefore)).toBe(true);
});

test("bob's token over the API is bob in the ledger; the issue ada's session holds is hers to move", async ({ page, repo }) => {
  const as = (who: "ada" | "bob") => ({ authorization: `Bearer ${tokens()[who]}`, "content-type": "application/json" });
  try {
    // ada started BK-020 in the browser (the test before): her session holds it, and bob is told so.
    const held = await page.request.post("/api/v1/plan/transition", { headers: as("bob"), data: { issue: "BK-020", transition: "verify" } });
    expect(held.status()).toBe(422);
    expect(((await held.json()) as { error: { message: string } }).error.message).toMatch(/^BK-020 is held by ada \(session s-[0-9a-f]{12}, epoch 1\) since 20/);
    const mine = await page.request.post("/api/v1/plan/transition", { headers: as("ada"), data: { issue: "BK-020", transition: "verify" } });
    expect(mine.status(), await mine.text()).toBe(200);
    expect(ledgerLines(repo.dir).at(-1)).toMatchObject({ event: "plan_verify", by: "ada", issue: "BK-020" });
    // bob's own move is his.
    const r = await page.request.post("/api/v1/plan/transition", { headers: as("bob"), data: { issue: "BK-016", transition: "start" } });
    expect(r.status(), await r.text()).toBe(200);
    expect(ledgerLines(repo.dir).at(-1)).toMatchObject({ event: "plan_start", by: "bob", issue: "BK-016" });
  } finally {
    repo.restore(repo.issue("BK-020"), repo.issue("BK-016"));
  }
});

test("an agent's token signs its moves with its name, and /people marks it an agent", async ({ page, repo, shot }) => {
  const r = await page.request.post("/api/v1/plan/claim", {
    headers: { authorization: `Bearer ${tokens()["builder-1"]}`, "content-type": "application/json" },
    data: {},
  });
  expect(r.status(), await r.text()).toBe(200);
  const { issue } = (await r.json()) as { issue: string };
  try {
    expect(ledgerLines(repo.dir).at(-1)).toMatchObject({ event: "plan_start", by: "builder-1", issue });
    await page.goto("/signin");
    await page.getByLabel("Token").fill(tokens().ada);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Signed in as ada")).toBeVisible();
    await page.goto("/people");
    await settle(page);
    await expect(page.getByTestId("people-row-builder-1")).toBeVisible();
    await expect(page.getByTestId("people-kind-builder-1")).toHaveText("agent");
    // A person is not marked.
    await expect(page.getByTestId("people-row-ada")).toBeVisible();
    await expect(page.getByTestId("people-kind-ada")).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot("people-agent-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await settle(page);
    await shot("people-agent-dark");
  } finally {
    repo.restore(repo.issue(issue));
    // The context is the worker's: ada's session would follow the next test to its own server.
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("about:blank");
    await page.context().clearCookies();
  }
});

test.describe("on loopback with a token", () => {
  const TOKEN = "e2e-loopback-shared-token";
  let dir: string;
  let base: string;
  let server: ChildProcess;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "cockpit-e2e-loopback-"));
    cpSync(join(process.cwd(), "examples/demo"), join(dir, "repo"), { recursive: true });
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port: p } = s.address() as { port: number };
        s.close(() => resolve(p));
      });
    });
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["bin/cockpit", "serve", "--repo", join(dir, "repo"), "--host", "127.0.0.1", "--port", String(port)], {
      cwd: process.cwd(),
      env: { ...process.env, COCKPIT_TOKEN: TOKEN, COCKPIT_USERS: "", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
    });
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/api/v1/openapi.json`).then((r) => r.ok, () => false);
      if (up) break;
      if (i > 300 || server.exitCode !== null) throw new Error("cockpit serve on loopback did not answer");
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  test.afterAll(async () => {
    server?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("a page reads without signing in; Start asks to sign in, and after signing in the move is made", async ({ page, shot }) => {
    const issue = () => join(dir, "repo/.ai/repo/project/issues/BK-020.yaml");
    const before = readFileSync(issue());
    await page.goto(`${base}/issues/BK-020`);
    await settle(page);
    await expect(page).toHaveURL(`${base}/issues/BK-020`);
    await expect(page.getByTestId("issue-status")).toHaveText("READY");
    await expect(page.getByTestId("header-signin")).toBeVisible();

    await page.getByTestId("move-start").click();
    const prompt = page.getByTestId("signin-prompt");
    await expect(prompt).toContainText("Moves and edits on this server need you to sign in");
    expect(readFileSync(issue()).equals(before)).toBe(true);
    await quiet(page);
    expect(await seriousViolations(page, "sign-in prompt")).toEqual([]);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`signin-prompt-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    await prompt.getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${base}/signin?next=${encodeURIComponent("/issues/BK-020")}`);
    await expect(page.getByText("Reading needs no sign-in on this server; moves and edits do.")).toBeVisible();
    await shot("signin-from-loopback");
    await page.getByLabel("Token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${base}/issues/BK-020`);
    await settle(page);
    await expect(page.getByText("Signed in", { exact: true })).toBeVisible();

    await page.getByTestId("move-start").click();
    await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-020: READY → ACTIVE\./);
    expect(readFileSync(issue(), "utf8")).toMatch(/^started_at: /m);
    await quiet(page);
  });
});
