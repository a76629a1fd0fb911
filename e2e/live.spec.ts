import { readFileSync, writeFileSync } from "node:fs";
import { expect, test, waitForPlan } from "./fixtures";

// A record edited on disk (by hand, by an agent, by a git pull) shows on the open page within two
// seconds, without a reload: the server says so over /api/v1/events and the page re-reads.

const LIVE_MS = 2_000;

test.describe("live updates @demo", () => {
  test("cancelling a READY issue on disk shows on its open page", async ({ page, visit, repo, shot }) => {
    const file = repo.issue("BK-027");
    repo.restore(file);
    await waitForPlan(page, (p) => p.issues.find((i) => i.id === "BK-027")?.status === "READY");
    try {
      await visit("/issues/BK-027");
      await expect(page.getByTestId("issue-status")).toHaveText("READY");
      // A marker on the document: a reload would drop it.
      await page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));

      writeFileSync(file, readFileSync(file, "utf8") + "cancelled: true\n");
      const t0 = Date.now();
      await expect(page.getByTestId("issue-status")).toHaveText("CANCELLED", { timeout: LIVE_MS });
      test.info().annotations.push({ type: "latency", description: `cancelled shown after ${Date.now() - t0} ms` });
      await shot("cancelled");
      expect(await page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true);
      await expect(page.getByTestId("move-start")).toBeDisabled();

      repo.restore(file);
      await expect(page.getByTestId("issue-status")).toHaveText("READY", { timeout: LIVE_MS });
      expect(await page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true);
    } finally {
      repo.restore(file);
    }
  });

  test("a stamp appended on disk shows in the stamps table and the findings", async ({ page, visit, repo, shot }) => {
    const file = repo.issue("BK-016");
    repo.restore(file);
    try {
      await visit("/issues/BK-016");
      await expect(page.getByTestId("stamps")).not.toContainText("2026-11-01T09:00:00Z");
      await page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));

      // A stamp written by hand, without the event that seals it: listed, but it moves no status.
      writeFileSync(file, readFileSync(file, "utf8") + "started_at: 2026-11-01T09:00:00Z\n");
      const row = page.getByTestId("stamps").getByRole("row").filter({ hasText: "started_at" });
      await expect(row).toContainText("2026-11-01T09:00:00Z", { timeout: LIVE_MS });
      await expect(row).toContainText("not sealed: it moves no status");
      await expect(page.getByTestId("issue-status")).toHaveText("READY");
      await expect(page.getByTestId("issue-findings")).toContainText("stamp_without_event");
      await shot("stamp");
      expect(await page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true);
    } finally {
      repo.restore(file);
    }
  });

  test("the waves graph follows a status change on disk", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-016");
    repo.restore(file);
    await waitForPlan(page, (p) => p.issues.find((i) => i.id === "BK-016")?.status === "READY");
    try {
      // Unfolded: a CANCELLED issue would otherwise fold into its wave's chip.
      await visit("/waves?fold=off");
      const node = page.locator('.react-flow__node[data-id="BK-016"] [data-status]');
      await expect(node).toHaveAttribute("data-status", "READY");
      writeFileSync(file, readFileSync(file, "utf8") + "cancelled: true\n");
      await expect(node).toHaveAttribute("data-status", "CANCELLED", { timeout: LIVE_MS });
      repo.restore(file);
      await expect(node).toHaveAttribute("data-status", "READY", { timeout: LIVE_MS });
    } finally {
      repo.restore(file);
    }
  });

  test("the overview follows a change on disk", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-024");
    repo.restore(file);
    try {
      await visit("/");
      const row = page.getByTestId("milestone-row-notifications");
      const before = await row.getByRole("img").getAttribute("aria-label");
      writeFileSync(file, readFileSync(file, "utf8") + "cancelled: true\n");
      await expect(row.getByRole("img")).not.toHaveAttribute("aria-label", before!, { timeout: LIVE_MS });
      await expect(row.getByRole("img")).toHaveAttribute("aria-label", /1 CANCELLED/);
    } finally {
      repo.restore(file);
    }
  });
});
