import { PAGES } from "../components/pages";
import { expect, seriousViolations, settle, test } from "./fixtures";

// On a phone (390 × 844) every page is reached from the header's menu, no page scrolls sideways
// (the graphs pan inside their own panes), and no id or status badge breaks inside its word.

// The page (and its context) is the worker's, shared with the other specs: set the phone's size
// for each test and give the desktop's back after it.
test.beforeEach(async ({ page }) => page.setViewportSize({ width: 390, height: 844 }));
test.afterEach(async ({ page }) => page.setViewportSize({ width: 1280, height: 800 }));

/** The page's width and window's, and (to say what to fix) the innermost elements reaching past the window. */
const scrollsSideways = (page: import("@playwright/test").Page) =>
  page.evaluate(() => {
    const wide = [...document.querySelectorAll("body *")].filter((el) => {
      if (el.closest(".react-flow")) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right > window.innerWidth + 1;
    });
    const innermost = wide.filter((el) => !wide.some((o) => o !== el && el.contains(o)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      wide: innermost.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} "${(el.textContent ?? "").slice(0, 40)}"`),
    };
  });

/** The ids and badges (marked `data-unbroken`) that the page broke over two lines, to say what to fix. */
const brokenWords = (page: import("@playwright/test").Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[data-unbroken]")]
      .filter((el) => {
        if (el.closest(".react-flow") || el.getClientRects().length === 0) return false;
        if (el.getClientRects().length > 1) return true;
        const style = getComputedStyle(el);
        const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
        return el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) > line * 1.5;
      })
      .slice(0, 5)
      .map((el) => `"${el.textContent}"`),
  );

for (const project of ["demo", "majordomus"] as const) {
  test(`the menu reaches every page at 390 px, none scrolls sideways, and the current page is marked @${project}`, async ({ page, visit, shot }) => {
    test.slow();
    await visit("/");
    for (const { href, label } of PAGES) {
      const menu = page.getByTestId("main-menu");
      await expect(menu).toBeHidden();
      await page.getByTestId("menu-button").click();
      await expect(page.getByTestId("menu-button")).toHaveAttribute("aria-expanded", "true");
      await menu.getByRole("link", { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${href === "/" ? "/" : href}(\\?.*)?$`));
      await settle(page);
      await expect(page.locator("main h1")).toBeVisible();
      await shot(`phone ${label}`);
      const { scrollWidth, innerWidth, wide } = await scrollsSideways(page);
      expect(scrollWidth, `${href} is ${scrollWidth} px wide in a ${innerWidth} px window: ${wide.join("; ")}`).toBeLessThanOrEqual(innerWidth);
      expect(await brokenWords(page), `${href}: ids and badges broken over two lines`).toEqual([]);
      // The link followed closes the menu; the page it names carries aria-current.
      await expect(menu).toBeHidden();
      await page.getByTestId("menu-button").click();
      await expect(menu.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
      await expect(menu.locator('[aria-current="page"]')).toHaveCount(1);
      await page.getByTestId("menu-button").click();
    }
  });
}

test("an issue page and a milestone page fit the phone too, and pass axe there @demo", async ({ page, visit }) => {
  for (const path of ["/issues/BK-020", "/milestones/booking"]) {
    await visit(path);
    const { scrollWidth, innerWidth, wide } = await scrollsSideways(page);
    expect(scrollWidth, `${path} is ${scrollWidth} px wide: ${wide.join("; ")}`).toBeLessThanOrEqual(innerWidth);
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test("the skip link is the first stop of Tab and moves the focus to the content @demo", async ({ page, visit }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await visit("/roadmap");
  await page.keyboard.press("Tab");
  const skip = page.getByTestId("skip-link");
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("#content")).toBeFocused();
});

test("at 1280 px the header keeps one row: the project, every page, New plan and the palette's button @demo", async ({ page, visit }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await visit("/");
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll("nav[aria-label=Main] > *")]
      .map((el) => ({ what: `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 30)}"`, rect: el.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0)
      .map(({ what, rect }) => ({ what, middle: Math.round(rect.top + rect.height / 2) })),
  );
  expect(rows.length).toBeGreaterThanOrEqual(3);
  const first = rows[0].middle;
  expect(rows.filter((r) => Math.abs(r.middle - first) > 6), "parts of the header on another row").toEqual([]);
  await expect(page.getByRole("button", { name: /Jump to/ })).toBeVisible();
});
