import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, seriousViolations, test, type PlanJson } from "./fixtures";

// The waves graph: search, keyboard, the selected issue's chain, scope conflicts, filters, export.

async function planOf(page: Page): Promise<PlanJson> {
  return (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
}

function closure(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [...(next.get(start) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === start || seen.has(id)) continue;
    seen.add(id);
    stack.push(...(next.get(id) ?? []));
  }
  return seen;
}

function conflictPairs(plan: PlanJson) {
  return plan.findings
    .filter((f) => f.code === "scope_conflict")
    .map((f) => {
      const m = /^shares (.*) with (\S+); they may not run concurrently$/.exec(f.message)!;
      return { a: f.subject, b: m[2], path: m[1] };
    });
}

/** What each node should say about itself when `selected` is selected. */
function expectedHighlights(plan: PlanJson, selected: string): Map<string, string> {
  const ids = new Set(plan.issues.map((i) => i.id));
  const deps = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const i of plan.issues) {
    const own = [...new Set(i.depends_on.filter((d) => d !== i.id && ids.has(d)))];
    deps.set(i.id, own);
    for (const d of own) dependents.set(d, [...(dependents.get(d) ?? []), i.id]);
  }
  const up = closure(selected, deps);
  const down = closure(selected, dependents);
  const partners = new Set(
    conflictPairs(plan)
      .filter((p) => p.a === selected || p.b === selected)
      .map((p) => (p.a === selected ? p.b : p.a)),
  );
  return new Map(
    plan.issues.map((i) => [
      i.id,
      i.id === selected ? "selected" : up.has(i.id) ? "up" : down.has(i.id) ? "down" : partners.has(i.id) ? "partner" : "dim",
    ]),
  );
}

async function highlights(page: Page): Promise<Map<string, string>> {
  const pairs = await page
    .locator(".react-flow__node:has([data-highlight])")
    .evaluateAll((els) => els.map((e) => [e.getAttribute("data-id")!, e.querySelector("[data-highlight]")?.getAttribute("data-highlight") ?? ""]));
  return new Map(pairs as [string, string][]);
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

/** Every issue, unfolded, no lane collapsed: the whole plan in the graph. */
const WHOLE_PLAN = "/waves?milestone=all&fold=off";

/** The id of the node at a column and row of the graph as the page laid it out (undefined past the end). */
async function nodeAt(page: Page, column: number, row: number): Promise<string | undefined> {
  const at = page.locator(`.react-flow__node:has([data-column="${column}"][data-row="${row}"])`);
  return (await at.count()) ? ((await at.getAttribute("data-id")) ?? undefined) : undefined;
}

async function placeOf(page: Page, id: string): Promise<{ c: number; r: number; length: (c: number) => Promise<number> }> {
  const el = node(page, id).locator("[data-column]");
  return {
    c: Number(await el.getAttribute("data-column")),
    r: Number(await el.getAttribute("data-row")),
    length: (c) => page.locator(`.react-flow__node:has([data-column="${c}"])`).count(),
  };
}

/** How far (px) a node's centre is from the centre of the graph's viewport. */
async function offCentre(page: Page, id: string): Promise<number> {
  const pane = await page.getByTestId("waves-graph").locator(".react-flow").boundingBox();
  const box = await node(page, id).boundingBox();
  if (!pane || !box) return Infinity;
  return Math.hypot(box.x + box.width / 2 - (pane.x + pane.width / 2), box.y + box.height / 2 - (pane.y + pane.height / 2));
}

test("every issue is a node of the graph, and the list view (axe-clean) says the same", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  await visit(WHOLE_PLAN);
  const graph = page.getByTestId("waves-graph");
  await expect(graph).toHaveAttribute("data-issue-count", String(plan.issues.length));
  await expect(graph.locator(".react-flow__node:has([data-status])")).toHaveCount(plan.issues.length);
  const list = page.getByTestId("waves-list");
  await expect(list.getByRole("link")).toHaveCount(plan.issues.length);
  await expect(page.getByTestId("fit-all")).toBeVisible();
  await page.getByRole("button", { name: "Show as list" }).click();
  await expect(list).toBeVisible();
  // The list shows none of the graph's controls: no Fit all, no minimap, no legend of handles and arrows.
  for (const control of ["fit-all", "minimap-toggle", "edit-hint", "critical-legend"]) await expect(page.getByTestId(control)).toHaveCount(0);
  await expect(graph).toHaveCount(0);
  await expect(list.getByRole("heading", { name: "Wave 0" })).toBeVisible();
  await shot("list");
  expect(await seriousViolations(page, "/waves (list)")).toEqual([]);
});

test("typing a search pans to its first match and selects it, the search keeping the focus @demo", async ({ page, visit }) => {
  await visit("/waves?milestone=all");
  expect(await offCentre(page, "BK-020")).toBeGreaterThan(40);
  const search = page.getByTestId("waves-search");
  await search.fill("BK-020");
  await expect(page.getByTestId("selection")).toContainText("BK-020");
  await expect(node(page, "BK-020").locator("[data-highlight]")).toHaveAttribute("data-highlight", "selected");
  await expect.poll(() => offCentre(page, "BK-020"), { message: "BK-020 is panned to" }).toBeLessThan(12);
  await expect(search).toBeFocused();
  await expect(page).toHaveURL(/issue=BK-020/);
});

