import type { Locator, Page } from "@playwright/test";
import { expect, seriousViolations, test, type PlanJson } from "./fixtures";

// The graphs of /waves and /roadmap as a person first sees them at 1280×800: readable text, the
// active milestone in focus, finished work folded, lanes, keyboard pan and zoom, and the view in
// the URL (reload, back and forward).

async function planOf(page: Page): Promise<PlanJson> {
  return (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
}

const FOLDED = new Set(["DONE", "CANCELLED"]);

/** The graph's zoom (React Flow's viewport transform). */
async function viewportOf(graph: Locator): Promise<{ x: number; y: number; zoom: number }> {
  return graph.locator(".react-flow__viewport").evaluate((el) => {
    const m = new DOMMatrix(getComputedStyle(el).transform);
    return { x: m.e, y: m.f, zoom: m.a };
  });
}

interface TextSize {
  nodes: number;
  smallest: number;
  offenders: string[];
}

/**
 * The on-screen size of every piece of text in every node whose box intersects the graph's pane
 * (and the window): its computed font size times the graph's zoom.
 */
async function screenTextSize(graph: Locator): Promise<TextSize> {
  return graph.locator(".react-flow").evaluate((flow) => {
    const zoom = new DOMMatrix(getComputedStyle(flow.querySelector(".react-flow__viewport")!).transform).a;
    const pane = flow.getBoundingClientRect();
    const view = { left: Math.max(0, pane.left), top: Math.max(0, pane.top), right: Math.min(innerWidth, pane.right), bottom: Math.min(innerHeight, pane.bottom) };
    let nodes = 0;
    let smallest = Infinity;
    const offenders: string[] = [];
    for (const node of flow.querySelectorAll<HTMLElement>(".react-flow__node")) {
      const r = node.getBoundingClientRect();
      if (r.right <= view.left || r.left >= view.right || r.bottom <= view.top || r.top >= view.bottom) continue;
      nodes++;
      for (const el of [node, ...node.querySelectorAll<HTMLElement>("*")]) {
        const own = [...el.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim() !== "");
        if (!own) continue;
        const px = parseFloat(getComputedStyle(el).fontSize) * zoom;
        smallest = Math.min(smallest, px);
        if (px < 12) offenders.push(`${node.dataset.id}: "${el.textContent!.trim().slice(0, 30)}" ${px.toFixed(1)} px`);
      }
    }
    return { nodes, smallest, offenders: offenders.slice(0, 10) };
  });
}

async function waves(page: Page, visit: (p: string) => Promise<void>, path = "/waves") {
  await visit(path);
  const graph = page.getByTestId("waves-graph");
  await expect(graph).toHaveAttribute("data-ready", "true");
  await expect(graph.locator(".react-flow__node").first()).toBeVisible();
  return graph;
}

for (const scheme of ["light", "dark"] as const) {
  test(`the first view of /waves opens on the active milestone, its text at least 12 px on screen (${scheme})`, async ({ page, visit, shot }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const plan = await planOf(page);
    const graph = await waves(page, visit);
    await expect(page.getByTestId("milestone-filter")).toHaveValue(plan.project.active_milestone);
    const mine = plan.issues.filter((i) => i.milestone === plan.project.active_milestone);
    await expect(graph).toHaveAttribute("data-issue-count", String(mine.filter((i) => !FOLDED.has(i.status)).length));
    const size = await screenTextSize(graph);
    expect(size.nodes, "nodes in view").toBeGreaterThan(0);
    expect(size.offenders, `smallest ${size.smallest.toFixed(1)} px`).toEqual([]);
    expect(size.smallest).toBeGreaterThanOrEqual(12);
    await expect(graph.locator(".react-flow__minimap")).toBeVisible();
    await shot(`waves first view ${scheme}`);
    expect(await seriousViolations(page, `/waves (${scheme})`)).toEqual([]);
  });

  test(`the first view of the roadmap's milestone graph draws its text at least 12 px on screen (${scheme})`, async ({ page, visit, shot }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await visit("/roadmap");
    const graph = page.getByTestId("milestone-graph");
    await graph.scrollIntoViewIfNeeded();
    await expect(graph.locator(".react-flow__node").first()).toBeVisible();
    await expect.poll(async () => (await screenTextSize(graph)).nodes).toBeGreaterThan(0);
    const size = await screenTextSize(graph);
    expect(size.offenders, `smallest ${size.smallest.toFixed(1)} px`).toEqual([]);
    expect(size.smallest).toBeGreaterThanOrEqual(12);
    await shot(`roadmap graph ${scheme}`);
    // "Fit all" shows every milestone, however small.
    const nodes = await graph.locator(".react-flow__node").count();
    await page.getByTestId("milestone-fit-all").click();
    await expect
      .poll(async () => (await screenTextSize(graph)).nodes, { message: "every milestone in view after Fit all" })
      .toBe(nodes);
    expect(await seriousViolations(page, `/roadmap (${scheme})`)).toEqual([]);
  });
}

test("All milestones is one click away, drawn in lanes with readable text; Fit all shows everything", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  const graph = await waves(page, visit);
  await page.getByTestId("scope-toggle").click();
  await expect(page).toHaveURL(/[?&]milestone=all(&|$)/);
  await expect(page.getByTestId("milestone-filter")).toHaveValue("");
  const milestones = new Set(plan.issues.map((i) => i.milestone));
  await expect(graph.getByTestId("lane")).toHaveCount(milestones.size);
  await expect(graph).toHaveAttribute("data-issue-count", String(plan.issues.filter((i) => !FOLDED.has(i.status)).length));
  await expect.poll(async () => (await screenTextSize(graph)).nodes).toBeGreaterThan(0);
  const size = await screenTextSize(graph);
  expect(size.offenders).toEqual([]);
  await shot("all milestones first view");
  expect(await seriousViolations(page, "/waves?milestone=all")).toEqual([]);

  const before = (await viewportOf(graph)).zoom;
  await page.getByTestId("fit-all").click();
  await expect.poll(async () => (await viewportOf(graph)).zoom).toBeLessThan(before);
  const drawn = await graph.locator(".react-flow__node").count();
  await expect.poll(async () => (await screenTextSize(graph)).nodes, { message: "every node in view after Fit all" }).toBe(drawn);
  await shot("all milestones fit all");
});

