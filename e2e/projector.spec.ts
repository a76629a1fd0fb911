import { type Page } from "@playwright/test";
import { expect, quiet, seriousViolations, test } from "./fixtures";

// Projector mode of the standup (/standup?projector=1) on the demo copy, at 1920×1080: a screen
// per person in plan.standup's order, the issues nobody has when there are some, then the burn-up
// of each ACTIVE milestone (the demo has one, booking).

const FULL_HD = { width: 1920, height: 1080 };

interface Standup {
  people: ({ person: string; commits: number; commit_issues: string[] } & Record<string, unknown>)[];
  unowned: Record<string, unknown[]>;
  findings: { new: unknown[]; resolved: unknown[]; code: { subject: string; code: string }[] };
}

/** Whether a person has something to say: an issue on a list, or a linked commit in the window. */
const saysSomething = (p: Standup["people"][number]) => p.commits > 0 || Object.entries(p).some(([k, v]) => k !== "commit_issues" && Array.isArray(v) && v.length > 0);

/** Every visible text's size on screen: computed font-size × its scale (SVG text: the screen CTM). Returns the ones under `min` px. */
async function smallTexts(page: Page, min = 24): Promise<string[]> {
  return page.evaluate((min) => {
    const out: string[] = [];
    const isClippedAway = (el: Element) => {
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const r = a.getBoundingClientRect();
        const s = getComputedStyle(a);
        // sr-only: a 1 px box, or clipped to nothing
        if ((r.width <= 1 && r.height <= 1 && s.overflow !== "visible") || s.clipPath.startsWith("inset(50%") || s.clip === "rect(0px, 0px, 0px, 0px)") return true;
      }
      return false;
    };
    const htmlScale = (el: Element) => {
      let scale = 1;
      for (let a: Element | null = el; a; a = a.parentElement) {
        const t = getComputedStyle(a).transform;
        if (t && t !== "none") {
          const m = new DOMMatrix(t);
          scale *= Math.hypot(m.a, m.b);
        }
      }
      return scale;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? "").trim();
      const el = n.parentElement;
      if (!text || !el || el.closest("script, style, noscript, template")) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
      if (rects.length === 0) continue; // not rendered (a hidden screen, display: none)
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || isClippedAway(el)) continue;
      if (!rects.some((r) => r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth)) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      const ctm = el instanceof SVGGraphicsElement ? el.getScreenCTM() : null;
      const scale = ctm ? Math.hypot(ctm.a, ctm.b) : htmlScale(el);
      if (size * scale < min - 0.01) out.push(`${(size * scale).toFixed(1)} px: ${text.slice(0, 60)} <${el.tagName.toLowerCase()}>`);
    }
    return out;
  }, min);
}

/** The visible screen's vertical overflow (px), and the document's. */
async function overflow(page: Page): Promise<{ screen: number; document: number }> {
  return page.evaluate(() => {
    const screen = [...document.querySelectorAll<HTMLElement>("[data-testid=projector-screen]")].find((s) => !s.hidden)!;
    const d = document.scrollingElement!;
    return { screen: screen.scrollHeight - screen.clientHeight, document: d.scrollHeight - d.clientHeight };
  });
}

const visibleScreen = (page: Page) => page.locator("[data-testid=projector-screen]:not([hidden])");

