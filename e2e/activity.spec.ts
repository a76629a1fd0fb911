import { execFileSync } from "node:child_process";
import { expect, seriousViolations, settle, test } from "./fixtures";

// /activity: the recent moves and edits, newest first, with Undo on each that still applies; an
// undo by someone who did not make the move is refused where it was asked, saying why.

test("/activity lists the recent edits with Undo; one's own undo puts the record back, another's is refused saying why @demo", async ({ page, repo, visit, shot }) => {
  // On loopback the browser acts as the served repository's git identity.
  const me = execFileSync("git", ["config", "user.name"], { cwd: repo.dir, encoding: "utf8" }).trim();
  const mine = JSON.parse(repo.cockpit("plan", "edit", "BK-016", "--set", "priority=p0", "--as", me, "--json")) as { ledger_id: number };
  const theirs = JSON.parse(repo.cockpit("plan", "edit", "BK-018", "--set", "priority=p0", "--as", "someone-else", "--json")) as { ledger_id: number };
  try {
    await visit("/activity");
    await expect(page.getByTestId(`activity-${theirs.ledger_id}`)).toContainText("someone-else");
    await expect(page.getByTestId(`activity-${mine.ledger_id}`)).toContainText("edit: set priority=p0");
    // Newest first.
    const rows = await page.locator('[data-testid^="activity-"]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-testid")));
    expect(rows.indexOf(`activity-${theirs.ledger_id}`)).toBeLessThan(rows.indexOf(`activity-${mine.ledger_id}`));
    expect(await seriousViolations(page)).toEqual([]);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`activity-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    await page.getByTestId(`undo-${theirs.ledger_id}`).click();
    await expect(page.getByTestId(`undo-outcome-${theirs.ledger_id}`)).toContainText(`was made by someone-else; only they may undo it`);
    await page.getByTestId(`undo-${mine.ledger_id}`).click();
    await expect(page.getByTestId(`undo-outcome-${mine.ledger_id}`)).toHaveText(/^Undone: BK-016 is \w+ again \(ledger line \d+\)\.$/);
    await page.reload();
    await settle(page);
    await expect(page.getByTestId(`undo-why-${mine.ledger_id}`)).toHaveText(/^undone by ledger line \d+$/);
    await shot("activity-after-undo");
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    repo.restore(repo.issue("BK-016"), repo.issue("BK-018"));
  }
});