test("finished work folds into one chip per cell with its count, and a chip opens in place", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  const graph = await waves(page, visit);
  const finished = plan.issues.filter((i) => i.milestone === plan.project.active_milestone && FOLDED.has(i.status));
  expect(finished.length, "the active milestone has finished work").toBeGreaterThan(0);
  const chips = graph.getByTestId("fold-chip");
  const counts = (await chips.allTextContents()).map((t) => Number(/(\d+) finished/.exec(t)![1]));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(finished.length);
  for (const i of finished) await expect(graph.locator(`.react-flow__node[data-id="${i.id}"]`)).toHaveCount(0);

  const before = Number(await graph.getAttribute("data-issue-count"));
  // A chip in view (the first view starts at the first wave with work left, so earlier ones are off to the left).
  const pane = (await graph.locator(".react-flow").boundingBox())!;
  let index = -1;
  for (let k = 0; k < counts.length && index < 0; k++) {
    const box = (await chips.nth(k).boundingBox())!;
    if (box.x >= pane.x && box.x + box.width <= pane.x + pane.width && box.y >= pane.y && box.y + box.height <= pane.y + pane.height) index = k;
  }
  expect(index, "a chip in the first view").toBeGreaterThanOrEqual(0);
  const chip = chips.nth(index);
  const chipBox = await chip.boundingBox();
  await chip.click();
  await expect(chip).toHaveAttribute("data-open", "true");
  await expect(graph).toHaveAttribute("data-issue-count", String(before + counts[index]));
  await expect(page).toHaveURL(/[?&]open=/);
  // In place: the chip did not move, and its issues are drawn right under it.
  expect(await chip.boundingBox()).toEqual(chipBox);
  const column = await chip.getAttribute("data-column");
  const row = Number(await chip.getAttribute("data-row"));
  const under = graph.locator(`.react-flow__node:has([data-column="${column}"][data-row="${row + 1}"])`);
  await expect(under.locator("[data-status]")).toHaveAttribute("data-status", /^(DONE|CANCELLED)$/);
  await shot("chip open");
  expect(await seriousViolations(page, "/waves (chip open)")).toEqual([]);

  // Enter on the focused chip folds it again.
  await graph.locator('.react-flow__node:has([data-testid="fold-chip"][data-open="true"])').focus();
  await page.keyboard.press("Enter");
  await expect(chip).toHaveAttribute("data-open", "false");
  await expect(graph).toHaveAttribute("data-issue-count", String(before));
});

