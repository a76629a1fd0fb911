import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, settle, test } from "./fixtures";

// /issues, the table: sort by a column (either way), filter, group; the address holds the whole
// view, so opening it again (a shared link) shows the same; a saved view is listed by the palette.

const idsOf = async (page: import("@playwright/test").Page, table = "issues-table") =>
  page.getByTestId(table).locator('tbody tr[data-testid^="issue-row-"]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-testid")!.slice("issue-row-".length)));

test("/issues sorts, filters and groups; a shared link reproduces the view; a saved view is in the palette @demo", async ({ page, visit, shot }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as { issues: { id: string; status: string; priority: string }[] };
  await visit("/issues");
  await expect(page.getByTestId("issues-count")).toHaveText(`${plan.issues.length} issues.`);
  expect(await idsOf(page)).toEqual(plan.issues.map((i) => i.id).sort());

  // Sort by priority, then the other way.
  await page.getByTestId("sort-priority").click();
  await expect(page).toHaveURL(/\/issues\?sort=priority$/);
  await expect(page.locator('th[aria-sort="ascending"]')).toContainText("Priority");
  const ascending = await idsOf(page);
  const rank = (id: string) => Number(plan.issues.find((i) => i.id === id)!.priority.slice(1));
  expect(ascending.map(rank)).toEqual([...ascending.map(rank)].sort((a, b) => a - b));
  await page.getByTestId("sort-priority").click();
  await expect(page).toHaveURL(/sort=priority&dir=desc$/);
  expect((await idsOf(page)).map(rank)).toEqual([...ascending.map(rank)].sort((a, b) => b - a));

  // Filter the blocked ones, grouped by owner.
  await page.getByTestId("issues-status").selectOption("BLOCKED");
  await page.getByTestId("issues-group").selectOption("owner");
  await page.getByTestId("issues-apply").click();
  await expect(page).toHaveURL(/status=BLOCKED/);
  await expect(page).toHaveURL(/group=owner/);
  const blocked = plan.issues.filter((i) => i.status === "BLOCKED").length;
  await expect(page.getByTestId("issues-count")).toHaveText(`${blocked} of ${plan.issues.length} issues match.`);
  const url = page.url();
  const grouped = await page.locator('[data-testid^="issues-table-"]').evaluateAll((ts) => ts.map((t) => t.getAttribute("data-testid")));
  expect(grouped.length).toBeGreaterThan(1);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await shot(`issues-blocked-by-owner-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });

  // The address is the view: opened again, the same groups and rows.
  await visit("/");
  await page.goto(url);
  await settle(page);
  expect(await page.locator('[data-testid^="issues-table-"]').evaluateAll((ts) => ts.map((t) => t.getAttribute("data-testid")))).toEqual(grouped);

  // Saved under a name, it is in the palette.
  await page.getByTestId("save-view-name").fill("Blocked by owner");
  await page.getByTestId("save-view").click();
  await expect(page.getByTestId("saved-view-Blocked by owner")).toBeVisible();
  await page.keyboard.press("Control+k");
  await page.getByRole("combobox", { name: "Jump to a page, milestone or issue" }).fill("blocked by");
  await expect(page.getByRole("option", { name: /Blocked by owner \(a saved view of the issues\)/ })).toBeVisible();
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await shot("issues-390");
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("ten issues selected on the table are reassigned in one write with one preview, and one Undo puts all ten back @demo", async ({ page, visit, repo, shot }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as { issues: { id: string; owner?: string }[] };
  const ten = plan.issues.map((i) => i.id).sort().slice(0, 10);
  const files = ten.map((id) => repo.issue(id));
  const before = files.map((f) => readFileSync(f, "utf8"));
  try {
    await visit("/issues");
    // A click, then shift-click: the range; `x` on a focused row toggles it.
    await page.getByTestId(`select-${ten[0]}`).click();
    await page.getByTestId(`select-${ten[8]}`).click({ modifiers: ["Shift"] });
    await page.getByTestId(`issue-row-${ten[9]}`).getByRole("link", { name: ten[9] }).focus();
    await page.keyboard.press("x");
    await expect(page.getByTestId("bulk-count")).toHaveText("10 selected");

    await page.getByTestId("bulk-value").fill("Bruno Lima");
    await page.getByTestId("bulk-preview").click();
    const fields = page.getByTestId("bulk-preview-fields");
    await expect(fields.locator("li")).toHaveCount(10);
    await expect(fields).toContainText(`${ten[0]}: owner`);
    await expect(fields).toContainText("→ Bruno Lima");
    await expect(page.getByTestId("bulk-preview-result")).toContainText("nothing derived changes");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`issues-bulk-preview-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    // Nothing is written before Confirm.
    expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);

    const ledger = join(repo.dir, ".ai/local/state/ledger.jsonl");
    const linesBefore = existsSync(ledger) ? readFileSync(ledger, "utf8").split("\n").filter(Boolean).length : 0;
    await page.getByTestId("bulk-confirm").click();
    await expect(page.getByTestId("bulk-outcome")).toContainText("Written: 10 issues in one write (set owner=Bruno Lima)");
    for (const f of files) expect(readFileSync(f, "utf8")).toMatch(/^owner: Bruno Lima$/m);
    const written = readFileSync(ledger, "utf8").split("\n").filter(Boolean).slice(linesBefore).map((l) => JSON.parse(l) as { event: string; record: string; batch?: string });
    expect(written.map((l) => [l.event, l.record, l.batch])).toEqual(ten.map((id) => ["plan_record_edited", id, "10"]));
    for (const id of ten) await expect(page.getByTestId(`issue-row-${id}`)).toContainText("Bruno Lima");

    await page.getByTestId("bulk-undo").click();
    await expect(page.getByTestId("bulk-outcome")).toHaveText("Undone: 10 issues put back as they were.");
    expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
    for (const id of ten) await expect(page.getByTestId(`issue-row-${id}`)).not.toContainText("Bruno Lima");
  } finally {
    repo.restore(...files);
  }
});
