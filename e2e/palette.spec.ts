import { readFileSync } from "node:fs";
import { expect, seriousViolations, test } from "./fixtures";

// The command palette (Ctrl/Cmd-K) and the keyboard shortcuts (g then a letter, and ?), in a real
// browser against the production build.

const palette = (page: import("@playwright/test").Page) => page.getByRole("dialog", { name: "Command palette" });
const combobox = (page: import("@playwright/test").Page) => page.getByRole("combobox", { name: "Jump to a page, milestone or issue" });
const selected = (page: import("@playwright/test").Page) => page.getByRole("option", { selected: true });

test("Ctrl-K opens the palette, an issue id finds the issue, Enter opens it @demo", async ({ page, visit }) => {
  await visit("/");
  await expect(palette(page)).toBeHidden();
  await page.keyboard.press("Control+k");
  await expect(palette(page)).toBeVisible();
  await expect(combobox(page)).toBeFocused();
  await expect(combobox(page)).toHaveAttribute("aria-expanded", "true");
  await combobox(page).fill("bk-014");
  await expect(selected(page)).toHaveAttribute("data-testid", "palette-option-issue-BK-014");
  await expect(combobox(page)).toHaveAttribute("aria-activedescendant", (await selected(page).getAttribute("id"))!);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/issues\/BK-014$/);
  await expect(page.locator("main h1")).toContainText("BK-014");
  await expect(palette(page)).toBeHidden();
});

test("arrow keys move through the options, Escape closes without going anywhere @demo", async ({ page, visit }) => {
  await visit("/roadmap");
  await page.getByRole("button", { name: /Jump to/ }).click();
  await expect(combobox(page)).toBeFocused();
  await combobox(page).fill("booking");
  const options = page.getByRole("option");
  await expect(options.first()).toHaveAttribute("data-testid", "palette-option-milestone-booking");
  const count = await options.count();
  expect(count).toBeGreaterThan(2);
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "false");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(options.nth(count - 1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Escape");
  await expect(palette(page)).toBeHidden();
  await expect(page).toHaveURL(/\/roadmap$/);
  // Cmd-K (a Mac) opens it too, and it opens empty.
  await page.keyboard.press("Meta+k");
  await expect(combobox(page)).toHaveValue("");
  await page.keyboard.press("Meta+k");
  await expect(palette(page)).toBeHidden();
});

test("pages and milestones are reachable from the palette @demo", async ({ page, visit }) => {
  await visit("/");
  await page.keyboard.press("Control+k");
  await combobox(page).fill("road");
  await expect(selected(page)).toHaveText(/Roadmap/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/roadmap$/);
  await page.keyboard.press("Control+k");
  await combobox(page).fill("payments");
  await page.getByTestId("palette-option-milestone-payments").click();
  await expect(page).toHaveURL(/\/milestones\/payments$/);
});

test("the open palette passes axe, light and dark, at 1280×800 @demo", async ({ page, visit, shot }) => {
  await visit("/");
  await page.keyboard.press("Control+k");
  await combobox(page).fill("bk");
  await expect(page.getByRole("option").first()).toBeVisible();
  await expect(page.getByRole("dialog").getByText(/more match/)).toBeVisible();
  await shot("palette-light");
  expect(await seriousViolations(page, "palette open (light)")).toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  await shot("palette-dark");
  expect(await seriousViolations(page, "palette open (dark)")).toEqual([]);
  await page.emulateMedia({ colorScheme: null });
});

test("on the real corpus the palette asks the server for at most 20 records, and says how many more match @majordomus", async ({ page, visit }) => {
  const all = (await (await page.request.get("/api/palette?q=i0")).json()) as { matches: { id: string }[]; total: number };
  expect(all.matches).toHaveLength(20);
  expect(all.total).toBeGreaterThan(20);
  await visit("/");
  await page.keyboard.press("Control+k");
  await combobox(page).fill("I0");
  await expect(page.getByRole("option")).toHaveCount(20);
  await expect(page.getByRole("dialog").getByText(`${all.total - 20} more match`)).toBeVisible();
  await combobox(page).fill("I0007");
  await expect(selected(page)).toHaveAttribute("data-testid", "palette-option-issue-I0007");
});

test("the palette's look-up refuses what it does not take @demo", async ({ request }) => {
  const unknown = await request.get("/api/palette?q=bk&limit=5");
  expect(unknown.status()).toBe(400);
  expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/unknown field 'limit'/);
  expect((await request.get(`/api/palette?q=${"x".repeat(201)}`)).status()).toBe(400);
});