test("a collapsed lane keeps its counts by status; grouping can be turned off", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  const graph = await waves(page, visit, "/waves?milestone=all");
  // The first lane with unfinished work (lanes follow the plan's milestone order).
  const lanes = await graph.getByTestId("lane").evaluateAll((els) => els.map((e) => e.getAttribute("data-lane")!));
  const id = lanes.find((m) => plan.issues.some((i) => i.milestone === m && !FOLDED.has(i.status)))!;
  const lane = graph.locator(`[data-testid="lane"][data-lane="${id}"]`);
  const members = plan.issues.filter((i) => i.milestone === id);
  const want = ["DONE", "VERIFY", "ACTIVE", "READY", "BLOCKED", "CANCELLED"]
    .map((s) => [s, members.filter((i) => i.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${n}`);
  await expect(lane.getByTestId("lane-counts")).toHaveText([`${members.length} issues`, ...want].join(" · "));
  const open = members.find((i) => !FOLDED.has(i.status))!;
  await expect(graph.locator(`.react-flow__node[data-id="${open.id}"]`)).toHaveCount(1);

  await graph.locator(`.react-flow__node[data-id="lane:${id}"]`).focus();
  await page.keyboard.press("Enter");
  await expect(lane).toHaveAttribute("data-collapsed", "true");
  await expect(page).toHaveURL(new RegExp(`[?&]collapsed=${encodeURIComponent(id)}(&|$)`));
  await expect(graph.locator(`.react-flow__node[data-id="${open.id}"]`)).toHaveCount(0);
  await expect(lane.getByTestId("lane-counts")).toHaveText([`${members.length} issues`, ...want].join(" · "));
  await shot("lane collapsed");
  expect(await seriousViolations(page, "/waves (lane collapsed)")).toEqual([]);

  await page.getByTestId("group-toggle").uncheck();
  await expect(page).toHaveURL(/[?&]group=none(&|$)/);
  await expect(graph.getByTestId("lane")).toHaveCount(0);
  await expect(graph.locator(`.react-flow__node[data-id="${open.id}"]`)).toHaveCount(1);
  await shot("no lanes");
  expect(await seriousViolations(page, "/waves (no lanes)")).toEqual([]);
});

test("with the graph focused, the arrow keys pan it and + and - zoom it; the URL keeps the viewport", async ({ page, visit }) => {
  const graph = await waves(page, visit);
  await graph.focus();
  const v0 = await viewportOf(graph);
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await viewportOf(graph)).x).toBeCloseTo(v0.x - 120, 0);
  await page.keyboard.press("ArrowDown");
  await expect.poll(async () => (await viewportOf(graph)).y).toBeCloseTo(v0.y - 120, 0);
  await page.keyboard.press("+");
  await expect.poll(async () => (await viewportOf(graph)).zoom).toBeGreaterThan(v0.zoom * 1.1);
  await page.keyboard.press("-");
  await expect.poll(async () => (await viewportOf(graph)).zoom).toBeCloseTo(v0.zoom, 2);
  await expect(page).toHaveURL(/[?&]v=/);
  const v1 = await viewportOf(graph);
  await page.reload();
  await expect(graph).toHaveAttribute("data-ready", "true");
  await expect.poll(async () => viewportOf(graph)).toEqual({ x: Math.round(v1.x), y: Math.round(v1.y), zoom: Math.round(v1.zoom * 1000) / 1000 });
});

test("the view lives in the URL: a reload opens the same view, back and forward move between views", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  const graph = await waves(page, visit);
  const start = page.url();

  await page.getByTestId("scope-toggle").click();
  await expect(page).toHaveURL(/milestone=all/);
  await page.getByRole("checkbox", { name: "BLOCKED" }).uncheck();
  await expect(page).toHaveURL(/status=DONE%2CVERIFY%2CACTIVE%2CREADY%2CCANCELLED/);
  await page.getByTestId("group-toggle").uncheck();
  await expect(page).toHaveURL(/group=none/);
  const target = plan.issues.find((i) => i.status === "READY")!;
  // Space selects the focused issue (a click may land on the minimap, which covers a corner).
  await graph.locator(`.react-flow__node[data-id="${target.id}"]`).focus();
  await page.keyboard.press(" ");
  await expect(page).toHaveURL(new RegExp(`issue=${target.id}`));
  await page.getByTestId("waves-search").fill("zz-nothing");
  await expect(page).toHaveURL(/q=zz-nothing/);
  await graph.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(/v=/);
  const url = page.url();
  const viewport = await viewportOf(graph);

  const expectView = async () => {
    await expect(page.getByTestId("milestone-filter")).toHaveValue("");
    await expect(page.getByRole("checkbox", { name: "BLOCKED" })).not.toBeChecked();
    await expect(page.getByTestId("group-toggle")).not.toBeChecked();
    await expect(page.getByTestId("waves-search")).toHaveValue("zz-nothing");
    await expect(page.getByTestId("selection")).toContainText(target.id);
    await expect(graph.locator(`.react-flow__node[data-id="${target.id}"] [data-highlight]`)).toHaveAttribute("data-highlight", "selected");
    await expect(graph.getByTestId("lane")).toHaveCount(0);
    for (const i of plan.issues.filter((x) => x.status === "BLOCKED").slice(0, 5)) await expect(graph.locator(`.react-flow__node[data-id="${i.id}"]`)).toHaveCount(0);
  };
  await expectView();

  // Back: before the selection (the search and the pan replaced their entry), then lanes again.
  await page.goBack();
  await expect(page.getByTestId("selection")).toHaveCount(0);
  await expect(page.getByTestId("group-toggle")).not.toBeChecked();
  await page.goBack();
  await expect(page.getByTestId("group-toggle")).toBeChecked();
  await expect(graph.getByTestId("lane").first()).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("checkbox", { name: "BLOCKED" })).toBeChecked();
  await page.goBack();
  expect(page.url()).toBe(start);
  await expect(page.getByTestId("milestone-filter")).toHaveValue(plan.project.active_milestone);
  // Forward all the way: the view as it was, at the same place.
  const rounded = { x: Math.round(viewport.x), y: Math.round(viewport.y), zoom: Math.round(viewport.zoom * 1000) / 1000 };
  for (let k = 0; k < 4; k++) await page.goForward();
  await expect(page).toHaveURL(url);
  await expectView();
  await expect.poll(async () => viewportOf(graph)).toEqual(rounded);

  // A reload (or the link, copied) opens the same view, at the same place.
  await page.reload();
  await expect(graph).toHaveAttribute("data-ready", "true");
  expect(page.url()).toBe(url);
  await expectView();
  await expect.poll(async () => viewportOf(graph)).toEqual(rounded);
  await shot("restored view");
  expect(await seriousViolations(page, "/waves (restored from the URL)")).toEqual([]);
});