test.describe("standup projector mode @demo", () => {
  for (const scheme of ["light", "dark"] as const) {
    test(`walks the team one person a screen with the keyboard, every text at least 24 px, then the burn-up (${scheme})`, async ({ page, visit, shot }) => {
      test.slow();
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(FULL_HD);
      await visit("/standup?projector=1");
      const url = new URL(page.url());
      const since = url.searchParams.get("since")!;
      expect(since).toMatch(/^[0-9a-f]{40}$/);
      expect(url.searchParams.get("projector")).toBe("1");
      const answer = (await (await page.request.get(`/api/v1/plan/standup?since=${since}`)).json()) as Standup;
      // A person with nothing to say has no screen: the run never opens on one.
      const names = answer.people.filter(saysSomething).map((p) => p.person);
      if (Object.values(answer.unowned).some((l) => l.length > 0)) names.push("Nobody's");
      expect(names).toEqual(expect.arrayContaining(["lea", "marek", "priya", "tom"]));
      const findings = answer.findings.new.length + answer.findings.resolved.length + answer.findings.code.length;
      expect(answer.findings.code.length, "the demo's code has findings").toBeGreaterThan(0);
      const total = names.length + 1 + 1; // the people, the findings, the burn-up

      // The app's header is hidden and the run takes the whole width.
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      const box = (await page.getByTestId("projector-run").boundingBox())!;
      expect(box.width).toBe(FULL_HD.width);

      const keys = ["Space", "ArrowRight", "PageDown", "ArrowDown"];
      for (const [i, name] of names.entries()) {
        await expect(visibleScreen(page).getByTestId("projector-person")).toHaveText(name);
        await expect(page.getByTestId("projector-position")).toHaveText(`${i + 1} / ${total}`);
        await expect(page.getByTestId("projector-timer")).toContainText(/\d:\d\d \/ 1:30 · \d:\d\d left/);
        expect(await smallTexts(page), `texts under 24 px on ${name}'s screen`).toEqual([]);
        expect(await overflow(page), `${name}'s screen scrolls`).toEqual({ screen: 0, document: 0 });
        // Linked commits name the issues they are on.
        const person = answer.people.find((p) => p.person === name);
        if (person && person.commits > 0) for (const id of person.commit_issues) await expect(visibleScreen(page).getByTestId("projector-commits")).toContainText(id);
        if (name === "marek") {
          await expect(visibleScreen(page).getByTestId("list-active")).toContainText("BK-015");
          await shot(`projector-person-marek-${scheme}`);
        }
        await page.keyboard.press(keys[i % keys.length]);
        await expect(page).toHaveURL(new RegExp(`[?&]screen=${i + 2}(&|$)`));
      }

      // The window's findings, the code's among them, then the burn-up.
      await expect(visibleScreen(page).getByTestId("projector-findings")).toHaveText(`Findings · ${findings}`);
      const first = answer.findings.code[0];
      await expect(visibleScreen(page).getByTestId(`code-finding-${first.subject}-${first.code}`)).toBeVisible();
      expect(await smallTexts(page), "texts under 24 px on the findings screen").toEqual([]);
      expect(await overflow(page), "the findings screen scrolls").toEqual({ screen: 0, document: 0 });
      await page.keyboard.press("ArrowRight");

      // The closing screen: the booking burn-up filling the screen, its today line, the year on its axis.
      await expect(visibleScreen(page).getByTestId("projector-closing")).toContainText("Burn-up of");
      const chart = visibleScreen(page).getByRole("img", { name: /^Milestone booking burn-up/ });
      const chartBox = (await chart.boundingBox())!;
      expect(chartBox.width).toBeGreaterThan(FULL_HD.width * 0.85);
      expect(chartBox.height).toBeGreaterThan(FULL_HD.height * 0.5);
      await expect(visibleScreen(page).getByTestId("burnup-today")).toBeVisible();
      await expect(visibleScreen(page).getByTestId("burnup-today")).toContainText("today");
      await expect(visibleScreen(page).getByTestId("burnup-tick").first()).toContainText(/20\d\d/);
      for (const s of ["scope", "started", "done"]) await expect(visibleScreen(page).getByTestId(`burnup-label-${s}`)).toBeVisible();
      expect(await smallTexts(page), "texts under 24 px on the closing screen").toEqual([]);
      expect(await overflow(page)).toEqual({ screen: 0, document: 0 });
      await shot(`projector-closing-${scheme}`);
      expect(await seriousViolations(page, `/standup projector ${scheme}`)).toEqual([]);

      // Back with the left arrow and PageUp; a reload stays on the screen; Escape leaves for the standup.
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("PageUp");
      await expect(page).toHaveURL(new RegExp(`[?&]screen=${total - 2}(&|$)`));
      // (The header polls the sync state only on a server that follows: a reload cuts no poll here.)
      await page.reload();
      await expect(visibleScreen(page).getByTestId("projector-person")).toHaveText(names[total - 3]);
      await quiet(page);
      await page.keyboard.press("Escape");
      await expect(page).toHaveURL(/\/standup\?since=[0-9a-f]{40}$/);
      await expect(page.getByTestId("standup-people")).toBeVisible();
    });
  }

  test("the timer marks a person's time as over past the timebox", async ({ page, visit }) => {
    await page.setViewportSize(FULL_HD);
    await visit("/standup?projector=1&timebox=1&screen=2");
    await expect(page).toHaveURL(/timebox=1/);
    await expect(page).toHaveURL(/screen=2/);
    const timer = page.getByTestId("projector-timer");
    await expect(timer).toHaveAttribute("data-over", "", { timeout: 5_000 });
    await expect(timer).toContainText(/\/ 0:01 · over by \d:\d\d/);
    // The way out by the mouse: the standup by person, the window kept, the run's own settings dropped.
    await quiet(page);
    await page.getByTestId("projector-exit").click();
    await expect(page).toHaveURL(/\/standup\?since=[0-9a-f]{40}$/);
    await expect(page.getByTestId("standup-people")).toBeVisible();
  });

  test("the view by change keeps its own projector mode", async ({ page, visit }) => {
    await visit("/standup?projector=1&view=change");
    await expect(page.getByTestId("projector-run")).toHaveCount(0);
    await expect(page.locator("#section-done").getByTestId("change-BK-010")).toBeVisible();
  });
});