test("/ then an id and Enter focuses, centres and selects the issue, lighting its chain @demo", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  await visit("/waves?milestone=all");
  // The whole plan from the first wave: BK-020 starts away from the centre.
  expect(await offCentre(page, "BK-020")).toBeGreaterThan(40);

  await page.locator("main h1").click();
  await page.keyboard.press("/");
  const search = page.getByTestId("waves-search");
  await expect(search).toBeFocused();
  await page.keyboard.type("BK-020");
  await expect(page.locator("#search-results")).toContainText("BK-020");
  expect(await seriousViolations(page, "/waves (search results open)")).toEqual([]);
  await page.keyboard.press("Enter");

  await expect(node(page, "BK-020")).toBeFocused();
  await expect.poll(() => offCentre(page, "BK-020"), { message: "BK-020 is centred" }).toBeLessThan(12);
  await expect(node(page, "BK-020").locator("[data-highlight]")).toHaveAttribute("data-highlight", "selected");
  const want = expectedHighlights(plan, "BK-020");
  const drawn = await highlights(page);
  expect(drawn.size).toBeGreaterThan(5);
  expect(Object.fromEntries(drawn)).toEqual(Object.fromEntries([...want].filter(([id]) => drawn.has(id))));
  // Its chain: what it waits on and what finishing it unblocks.
  expect([...want].filter(([, h]) => h === "up").map(([id]) => id)).toEqual(expect.arrayContaining(["BK-012", "BK-022"]));
  await expect(page.getByTestId("selection")).toContainText("BK-020");
  await shot("BK-020 selected");
});