test("g then a letter moves between pages @demo", async ({ page, visit }) => {
  await visit("/");
  for (const [key, path] of [
    ["w", "/waves"],
    ["r", "/roadmap"],
    ["f", "/findings"],
    ["p", "/people"],
    ["e", "/plans"],
    ["o", "/"],
  ] as const) {
    await page.locator("body").press("g");
    await page.locator("body").press(key);
    // A page may add its view to the URL (the waves graph does): the path is what counts.
    await expect.poll(() => new URL(page.url()).pathname).toBe(path);
    await expect(page.locator("main h1")).toBeVisible();
  }
  // A letter without g first does nothing.
  await page.locator("body").press("r");
  await expect(page.locator("main h1")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
});

test("? lists the shortcuts in a dialog that passes axe; Escape closes it @demo", async ({ page, visit, shot }) => {
  await visit("/");
  await page.locator("body").press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  for (const what of ["go to Waves", "go to Roadmap", "go to Overview", "go to Findings", "go to People", "go to Plans", "jump to a page, milestone or issue"]) {
    await expect(help.getByText(what)).toBeVisible();
  }
  await shot("shortcuts-help");
  expect(await seriousViolations(page, "shortcuts help")).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
});

test("keys typed into a field are text, not shortcuts @demo", async ({ page, visit }) => {
  await visit("/issues/BK-020");
  const field = page.getByLabel("Command or artifact");
  await field.click();
  await page.keyboard.type("gw?gr");
  await expect(field).toHaveValue("gw?gr");
  await expect(page).toHaveURL(/\/issues\/BK-020$/);
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();
  // The palette's own field takes the same letters as a query.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("gw");
  await expect(combobox(page)).toHaveValue("gw");
  await expect(page).toHaveURL(/\/issues\/BK-020$/);
  await page.keyboard.press("Escape");
});

test("an issue's id in the palette offers its moves (refused ones say why) and assigning it; a command runs there, with from → to and Undo @demo", async ({ page, visit, repo }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as { issues: { id: string; status: string }[] };
  const ready = plan.issues.find((i) => i.status === "READY")!.id;
  const file = repo.issue(ready);
  const before = readFileSync(file, "utf8");
  const typed = ready.toLowerCase().replace(/[^a-z0-9]/g, "").replace(/([a-z])0+(?=\d)/, "$1"); // BK-016 typed bk16
  try {
    await visit("/");
    await page.keyboard.press("Control+k");
    await combobox(page).fill(typed);
    const start = page.getByTestId(`palette-option-command-start-${ready}`);
    await expect(start).toHaveText(new RegExp(`Start ${ready}$`));
    await expect(start).not.toHaveAttribute("aria-disabled", "true");
    const verify = page.getByTestId(`palette-option-command-verify-${ready}`);
    await expect(verify).toHaveAttribute("aria-disabled", "true");
    await expect(verify).toContainText(`not now: ${ready} is READY`);
    // Enter on a refused command runs nothing.
    await verify.hover();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("palette-ran")).toBeHidden();
    expect(readFileSync(file, "utf8")).toBe(before);

    await start.hover();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("palette-ran")).toContainText(`${ready}: READY → ACTIVE (start)`);
    expect(readFileSync(file, "utf8")).toMatch(/^started_at: /m);
    // The look-up is asked again: the moves allowed now.
    await expect(page.getByTestId(`palette-option-command-start-${ready}`)).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByTestId(`palette-option-command-verify-${ready}`)).not.toHaveAttribute("aria-disabled", "true");
    await page.getByTestId("palette-undo").click();
    await expect(page.getByTestId("palette-ran")).toHaveText(`Undone: ${ready} ACTIVE → READY`);
    expect(readFileSync(file, "utf8")).toBe(before);

    // The id, then a person: assign it to them.
    await combobox(page).fill(`${typed} ana`);
    const assign = page.getByTestId(`palette-option-command-assign-${ready}-Ana Sousa`);
    await expect(assign).toHaveText(new RegExp(`Assign ${ready} to Ana Sousa$`));
    await assign.click();
    await expect(page.getByTestId("palette-ran")).toContainText(`${ready}: owner`);
    await expect(page.getByTestId("palette-ran")).toContainText("→ Ana Sousa");
    expect(readFileSync(file, "utf8")).toMatch(/^owner: Ana Sousa$/m);
    await page.getByTestId("palette-undo").click();
    await expect(page.getByTestId("palette-ran")).toContainText("Undone:");
    expect(readFileSync(file, "utf8")).toBe(before);
  } finally {
    repo.restore(file);
  }
});
