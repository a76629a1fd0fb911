import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, seriousViolations, test, waitForPlan, type PlanJson } from "./fixtures";

// A click that can be trusted: the overview's Start moves one issue however often it is clicked,
// the card keeps the issue it moved until the person moves on, and Undo puts the record's bytes
// back (checked on disk), so the header has nothing left to commit. Evidence is shown by the
// tokens it covers.

const statusOf = (id: string) => (plan: PlanJson) => plan.issues.find((i) => i.id === id)?.status;
const ledger = (dir: string) => {
  try {
    return readFileSync(join(dir, ".ai/local/state/ledger.jsonl"), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

test.describe("trust @demo", () => {
  test("two clicks on the card's Start move one issue; the card keeps it; Undo restores the file byte for byte", async ({ page, visit, repo, shot }) => {
    const file = repo.issue("BK-020");
    repo.restore(file);
    await waitForPlan(page, (p) => statusOf("BK-020")(p) === "READY");
    const pristine = readFileSync(file);
    const lines = ledger(repo.dir).length;
    try {
      await visit("/");
      await expect(page.getByTestId("uncommitted")).toHaveCount(0);
      const card = page.getByTestId("next-issue");
      await expect(card).toContainText("BK-020");
      const start = card.getByTestId("move-start");

      await start.click();
      const outcome = card.getByTestId("move-outcome");
      await expect(outcome).toHaveText(/^BK-020: READY → ACTIVE\. (Next: BK-\d{3} →|Next issue: none\.)$/);
      // The card still shows the issue it moved, and its Start stays disabled until the person moves on.
      await expect(card.getByRole("link", { name: "BK-020" })).toBeVisible();
      await expect(start).toBeDisabled();
      await start.click({ force: true });
      await page.waitForTimeout(600);
      await expect(outcome).toHaveText(/^BK-020: READY → ACTIVE\./);
      await waitForPlan(page, (p) => statusOf("BK-020")(p) === "ACTIVE");
      const plan = (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
      expect(plan.issues.filter((i) => i.status === "ACTIVE" && i.milestone === "booking").map((i) => i.id)).toContain("BK-020");
      expect(ledger(repo.dir).length - lines).toBe(1);
      const next = card.getByTestId("move-next");
      if (await next.count()) await expect(next).toHaveAttribute("href", /^\/issues\/BK-\d{3}$/);
      await expect(page.getByTestId("uncommitted")).toHaveText("1 uncommitted");
      await shot("card-after-start");

      await card.getByTestId("move-undo").click();
      await expect(card.getByTestId("undo-outcome")).toHaveText("Undone: BK-020 ACTIVE → READY.");
      expect(readFileSync(file).equals(pristine)).toBe(true);
      await expect(page.getByTestId("uncommitted")).toHaveCount(0);
      expect(JSON.parse(ledger(repo.dir).at(-1)!)).toMatchObject({ event: "plan_undo", record: "BK-020", undone: "plan_start" });
      await expect(card.getByTestId("move-start")).toBeEnabled();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      repo.restore(file);
    }
  });

  test("the issue page lists each required token as covered or missing; Covers opens on the first missing one", async ({ page, visit, repo, shot }) => {
    const file = repo.issue("BK-020");
    repo.restore(file);
    await waitForPlan(page, (p) => statusOf("BK-020")(p) === "READY");
    try {
      await visit("/issues/BK-020");
      await expect(page.getByRole("heading", { name: "Evidence: 0 of 2 required covered" })).toBeVisible();
      await expect(page.getByTestId("evidence-token-feed_validates")).toContainText("missing");
      const form = page.getByTestId("evidence-form");
      await expect(form.locator("#ev-covers")).toHaveValue("feed_validates");

      const record = async (covers: string, command: string) => {
        await form.locator("#ev-covers").selectOption(covers);
        await form.locator("#ev-type").selectOption("test");
        await form.locator("#ev-kind").selectOption("command");
        await form.locator("#ev-proof").fill(command);
        await form.getByRole("button", { name: "Record evidence" }).click();
        await expect(page.getByTestId("evidence-outcome")).toHaveText(`Evidence recorded for ${covers}.`);
      };
      await record("feed_validates", "npm test -- feed");
      await expect(page.getByRole("heading", { name: "Evidence: 1 of 2 required covered" })).toBeVisible();
      await expect(form.locator("#ev-covers")).toHaveValue("secret_rotation");
      // A second entry for the same token covers no more tokens.
      await record("feed_validates", "npm test -- feed --again");
      await expect(page.getByRole("heading", { name: "Evidence: 1 of 2 required covered" })).toBeVisible();
      await expect(page.getByTestId("evidence-token-feed_validates")).toContainText("covered by entries #1, #2");
      await expect(page.getByTestId("evidence-token-secret_rotation")).toContainText("missing");
      await expect(form.locator("#ev-covers")).toHaveValue("secret_rotation");
      await shot("evidence-by-coverage");
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      repo.restore(file);
    }
  });
});
