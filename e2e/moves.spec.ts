import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { expect, settle, test, waitForPlan, type PlanJson } from "./fixtures";

// Moves and evidence through the browser, on the demo copy: what the page says, and what the
// record file on disk holds afterwards. A refused move changes no file.

const statusOf = (id: string) => (plan: PlanJson) => plan.issues.find((i) => i.id === id)?.status;

/**
 * Every file of the copy, by path, as bytes (the ledger .ai/local/state/ledger.jsonl included);
 * aside: its git folder, and the execution store's SQLite files (.ai/local/state/cockpit.db*),
 * which any page opens through the navigation's prefetch of /plans.
 */
function snapshot(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      if (rel === "" && name === ".git") continue;
      if (rel === join(".ai", "local", "state") && /^cockpit\.db(-wal|-shm|-journal)?$/.test(name)) continue;
      const path = join(rel, name);
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else out.set(path, readFileSync(join(dir, path)));
    }
  };
  walk("");
  return out;
}

function changedFiles(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => !before.get(p)?.equals(after.get(p) ?? Buffer.alloc(0)) || !after.has(p)).sort();
}

test.describe("moves @demo", () => {
  test("start → verify → evidence → done on BK-020 shows each move and writes the record", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-020");
    repo.restore(file);
    await waitForPlan(page, (p) => statusOf("BK-020")(p) === "READY");
    const text = () => readFileSync(file, "utf8");
    const record = () => parse(text()) as Record<string, unknown> & { evidence?: Record<string, string>[] };
    const status = page.getByTestId("issue-status");
    const outcome = page.getByTestId("move-outcome");

    try {
      await visit("/issues/BK-020");
      await expect(status).toHaveText("READY");
      await expect(page.getByTestId("move-verify")).toBeDisabled();
      expect(text()).not.toMatch(/^started_at:/m);

      // READY → ACTIVE
      await page.getByTestId("move-start").click();
      await expect(outcome).toHaveText(/^BK-020: READY → ACTIVE\. (Next: BK-\d{3} →|Next issue: none\.)$/);
      await expect(status).toHaveText("ACTIVE");
      expect(text()).toMatch(/^started_at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
      expect(text()).toMatch(/^started_event: sha256:[0-9a-f]{64}$/m);
      await expect(page.getByTestId("stamps")).toContainText("started_at");

      // ACTIVE → VERIFY
      await expect(page.getByTestId("move-verify")).toBeEnabled();
      await page.getByTestId("move-verify").click();
      await expect(outcome).toHaveText(/^BK-020: ACTIVE → VERIFY\. (Next: BK-\d{3} →|Next issue: none\.)$/);
      await expect(status).toHaveText("VERIFY");
      expect(text()).toMatch(/^verified_at: \S+Z$/m);
      expect(text()).toMatch(/^verified_event: sha256:[0-9a-f]{64}$/m);

      // Done is refused while the evidence is incomplete, and says why.
      await expect(page.getByTestId("move-done")).toBeDisabled();
      await expect(page.locator("#why-done")).toHaveText("Done: BK-020 still needs evidence for: feed_validates, secret_rotation (record it: cockpit plan evidence BK-020 --covers feed_validates …)");
      await expect(page.getByTestId("move-done")).toHaveAttribute("aria-describedby", "why-done");

      // Evidence, one requirement at a time.
      const form = page.getByTestId("evidence-form");
      await form.locator("#ev-covers").selectOption("feed_validates");
      await form.locator("#ev-type").selectOption("test");
      await form.locator("#ev-kind").selectOption("command");
      await form.locator("#ev-proof").fill("pnpm --filter api test -- calendar/feed");
      await form.locator("#ev-result").fill("14 passed, 0 failed");
      await form.getByRole("button", { name: "Record evidence" }).click();
      await expect(page.getByTestId("evidence-outcome")).toHaveText("Evidence recorded for feed_validates.");
      await expect(page.getByRole("heading", { name: "Evidence: 1 of 2 required covered" })).toBeVisible();
      expect(record().evidence).toEqual([
        expect.objectContaining({ covers: "feed_validates", type: "test", command: "pnpm --filter api test -- calendar/feed", result: "14 passed, 0 failed" }),
      ]);

      await form.locator("#ev-covers").selectOption("secret_rotation");
      await form.locator("#ev-type").selectOption("manual");
      await form.locator("#ev-kind").selectOption("artifact");
      await form.locator("#ev-proof").fill("docs/qa/secret-rotation.md");
      await form.locator("#ev-result").fill("");
      await form.getByRole("button", { name: "Record evidence" }).click();
      await expect(page.getByTestId("evidence-outcome")).toHaveText("Evidence recorded for secret_rotation.");
      await expect(page.getByRole("heading", { name: "Evidence: 2 of 2 required covered" })).toBeVisible();
      expect(record().evidence?.[1]).toEqual(expect.objectContaining({ covers: "secret_rotation", type: "manual", artifact: "docs/qa/secret-rotation.md" }));
      expect(record().evidence?.[1]).not.toHaveProperty("result");
      await expect(page.getByTestId("evidence-needed")).not.toContainText("missing");

      // VERIFY → DONE
      await expect(page.getByTestId("move-done")).toBeEnabled();
      await page.getByTestId("move-done").click();
      await expect(outcome).toHaveText(/^BK-020: VERIFY → DONE\. (Next: BK-\d{3} →|Next issue: none\.)$/);
      await expect(status).toHaveText("DONE");
      expect(text()).toMatch(/^completed_at: \S+Z$/m);
      expect(text()).toMatch(/^completed_event: sha256:[0-9a-f]{64}$/m);
      for (const move of ["start", "verify", "done"]) await expect(page.getByTestId(`move-${move}`)).toBeDisabled();
    } finally {
      repo.restore(file);
    }
  });

  test("a move the guard refuses is disabled with its reason, and changes nothing", async ({ page, visit, repo }) => {
    const before = snapshot(repo.dir);
    await visit("/issues/BK-014");
    await expect(page.getByTestId("issue-status")).toHaveText("BLOCKED");
    const reasons = {
      start: "Start: BK-014 is BLOCKED, not READY (waiting on BK-013)",
      verify: "Verify: BK-014 is BLOCKED; only an ACTIVE issue can move to VERIFY",
      done: "Done: BK-014 cannot be DONE while BK-013 is not DONE",
    };
    for (const [move, reason] of Object.entries(reasons)) {
      const button = page.getByTestId(`move-${move}`);
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute("aria-describedby", `why-${move}`);
      await expect(page.locator(`#why-${move}`)).toHaveText(reason);
      await button.click({ force: true }); // a click on a disabled button does nothing
    }
    await expect(page.getByTestId("move-outcome")).toHaveText("");
    expect(changedFiles(before, snapshot(repo.dir))).toEqual([]);
  });

  test("a move made stale by the command line is refused with its reason and writes nothing", async ({ page, repo, shot }) => {
    const file = repo.issue("BK-024");
    repo.restore(file);
    await waitForPlan(page, (p) => statusOf("BK-024")(p) === "READY");
    try {
      // Hold the live-update channel, so the page cannot learn of the change before the click:
      // the race a slow connection (or a quick hand) loses.
      await page.route("**/api/v1/events", () => {});
      await page.goto("/issues/BK-024");
      await page.waitForLoadState("load");
      await expect(page.getByTestId("issue-status")).toHaveText("READY");
      const start = page.getByTestId("move-start");
      await expect(start).toBeEnabled();
      await shot("before-cli");

      expect(repo.cockpit("plan", "start", "BK-024")).toContain("BK-024 READY → ACTIVE");
      const afterCli = snapshot(repo.dir);
      expect(readFileSync(file, "utf8")).toMatch(/^started_at: /m);

      await start.click();
      await expect(page.getByTestId("move-outcome")).toHaveText("Refused: BK-024 is ACTIVE, not READY");
      // The page re-reads the plan after the refusal: it now shows the issue as it is.
      await expect(page.getByTestId("issue-status")).toHaveText("ACTIVE");
      await expect(page.locator("#why-start")).toHaveText("Start: BK-024 is ACTIVE, not READY");
      await shot("refused");
      expect(changedFiles(afterCli, snapshot(repo.dir))).toEqual([]);
    } finally {
      repo.restore(file);
    }
  });

  test("the overview's Start starts the next issue, and its note that nobody started it goes", async ({ page, visit, repo }) => {
    const plan = (await (await page.request.get("/api/v1/plan/status")).json()) as { next_ready?: { id: string } };
    const next = plan.next_ready!.id;
    const file = repo.issue(next);
    try {
      await visit("/");
      const card = page.getByTestId("next-issue");
      await expect(card.getByRole("link", { name: next })).toBeVisible();
      // The demo's next issue has commits but was never started: the card says so until it is.
      await expect(card.getByTestId("next-issue-code-warning")).toContainText("never started");
      await card.getByTestId("move-start").click();
      await expect(page.getByTestId("move-outcome")).toHaveText(new RegExp(`^${next}: READY → ACTIVE\\. (Next: |Next issue: none)`));
      await expect(card.getByTestId("next-issue-code-warning")).toHaveCount(0);
      expect(readFileSync(file, "utf8")).toMatch(/^started_at: /m);
      await settle(page);
    } finally {
      repo.restore(file);
    }
  });
});
