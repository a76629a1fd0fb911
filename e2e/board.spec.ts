import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, settle, test } from "./fixtures";

/** A drag as a hand makes it: press on the card, move a little (the browser starts its drag), then over the column, and let go. */
async function drag(page: Page, card: Locator, column: Locator): Promise<void> {
  await card.scrollIntoViewIfNeeded();
  const from = (await card.boundingBox())!;
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 40, from.y + from.height / 2 + 10, { steps: 5 });
  const to = (await column.boundingBox())!;
  await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 10 });
  await page.mouse.up();
}

// /board: a drag from READY into ACTIVE starts the issue after its confirmation, and the card
// shows the derived before → after; a drop the model forbids is refused where it lands, saying
// why, and writes nothing; a focused card moves with the issue page's keys.

test("a drag into ACTIVE starts an issue with its before → after; forbidden drops are refused and write nothing @demo", async ({ page, repo, visit, shot }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as { issues: { id: string; status: string }[] };
  const ready = plan.issues.find((i) => i.status === "READY")!.id;
  const blocked = plan.issues.find((i) => i.status === "BLOCKED")!.id;
  const active = plan.issues.find((i) => i.status === "ACTIVE")!.id;
  const files = [repo.issue(ready), repo.issue(blocked), repo.issue(active)];
  const before = files.map((f) => readFileSync(f));
  try {
    await visit("/board");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`board-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // Into BLOCKED: no move at all.
    await drag(page, page.getByTestId(`board-card-${ready}`), page.getByTestId("board-column-all-BLOCKED"));
    await expect(page.getByTestId("board-outcome")).toHaveText("Refused: nothing moves an issue into BLOCKED: it is derived from what the issue waits on. Nothing was written.");
    // A BLOCKED issue into ACTIVE: the server's guard refuses it, saying what it waits on.
    await drag(page, page.getByTestId(`board-card-${blocked}`), page.getByTestId("board-column-all-ACTIVE"));
    await expect(page.getByTestId("board-confirm-text")).toHaveText(`start ${blocked}: BLOCKED → ACTIVE?`);
    await page.getByTestId("board-confirm-yes").click();
    await expect(page.getByTestId("board-outcome")).toContainText(`Refused: ${blocked}`);
    await expect(page.getByTestId("board-outcome")).toContainText("Nothing was written.");
    expect(readFileSync(files[1]).equals(before[1])).toBe(true);

    // A focused ACTIVE card and v: the confirmation of its verify; cancelled, nothing moves.
    await page.getByTestId(`board-card-${active}`).focus();
    await page.keyboard.press("v");
    await expect(page.getByTestId("board-confirm-text")).toHaveText(`verify ${active}: ACTIVE → VERIFY?`);
    await page.getByTestId("board-confirm-no").click();
    expect(readFileSync(files[2]).equals(before[2])).toBe(true);

    // READY into ACTIVE: confirmed, started, and the card says so in its new column.
    await drag(page, page.getByTestId(`board-card-${ready}`), page.getByTestId("board-column-all-ACTIVE"));
    await expect(page.getByTestId("board-confirm-text")).toHaveText(`start ${ready}: READY → ACTIVE?`);
    await page.getByTestId("board-confirm-yes").click();
    await expect(page.getByTestId("board-outcome")).toHaveText(`${ready}: READY → ACTIVE.`);
    await expect(page.getByTestId("board-column-all-ACTIVE").getByTestId(`board-card-${ready}`)).toBeVisible();
    expect(readFileSync(files[0], "utf8")).toMatch(/^started_at: /m);
    await shot("board-started");
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    try {
      repo.cockpit("plan", "release", ready, "--as", "e2e-lead", "--force");
    } catch {
      /* nothing held it */
    }
    repo.restore(...files);
  }
});

test("cards selected on the board get one priority in one write, with one preview, and one Undo puts them back @demo", async ({ page, visit, repo }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as { issues: { id: string; status: string }[] };
  const ready = plan.issues.filter((i) => i.status === "READY").map((i) => i.id).slice(0, 2);
  expect(ready).toHaveLength(2);
  const files = ready.map((id) => repo.issue(id));
  const before = files.map((f) => readFileSync(f, "utf8"));
  try {
    await visit("/board");
    for (const id of ready) await page.getByTestId(`select-${id}`).click();
    await expect(page.getByTestId("bulk-count")).toHaveText("2 selected");
    await page.getByTestId("bulk-action").selectOption("priority");
    await page.getByTestId("bulk-value").selectOption("p0");
    await page.getByTestId("bulk-preview").click();
    await expect(page.getByTestId("bulk-preview-fields").locator("li")).toHaveCount(2);
    await expect(page.getByTestId("bulk-preview-fields")).toContainText("→ p0");
    expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
    await page.getByTestId("bulk-confirm").click();
    await expect(page.getByTestId("bulk-outcome")).toContainText("Written: 2 issues in one write (set priority=p0)");
    for (const f of files) expect(readFileSync(f, "utf8")).toMatch(/^priority: p0$/m);
    await page.getByTestId("bulk-undo").click();
    await expect(page.getByTestId("bulk-outcome")).toHaveText("Undone: 2 issues put back as they were.");
    expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
  } finally {
    repo.restore(...files);
  }
});
