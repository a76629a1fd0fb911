import { rmSync } from "node:fs";
import { expect, settle, test } from "./fixtures";

// Quick capture: `c` on any page opens the new issue's title, its milestone taken from the page;
// Enter creates it.

test("c on an issue page captures a new issue in that issue's milestone with its title and Enter @demo", async ({ page, repo, visit, shot }) => {
  let created: string | undefined;
  try {
    await visit("/issues/BK-016");
    await page.locator("body").click({ position: { x: 5, y: 400 } });
    await page.keyboard.press("c");
    const dialog = page.getByTestId("quick-capture");
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId("capture-title-input")).toBeFocused();
    await expect(page.getByTestId("capture-milestone")).toHaveValue("booking");
    await page.keyboard.type("Reminder emails in the customer's language");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`capture-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("capture-outcome")).toHaveText(/^Created (BK-\d+) in booking\. Open it$/);
    created = /Created (BK-\d+)/.exec((await page.getByTestId("capture-outcome").textContent()) ?? "")![1];
    const record = JSON.parse(repo.cockpit("plan", "record", created, "--json")) as { issue: { milestone: string; title: string } };
    expect(record.issue).toMatchObject({ milestone: "booking", title: "Reminder emails in the customer's language" });
    // On a milestone page, that milestone.
    await page.keyboard.press("Escape");
    await visit("/milestones/payments");
    await page.locator("body").click({ position: { x: 5, y: 400 } });
    await page.keyboard.press("c");
    await expect(page.getByTestId("capture-milestone")).toHaveValue("payments");
    await page.keyboard.press("Escape");
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    if (created) rmSync(repo.issue(created), { force: true });
  }
});