test("the arrow keys move between nodes (a folded chip is a stop too), and Enter opens the focused issue @demo", async ({ page, visit, shot }) => {
  await visit("/waves");
  await page.locator("main h1").click();
  await page.keyboard.press("/");
  await page.keyboard.type("BK-020");
  await page.keyboard.press("Enter");
  await expect(node(page, "BK-020")).toBeFocused();

  let at = "BK-020";
  const expectMove = async (key: string, to: string | undefined) => {
    expect(to, `a node in the direction of ${key} from ${at}`).toBeTruthy();
    await page.keyboard.press(key);
    await expect(node(page, to!), `${key} from ${at}`).toBeFocused();
    if (!to!.startsWith("fold:")) await expect(node(page, to!).locator("[data-highlight]")).toHaveAttribute("data-highlight", "selected");
    at = to!;
  };
  const { c, r, length } = await placeOf(page, at);
  expect(r, "BK-020 has a node above it in its wave").toBeGreaterThan(0);
  await expectMove("ArrowUp", await nodeAt(page, c, r - 1));
  await expectMove("ArrowDown", await nodeAt(page, c, r));
  await expectMove("ArrowLeft", await nodeAt(page, c - 1, Math.min(r, (await length(c - 1)) - 1)));
  const p = await placeOf(page, at);
  await expectMove("ArrowRight", await nodeAt(page, p.c + 1, Math.min(p.r, (await length(p.c + 1)) - 1)));
  await shot(`focused ${at}`);
  expect(at.startsWith("fold:"), "Enter opens an issue, not a chip").toBe(false);

  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/issues/${at}$`));
  await expect(page.locator("main h1")).toContainText(at);
});

test("the conflict list is grouped by path, and selecting an issue draws its conflicts", async ({ page, visit, shot }) => {
  const plan = await planOf(page);
  const pairs = conflictPairs(plan);
  const groups = new Map<string, typeof pairs>();
  for (const p of pairs) groups.set(p.path, [...(groups.get(p.path) ?? []), p]);
  const order = [...groups].sort((x, y) => y[1].length - x[1].length || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));

  await visit(WHOLE_PLAN);
  await expect(page.getByRole("heading", { name: `Scope conflicts (${pairs.length})` })).toBeVisible();
  const list = page.getByTestId("conflict-list");
  const summaries = await list.locator("details > summary").allTextContents();
  const shown = Math.min(order.length, 60);
  expect(summaries.map((s) => s.trim())).toEqual(order.slice(0, shown).map(([path, list]) => `${path} (${list.length})`));
  if (order.length > 60) await expect(list).toContainText(`…and ${order.length - 60} more paths`);

  // Open the first group; its pairs are listed; choosing one selects the issue and draws its conflicts.
  const [path, first] = order[0];
  const group = list.locator("details").first();
  await group.locator("summary").click();
  await expect(group.locator("li")).toHaveCount(Math.min(first.length, 50));
  const a = first[0].a;
  await group.locator("li").first().getByRole("button", { name: a, exact: true }).click();
  await expect(node(page, a)).toBeFocused();
  await expect(node(page, a).locator("[data-highlight]")).toHaveAttribute("data-highlight", "selected");

  const mine = pairs.filter((p) => p.a === a || p.b === a);
  const edges = page.locator('.react-flow__edge[data-id^="conflict:"]');
  await expect(edges).toHaveCount(mine.length);
  for (const p of mine.slice(0, 20)) await expect(page.locator(`.react-flow__edge[data-id="conflict:${p.a}:${p.b}"]`)).toHaveCount(1);
  await expect(page.getByTestId("selection")).toContainText(`conflicts ${mine.length}`);
  const partner = first[0].b;
  const want = expectedHighlights(plan, a).get(partner);
  await expect(node(page, partner).locator("[data-highlight]")).toHaveAttribute("data-highlight", want!);
  await expect(page.locator(".react-flow__edge-text", { hasText: path }).first()).toBeAttached();
  await shot(`conflicts of ${a}`);

  // Clearing the selection removes them.
  await page.getByRole("button", { name: "clear" }).click();
  await expect(edges).toHaveCount(0);
});

test("clicking a node with a conflict draws its conflict edge @demo", async ({ page, visit }) => {
  await visit("/waves");
  await node(page, "BK-015").click();
  await expect(node(page, "BK-015").locator("[data-highlight]")).toHaveAttribute("data-highlight", "selected");
  await expect(node(page, "BK-015").getByTestId("conflict-badge")).toHaveText("1");
  await expect(page.locator('.react-flow__edge[data-id="conflict:BK-015:BK-016"]')).toHaveCount(1);
  await expect(page.locator('.react-flow__edge[data-id="conflict:BK-015:BK-016"] .react-flow__edge-text')).toHaveText("apps/api/src/bookings");
  await expect(node(page, "BK-016").locator("[data-highlight]")).toHaveAttribute("data-highlight", "partner");
  // The selection dims every node outside the chain: still readable (axe), and the edges drawn.
  expect(await seriousViolations(page, "/waves (selected)")).toEqual([]);
});

test("the milestone and status filters narrow the graph @demo", async ({ page, visit }) => {
  const plan = await planOf(page);
  await visit(WHOLE_PLAN);
  const graph = page.getByTestId("waves-graph");
  const issues = graph.locator(".react-flow__node:has([data-status])");
  await page.getByTestId("milestone-filter").selectOption("booking");
  const booking = plan.issues.filter((i) => i.milestone === "booking");
  await expect(graph).toHaveAttribute("data-issue-count", String(booking.length));
  await expect(issues).toHaveCount(booking.length);
  await page.getByRole("checkbox", { name: "DONE" }).uncheck();
  const left = booking.filter((i) => i.status !== "DONE");
  await expect(issues).toHaveCount(left.length);
  for (const i of left) await expect(node(page, i.id)).toHaveCount(1);
});

test("the graph exports as Mermaid and DOT @demo", async ({ page, visit }) => {
  await visit("/waves");
  for (const [button, name, head] of [
    ["export-mermaid", "waves.mmd", /^flowchart LR/],
    ["export-dot", "waves.dot", /^digraph /],
  ] as const) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(button).click()]);
    expect(download.suggestedFilename()).toBe(name);
    const text = readFileSync((await download.path())!, "utf8");
    expect(text).toMatch(head);
    expect(text).toContain("BK-020");
  }
});

test("the list view selects issues (shift-click takes the range) and gives them one owner in one write; Undo puts them back @demo", async ({ page, visit, repo }) => {
  await visit("/waves");
  await page.getByRole("button", { name: "Show as list" }).click();
  const list = page.getByTestId("waves-list");
  await expect(list).toBeVisible();
  // Two issues of the list, and every one between them as the list shows them.
  const shown = await list.locator("li[data-bulk-id]").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-bulk-id")!));
  const range = shown.slice(1, 4);
  const files = range.map((id) => repo.issue(id));
  const before = files.map((f) => readFileSync(f, "utf8"));
  try {
    await page.getByTestId(`select-${range[0]}`).click();
    await page.getByTestId(`select-${range[2]}`).click({ modifiers: ["Shift"] });
    await expect(page.getByTestId("bulk-count")).toHaveText("3 selected");
    await page.getByTestId("bulk-value").fill("Ines Costa");
    await page.getByTestId("bulk-preview").click();
    await expect(page.getByTestId("bulk-preview-fields").locator("li")).toHaveText(range.map((id) => new RegExp(`^${id}: owner .* → Ines Costa$`)));
    await page.getByTestId("bulk-confirm").click();
    await expect(page.getByTestId("bulk-outcome")).toContainText("Written: 3 issues in one write (set owner=Ines Costa)");
    for (const f of files) expect(readFileSync(f, "utf8")).toMatch(/^owner: Ines Costa$/m);
    await page.getByTestId("bulk-undo").click();
    await expect(page.getByTestId("bulk-outcome")).toHaveText("Undone: 3 issues put back as they were.");
    expect(files.map((f) => readFileSync(f, "utf8"))).toEqual(before);
  } finally {
    repo.restore(...files);
  }
});
