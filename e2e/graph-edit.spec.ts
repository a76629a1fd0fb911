import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, seriousViolations, test } from "./fixtures";

// Editing dependencies on the waves graph, on the demo copy: a drag from one issue's handle to
// another proposes a dependency (previewed, written on Confirm), a drag that would close a cycle is
// refused by its preview, an edge selected and deleted removes one, and the tab's undo takes the
// last edit back. Every write is checked in the record file on disk.

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const edge = (page: Page, from: string, to: string) => page.getByTestId(`rf__edge-${from}->${to}`);

/** The depends_on list of a record file, as written. */
function dependsOn(path: string): string[] {
  const m = /^depends_on:\n((?: {2}- .*\n)*)/m.exec(readFileSync(path, "utf8"));
  return m ? m[1].split("\n").filter(Boolean).map((l) => l.replace(/^ {2}- /, "").trim()) : [];
}

/** Drag with the mouse from `from`'s right handle (where its arrows leave) to `to`'s left handle. */
async function dragDependency(page: Page, from: string, to: string) {
  const start = (await node(page, from).locator(".react-flow__handle.source").boundingBox())!;
  const end = (await node(page, to).locator(".react-flow__handle.target").boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2 + 20, { steps: 8 });
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Click the middle of an edge (a level edge has no height, so Playwright's own click calls it hidden). */
async function clickEdge(page: Page, from: string, to: string) {
  const box = await edge(page, from, to)
    .locator(".react-flow__edge-path")
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
  await page.mouse.click(box.x, box.y);
}

async function openWaves(page: Page, visit: (path: string) => Promise<void>) {
  await visit("/waves?milestone=booking");
  await expect(page.getByTestId("waves-graph")).toHaveAttribute("data-ready", "true");
  for (const id of ["BK-016", "BK-020", "BK-013", "BK-014"]) await expect(node(page, id)).toBeVisible();
}

test.describe("editing dependencies on the graph @demo", () => {
  test("drag adds a dependency after its preview, a cycle is refused, cancel writes nothing, undo takes it back", async ({ page, visit, repo }) => {
    const waiting = repo.issue("BK-020");
    const other = repo.issue("BK-016");
    repo.restore(waiting, other);
    try {
      await openWaves(page, visit);
      const before = readFileSync(waiting, "utf8");
      const deps = dependsOn(waiting);
      expect(deps).not.toContain("BK-016");

      // BK-016 → BK-020: BK-020 (READY) would wait on BK-016 (READY), so it becomes BLOCKED.
      await dragDependency(page, "BK-016", "BK-020");
      const dialog = page.getByTestId("graph-edit-dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText("BK-020 Live calendar feed");
      await expect(dialog).toContainText("will wait on BK-016");
      await expect(page.getByTestId("edit-preview")).toContainText("BK-020: status READY → BLOCKED");
      await expect(page.getByTestId("edit-confirm")).toBeEnabled();
      expect(readFileSync(waiting, "utf8")).toBe(before);
      expect(await seriousViolations(page, "/waves with the dependency preview")).toEqual([]);

      // Confirm writes it and closes the dialog (it stayed open over the graph once): the bar above says what was written.
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("graph-edit-written")).toHaveText("Written: BK-020 add depends_on BK-016: add depends_on=BK-016.");
      await expect(dialog).toHaveCount(0);
      expect(dependsOn(waiting)).toEqual([...deps, "BK-016"]);
      await expect(edge(page, "BK-016", "BK-020")).toHaveCount(1);
      await expect(node(page, "BK-020").locator("[data-status]")).toHaveAttribute("data-status", "BLOCKED");

      // The other way round closes a cycle: the preview names the FAIL finding and offers no confirm.
      const otherBefore = readFileSync(other, "utf8");
      await dragDependency(page, "BK-020", "BK-016");
      await expect(page.getByTestId("edit-preview")).toContainText("Would be refused");
      await expect(page.getByTestId("edit-preview")).toContainText("cycle");
      await expect(page.getByTestId("edit-confirm")).toBeDisabled();
      await page.getByTestId("edit-cancel").click();
      await expect(page.getByTestId("edit-preview")).toHaveCount(0);
      expect(readFileSync(other, "utf8")).toBe(otherBefore);

      // Undo: the last edit of the tab, itself previewed, then written.
      await page.getByTestId("edit-undo").click();
      await expect(page.getByTestId("edit-preview")).toContainText("BK-020: status BLOCKED → READY");
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("graph-edit-written")).toHaveText("Written: BK-020 undo of add depends_on BK-016: remove depends_on=BK-016.");
      await expect(page.getByTestId("graph-edit-dialog")).toHaveCount(0);
      expect(dependsOn(waiting)).toEqual(deps);
      await expect(edge(page, "BK-016", "BK-020")).toHaveCount(0);
      await expect(node(page, "BK-020").locator("[data-status]")).toHaveAttribute("data-status", "READY");
    } finally {
      repo.restore(waiting, other);
    }
  });

  test("select an edge and press Delete: the dependency is removed after its preview", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-014");
    repo.restore(file);
    try {
      await openWaves(page, visit);
      expect(dependsOn(file)).toContain("BK-013");

      await clickEdge(page, "BK-013", "BK-014");
      await expect(page.getByTestId("edge-selection")).toContainText("BK-013 → BK-014 selected");
      await expect(edge(page, "BK-013", "BK-014")).toHaveClass(/chosen/);
      await page.keyboard.press("Delete");
      await expect(page.getByTestId("graph-edit-dialog")).toContainText("BK-014 Public booking page");
      await expect(page.getByTestId("graph-edit-dialog")).toContainText("will no longer wait on BK-013");
      await expect(page.getByTestId("edit-preview")).toContainText("BK-014: status BLOCKED → READY");
      expect(dependsOn(file)).toContain("BK-013");

      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("graph-edit-written")).toHaveText("Written: BK-014 remove depends_on BK-013: remove depends_on=BK-013.");
      await expect(page.getByTestId("graph-edit-dialog")).toHaveCount(0);
      expect(dependsOn(file)).not.toContain("BK-013");
      await expect(edge(page, "BK-013", "BK-014")).toHaveCount(0);
      await expect(page.getByTestId("edge-selection")).toHaveCount(0);
    } finally {
      repo.restore(file);
    }
  });

  test("an edge is reached with the keyboard: Tab to it, Enter selects, Delete proposes its removal; Escape closes", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-014");
    repo.restore(file);
    try {
      await openWaves(page, visit);
      const before = readFileSync(file, "utf8");
      await edge(page, "BK-013", "BK-014").focus();
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("edge-selection")).toContainText("BK-013 → BK-014 selected");
      await page.keyboard.press("Delete");
      await expect(page.getByTestId("graph-edit-dialog")).toBeFocused();
      await expect(page.getByTestId("edit-preview")).toContainText("BK-014: status BLOCKED → READY");
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("graph-edit-dialog")).toHaveCount(0);
      expect(readFileSync(file, "utf8")).toBe(before);
    } finally {
      repo.restore(file);
    }
  });

  test("the confirm carries the version it previewed: a record changed since is refused, then re-applied to it", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-020");
    repo.restore(file);
    try {
      await openWaves(page, visit);
      await dragDependency(page, "BK-016", "BK-020");
      await expect(page.getByTestId("edit-preview")).toContainText("BK-020: status READY → BLOCKED");
      // Someone else edits the record between the preview and the confirm.
      repo.cockpit("plan", "edit", "BK-020", "--set", "priority=p3");
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("edit-outcome")).toContainText("Refused: BK-020 changed since version");
      expect(dependsOn(file)).not.toContain("BK-016");
      await page.getByTestId("edit-reapply").click();
      await expect(page.getByTestId("edit-confirm")).toBeEnabled();
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("graph-edit-written")).toHaveText("Written: BK-020 add depends_on BK-016: add depends_on=BK-016.");
      expect(dependsOn(file)).toContain("BK-016");
      expect(readFileSync(file, "utf8")).toMatch(/^priority: p3$/m);
    } finally {
      repo.restore(file);
    }
  });

  test("clicking one issue's right handle and then another's left handle proposes the same dependency", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-020");
    repo.restore(file);
    await openWaves(page, visit);
    const before = readFileSync(file, "utf8");
    await node(page, "BK-016").locator(".react-flow__handle.source").click();
    await node(page, "BK-020").locator(".react-flow__handle.target").click();
    await expect(page.getByTestId("graph-edit-dialog")).toContainText("will wait on BK-016");
    await expect(page.getByTestId("edit-preview")).toContainText("BK-020: status READY → BLOCKED");
    await page.getByTestId("edit-cancel").click();
    await expect(page.getByTestId("edit-preview")).toHaveCount(0);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  // The preview after a drag, light and dark, at 1280×800, for a person to look at.
  // Saved under the test's output folder, or COCKPIT_SHOTS_DIR when set.
  test("screenshots of the preview after a drag", async ({ page, visit, repo }, info) => {
    const dir = process.env.COCKPIT_SHOTS_DIR || info.outputDir;
    mkdirSync(dir, { recursive: true });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openWaves(page, visit);
      await dragDependency(page, "BK-016", "BK-020");
      await expect(page.getByTestId("edit-preview")).toContainText("BK-020: status READY → BLOCKED");
      await page.screenshot({ path: join(dir, `graph-edit-${scheme}.png`) });
      await page.getByTestId("edit-cancel").click();
    }
    expect(readFileSync(repo.issue("BK-020"), "utf8")).not.toContain("BK-016");
  });

  // The dialog never covers the edited cards: beside them at 1280×800, a bottom sheet with the cards
  // panned above it at 390 px (again when the sheet grows with the preview); among the pairs, the
  // leftmost and the rightmost card of the pane.
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${size.width}×${size.height} the edit dialog misses both cards' boxes`, async ({ page, visit, repo }, info) => {
      test.slow();
      repo.restore(repo.issue("BK-020"), repo.issue("BK-016"));
      await page.setViewportSize(size);
      const dir = process.env.COCKPIT_SHOTS_DIR || info.outputDir;
      mkdirSync(dir, { recursive: true });
      // Focused on BK-016, so a phone's first view shows cards, not only the finished chips.
      const path = "/waves?milestone=booking&issue=BK-016";
      await visit(path);
      const pane = page.getByTestId("waves-graph");
      await expect(pane).toHaveAttribute("data-ready", "true");
      await pane.scrollIntoViewIfNeeded();
      const paneBox = (await pane.boundingBox())!;
      // The issue cards drawn wholly inside the pane, left to right.
      const shown = await page.locator(".react-flow__node-issue").evaluateAll(
        (els, p) =>
          els
            .map((e) => ({ id: e.getAttribute("data-id")!, r: e.getBoundingClientRect() }))
            .filter(({ r }) => r.left >= p.x && r.right <= p.x + p.width && r.top >= p.y && r.bottom <= p.y + p.height)
            .sort((a, b) => a.r.left - b.r.left)
            .map(({ id }) => id),
        paneBox,
      );
      expect(shown.length).toBeGreaterThanOrEqual(2);
      const pairs: [string, string][] = [[shown[0], shown[shown.length - 1]]];
      if (shown.includes("BK-016") && shown.includes("BK-020")) pairs.push(["BK-016", "BK-020"]);
      for (const [k, [from, to]] of pairs.entries()) {
        // Each pair from the first view (the last pan moved the cards).
        if (k > 0) {
          await visit(path);
          await expect(pane).toHaveAttribute("data-ready", "true");
          await pane.scrollIntoViewIfNeeded();
        }
        await node(page, from).locator(".react-flow__handle.source").click();
        await node(page, to).locator(".react-flow__handle.target").click();
        const dialog = page.getByTestId("graph-edit-dialog");
        await expect(dialog).toBeVisible();
        await expect(page.getByTestId("edit-preview")).toBeVisible();
        // The pan is animated: wait until the cards stop moving.
        let last = "";
        await expect
          .poll(async () => {
            const now = JSON.stringify([await node(page, from).boundingBox(), await node(page, to).boundingBox()]);
            const still = now === last;
            last = now;
            return still;
          })
          .toBe(true);
        const d = (await dialog.boundingBox())!;
        for (const id of [from, to]) {
          const c = (await node(page, id).boundingBox())!;
          const overlaps = c.x < d.x + d.width && d.x < c.x + c.width && c.y < d.y + d.height && d.y < c.y + c.height;
          expect(overlaps, `${id} (${JSON.stringify(c)}) under the dialog (${JSON.stringify(d)})`).toBe(false);
          expect(c.x >= paneBox.x - 1 && c.x + c.width <= paneBox.x + paneBox.width + 1 && c.y >= paneBox.y - 1 && c.y + c.height <= paneBox.y + paneBox.height + 1, `${id} inside the pane`).toBe(true);
        }
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({ path: join(dir, `graph-edit-dialog-${size.width}-${from}-${to}-${scheme}.png`) });
        }
        await page.emulateMedia({ colorScheme: "light" });
        await page.getByTestId("graph-edit-close").click();
        await expect(dialog).toHaveCount(0);
      }
      expect(readFileSync(repo.issue("BK-020"), "utf8")).not.toContain("BK-016");
    });
  }
});
