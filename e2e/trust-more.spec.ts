import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { runGit } from "../tests/support/git";
import { expect, seriousViolations, settle, test, waitForPlan, type PlanJson } from "./fixtures";

// The header and the small gaps, and the graph's minimap: a commit panel with a message of one's
// own and a Cancel that commits nothing; a 404 inside the Cockpit that offers the nearest ids and
// a search; shortcuts that act on an issue page, each through its confirmation; a minimap that
// never hides a node of the first view (the waves' and the roadmap's), a first view that shows
// open work on a phone; unsealed stamps marked wherever the issue shows.

const SCHEMES = ["light", "dark"] as const;
const git = (dir: string, ...args: string[]) => runGit(dir, args);
const statusOf = (id: string) => (plan: PlanJson) => plan.issues.find((i) => i.id === id)?.status;

/** Visit a path the server answers 404, keeping the answer's status; its own 404 is not a problem of the page. */
async function visit404(page: Page, problems: { kind: string; text: string }[], path: string) {
  const answer = await page.goto(path);
  expect(answer?.status(), `${path} answers 404`).toBe(404);
  await settle(page);
  const url = new URL(path, page.url()).href;
  for (let i = problems.length - 1; i >= 0; i--) {
    if (problems[i].text.includes(url) || problems[i].text.includes("status of 404")) problems.splice(i, 1);
  }
}

test.describe("commit panel @demo", () => {
  test("a message of one's own, Cancel commits nothing, and after a commit the header is clear", async ({ page, visit, repo, shot }) => {
    test.slow();
    const plan = (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
    // A finished issue no move or edit of another test has touched: its change is by hand alone.
    const { entries } = (await (await page.request.get("/api/v1/plan/activity?limit=200")).json()) as { entries: { record: string }[] };
    const touched = new Set(entries.map((e) => e.record));
    const id = plan.issues.find((i) => i.status === "DONE" && !touched.has(i.id))!.id;
    const file = repo.issue(id);
    const head = git(repo.dir, "rev-parse", "HEAD");
    const before = readFileSync(file);
    appendFileSync(file, "# a note made by hand\n");
    try {
      await visit("/");
      const badge = page.getByTestId("uncommitted");
      await expect(badge).toHaveText("1 uncommitted");
      await badge.click();
      const panel = page.getByTestId("uncommitted-list");
      const message = panel.getByTestId("commit-message");
      await expect(message).toHaveValue(`plan: 1 record change (${id})`);
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        await shot(`commit panel ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      expect(await seriousViolations(page, "/ (commit panel)")).toEqual([]);

      // Cancel closes it, and nothing is committed.
      await panel.getByTestId("commit-cancel").click();
      await expect(panel).toHaveCount(0);
      await expect(badge).toHaveText("1 uncommitted");
      expect(git(repo.dir, "rev-parse", "HEAD")).toBe(head);
      // Escape closes it too.
      await badge.click();
      await expect(message).toBeVisible();
      await message.press("Escape");
      await expect(panel).toHaveCount(0);

      // A control character is refused before anything is sent, as an edit's would be.
      await badge.click();
      await message.fill("fix\u0007 the plan");
      await expect(panel.getByTestId("commit-message-problem")).toContainText("U+0007");
      await expect(panel.getByTestId("commit-confirm")).toBeDisabled();

      await message.fill("Plan: a note on a finished issue");
      await panel.getByTestId("commit-confirm").click();
      const outcome = page.getByTestId("commit-outcome");
      await expect(outcome).toHaveText(/^Committed 1 change\(s\) as [0-9a-f]{12}\.$/);
      expect(git(repo.dir, "log", "-1", "--format=%s")).toBe("Plan: a note on a finished issue");
      expect(git(repo.dir, "log", "-1", "--format=%b")).toContain(`- ${id}: modified by hand`);
      // No "0 uncommitted" badge, and the confirmation goes away by itself.
      await expect(badge).toHaveCount(0);
      await expect(panel).toHaveCount(0);
      await expect(outcome).toHaveText("", { timeout: 10_000 });
    } finally {
      // The test's restore goes back to HEAD, which is now the commit made here: put the bytes back.
      writeFileSync(file, before);
    }
    // The restore is a change in turn: committed with the field emptied, it gets the generated message.
    await page.reload();
    await settle(page);
    await page.getByTestId("uncommitted").click();
    await page.getByTestId("commit-message").fill("");
    await page.getByTestId("commit-confirm").click();
    await expect(page.getByTestId("commit-outcome")).toHaveText(/^Committed 1 change\(s\)/);
    expect(git(repo.dir, "log", "-1", "--format=%s")).toBe(`plan: 1 record change (${id})`);
    expect(git(repo.dir, "status", "--porcelain", "--", ".ai/repo/project")).toBe("");
    await expect(page.getByTestId("uncommitted")).toHaveCount(0);
  });
});

test.describe("the 404 page @demo", () => {
  for (const width of [1280, 390]) {
    test(`an unknown id or path gets the Cockpit's layout, the nearest ids and a search (${width} px)`, async ({ page, problems, shot }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      try {
        await visit404(page, problems, "/issues/BK-20");
        const main = page.getByTestId("not-found");
        await expect(main.getByRole("heading", { name: "Nothing here" })).toBeVisible();
        await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
        const near = main.getByTestId("not-found-near");
        await expect(near).toContainText("Did you mean");
        await expect(near.getByRole("link", { name: "BK-020" })).toHaveAttribute("href", "/issues/BK-020");
        const search = main.getByTestId("not-found-search");
        await expect(search).toHaveValue("BK-20");
        await search.fill("BK-02");
        await expect(main.getByTestId("not-found-results").getByRole("link", { name: "BK-020" })).toBeVisible();
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme });
          await shot(`404 issue ${scheme} ${width}`);
          expect(await seriousViolations(page, `404 (${scheme}, ${width} px)`)).toEqual([]);
        }
        await page.emulateMedia({ colorScheme: "light" });
        await near.getByRole("link", { name: "BK-020" }).click();
        await expect(page).toHaveURL(/\/issues\/BK-020$/);

        await visit404(page, problems, "/milestones/bookin");
        await expect(page.getByTestId("not-found-near").getByRole("link", { name: "booking" })).toHaveAttribute("href", "/milestones/booking");
        await visit404(page, problems, "/wave");
        await expect(page.getByTestId("not-found-near").getByRole("link")).toHaveAttribute("href", "/waves");
        await visit404(page, problems, "/people/nobody-at-all");
        await expect(page.getByTestId("not-found").getByRole("heading", { name: "Nothing here" })).toBeVisible();
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });
  }
});

test.describe("shortcuts on an issue page @demo", () => {
  test("s, v, d and e act through their confirmation, only when allowed, never while typing", async ({ page, visit, repo, shot }) => {
    const file = repo.issue("BK-020");
    repo.restore(file);
    await waitForPlan(page, (p) => statusOf("BK-020")(p) === "READY");
    const pristine = readFileSync(file);
    try {
      await visit("/issues/BK-020");
      // The ? list names them, in the shared dialog.
      await page.keyboard.press("?");
      const help = page.getByTestId("shortcuts-help");
      await expect(help).toHaveJSProperty("open", true);
      await expect(help.getByTestId("shortcuts-issue")).toContainText("start the issue");
      await expect(help.getByTestId("shortcuts-issue")).toContainText("edit a field");
      await shot("shortcuts list");
      await page.keyboard.press("Escape");
      await expect(help).toHaveJSProperty("open", false);

      const dialog = page.getByTestId("move-shortcut-dialog");
      // Typed into a field, a letter is a letter.
      const proof = page.getByTestId("evidence-form").locator("#ev-proof");
      await proof.click();
      await page.keyboard.type("sd");
      await expect(proof).toHaveValue("sd");
      await expect(dialog).toHaveJSProperty("open", false);
      await proof.fill("");
      await proof.blur();

      // Done from READY is refused: the dialog says why, and nothing is sent.
      await page.keyboard.press("d");
      await expect(dialog).toHaveJSProperty("open", true);
      await expect(dialog.getByTestId("move-shortcut-refusal")).not.toBeEmpty();
      await shot("shortcut d refused");
      await page.keyboard.press("Enter");
      await expect(dialog).toHaveJSProperty("open", false);
      expect(readFileSync(file).equals(pristine)).toBe(true);

      // Start: Escape cancels, Enter confirms.
      await page.keyboard.press("s");
      await expect(dialog.getByTestId("move-shortcut-before-after")).toHaveText("BK-020: READY → ACTIVE");
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        await shot(`shortcut s confirm ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      expect(await seriousViolations(page, "/issues/BK-020 (move dialog)")).toEqual([]);
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveJSProperty("open", false);
      expect(readFileSync(file).equals(pristine)).toBe(true);
      await page.keyboard.press("s");
      await expect(dialog).toHaveJSProperty("open", true);
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-020: READY → ACTIVE\./);
      await waitForPlan(page, (p) => statusOf("BK-020")(p) === "ACTIVE");
      await expect(page.getByTestId("issue-status")).toContainText("ACTIVE");
      await page.getByTestId("move-undo").click();
      await expect(page.getByTestId("undo-outcome")).toHaveText("Undone: BK-020 ACTIVE → READY.");
      expect(readFileSync(file).equals(pristine)).toBe(true);

      // e: pick a field, and the editor opens on it with its value focused; nothing is written.
      await page.keyboard.press("e");
      const edit = page.getByTestId("edit-shortcut-dialog");
      await expect(edit).toHaveJSProperty("open", true);
      await edit.getByTestId("edit-shortcut-field").selectOption("title");
      await page.keyboard.press("Enter");
      await expect(edit).toHaveJSProperty("open", false);
      const editor = page.getByTestId("record-editor");
      await expect(editor.getByLabel("Field")).toHaveValue("title");
      await expect(editor.getByLabel("Value")).toBeFocused();
      expect(readFileSync(file).equals(pristine)).toBe(true);
      await editor.getByLabel("Value").blur();

      // g s is the standup's chord, not a start.
      await page.keyboard.press("g");
      await page.keyboard.press("s");
      await expect(page).toHaveURL(/\/standup/);
      await settle(page);
      expect(readFileSync(file).equals(pristine)).toBe(true);
    } finally {
      repo.restore(file);
    }
  });
});

/** The boxes of the minimap and of every node in a graph's pane, clipped to the pane; how many of them are issue cards. */
function boxes(page: Page, graph = "waves-graph") {
  return page.getByTestId(graph).evaluate((pane) => {
    const p = pane.getBoundingClientRect();
    const clip = (r: DOMRect) => ({ left: Math.max(r.left, p.left), top: Math.max(r.top, p.top), right: Math.min(r.right, p.right), bottom: Math.min(r.bottom, p.bottom) });
    const mini = pane.querySelector(".react-flow__minimap")?.getBoundingClientRect();
    const nodes = [...pane.querySelectorAll<HTMLElement>(".react-flow__node")]
      .map((n) => ({ id: n.dataset.id ?? "", card: n.classList.contains("react-flow__node-issue"), ...clip(n.getBoundingClientRect()) }))
      .filter((b) => b.right > b.left && b.bottom > b.top);
    const overlapping = mini ? nodes.filter((b) => b.left < mini.right && b.right > mini.left && b.top < mini.bottom && b.bottom > mini.top).map((b) => b.id) : [];
    return { minimap: mini ? { width: mini.width, height: mini.height } : null, nodes: nodes.length, cards: nodes.filter((b) => b.card).length, overlapping };
  });
}

for (const project of ["demo", "majordomus"] as const) {
  test.describe(`the minimap @${project}`, () => {
    for (const width of [1280, 390]) {
      test(`no node of /waves' first view lies under the minimap (${width} px)`, async ({ page, visit, shot }) => {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        try {
          await visit("/waves");
          const graph = page.getByTestId("waves-graph");
          await expect(graph).toHaveAttribute("data-ready", "true");
          await expect(graph.locator(".react-flow__node").first()).toBeVisible();
          const first = await boxes(page);
          expect(first.nodes, "nodes in view").toBeGreaterThan(0);
          expect(first.overlapping, "nodes under the minimap").toEqual([]);
          const toggle = page.getByTestId("minimap-toggle");
          await expect(toggle).toHaveAttribute("aria-pressed", first.minimap ? "true" : "false");
          if (width === 390) expect(first.minimap, "a phone starts without the minimap").toBeNull();
          // The first view shows open work (the cards; finished work is folded into chips), not only finished chips.
          expect(first.cards, "open issues' cards in the first view").toBeGreaterThan(0);
          for (const scheme of SCHEMES) {
            await page.emulateMedia({ colorScheme: scheme });
            await shot(`waves first view ${project} ${scheme} ${width}`);
          }
          await page.emulateMedia({ colorScheme: "light" });
          // Its button shows or hides it.
          await toggle.click();
          await expect(graph.locator(".react-flow__minimap")).toHaveCount(first.minimap ? 0 : 1);
          await expect(toggle).toHaveAttribute("aria-pressed", first.minimap ? "false" : "true");
          expect(await seriousViolations(page, `/waves (${width} px)`)).toEqual([]);
        } finally {
          await page.setViewportSize({ width: 1280, height: 800 });
        }
      });

      test(`no milestone of the roadmap graph's first view lies under its minimap (${width} px)`, async ({ page, visit, shot }) => {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        try {
          await visit("/roadmap");
          const graph = page.getByTestId("milestone-graph");
          await graph.scrollIntoViewIfNeeded();
          await expect(graph.locator(".react-flow__node").first()).toBeVisible();
          const first = await boxes(page, "milestone-graph");
          expect(first.nodes, "milestones in view").toBeGreaterThan(0);
          expect(first.overlapping, "milestones under the minimap").toEqual([]);
          const toggle = page.getByTestId("milestone-minimap-toggle");
          await expect(toggle).toHaveAttribute("aria-pressed", first.minimap ? "true" : "false");
          if (width === 390) expect(first.minimap, "a phone starts without the minimap").toBeNull();
          await shot(`roadmap graph first view ${project} ${width}`);
          await toggle.click();
          await expect(graph.locator(".react-flow__minimap")).toHaveCount(first.minimap ? 0 : 1);
          await expect(toggle).toHaveAttribute("aria-pressed", first.minimap ? "false" : "true");
        } finally {
          await page.setViewportSize({ width: 1280, height: 800 });
        }
      });
    }
  });
}

test.describe("unsealed stamps @majordomus", () => {
  test("I0010's unsealed stamps are marked on its page, its milestone's list, the graph and the overview, with the adopt hint", async ({ page, visit, shot }) => {
    await visit("/issues/I0010");
    const note = page.getByTestId("unsealed-note");
    await expect(note).toContainText("cockpit plan adopt");
    await expect(page.getByTestId("stamps")).toContainText("not sealed");

    await visit("/milestones/M000");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "I0010", exact: true }) });
    await expect(row.getByTestId("unsealed-mark")).toHaveAttribute("title", /cockpit plan adopt/);
    // An issue whose stamps all count is not marked.
    const plan = (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
    const unsealed = new Set(plan.findings.filter((f) => f.code === "stamp_without_event").map((f) => f.subject));
    const sealed = plan.issues.find((i) => i.milestone === "M000" && !unsealed.has(i.id))!;
    await expect(page.getByRole("row").filter({ has: page.getByRole("link", { name: sealed.id, exact: true }) }).getByTestId("unsealed-mark")).toHaveCount(0);
    await shot("milestone with unsealed mark");

    await visit("/waves?milestone=M000&issue=I0010");
    const node = page.locator('.react-flow__node[data-id="I0010"]');
    await expect(node.getByTestId("unsealed-mark")).toHaveAttribute("title", /cockpit plan adopt/);
    await expect(node).toHaveAttribute("aria-label", /its stamps unsealed/);
    await expect(page.getByTestId("unsealed-legend")).toContainText("cockpit plan adopt");
    await shot("waves with unsealed mark");
    // The list view marks it too, and only the issues whose stamps do not count.
    await page.getByRole("button", { name: "Show as list" }).click();
    const list = page.getByTestId("waves-list");
    await expect(list).toBeVisible();
    const item = list.getByRole("listitem").filter({ has: page.getByRole("link", { name: "I0010", exact: true }) });
    await expect(item.getByTestId("unsealed-mark")).toHaveAttribute("title", /cockpit plan adopt/);
    const markedInList = await list.getByRole("listitem").filter({ has: page.getByTestId("unsealed-mark") }).getByRole("link").allTextContents();
    expect(markedInList.every((id) => unsealed.has(id))).toBe(true);
    await expect(list.getByRole("listitem").filter({ has: page.getByRole("link", { name: sealed.id, exact: true }) }).getByTestId("unsealed-mark")).toHaveCount(0);
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`waves list with unsealed mark ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    const next = (await (await page.request.get("/api/v1/plan/next")).json()) as { issue?: { id: string }; warnings?: { code: string }[] };
    await visit("/");
    expect(next.warnings?.map((w) => w.code)).toContain("unsealed_stamps");
    await expect(page.getByTestId("unsealed-note")).toContainText(`${next.issue!.id} has stamps that do not count`);
    expect(await seriousViolations(page)).toEqual([]);

    // The standup by person: every listed issue whose stamps do not count carries the mark, no other.
    const standup = (await (await page.request.get("/api/v1/plan/standup")).json()) as {
      people: Record<string, unknown>[];
      unowned: Record<string, unknown>;
    };
    const LISTS = ["done", "verify", "active", "blocked", "started", "landed"];
    const listed = new Set<string>();
    for (const lists of [...standup.people, standup.unowned]) for (const k of LISTS) for (const i of (lists[k] as { id: string }[] | undefined) ?? []) listed.add(i.id);
    const marked = [...listed].filter((id) => unsealed.has(id)).sort();
    expect(marked.length).toBeGreaterThan(0);
    // Every entry of every list (a card shows the first 8 of a list and +N more).
    await visit("/standup?all=1");
    const shown = await page.getByTestId("standup-people").locator("[data-testid^=person-issue-]").filter({ has: page.getByTestId("unsealed-mark") }).evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!.slice("person-issue-".length)));
    expect([...new Set(shown)].sort()).toEqual(marked);
  });
});

test.describe("say why @demo", () => {
  test("the overview and the roadmap say why the active milestone is not the roadmap's now", async ({ page, visit, shot }) => {
    // The demo as the e2e copy starts: accounts is now (VERIFY, waiting on security_review), booking is active.
    const roadmap = (await (await page.request.get("/api/v1/plan/roadmap")).json()) as { now?: string };
    const status = (await (await page.request.get("/api/v1/plan/status")).json()) as { project: { active_milestone: string } };
    expect(roadmap.now).toBe("accounts");
    expect(status.project.active_milestone).toBe("booking");
    const why = "accounts is now, but waits on its milestone evidence: security_review, so booking is the active milestone";
    for (const path of ["/", "/roadmap"]) {
      await visit(path);
      await expect(page.getByTestId("active-why")).toContainText(why);
      await shot(`active-why ${path}`);
    }
  });
});

test.describe("finding messages link their ids @demo", () => {
  test("the issue page's findings link every record id their message names", async ({ page, visit, shot }) => {
    await visit("/issues/BK-015");
    const findings = page.getByTestId("issue-findings");
    const conflict = findings.getByTestId("finding-message").filter({ hasText: "shares apps/api/src/bookings with BK-016" });
    await expect(conflict.getByRole("link", { name: "BK-016", exact: true })).toHaveAttribute("href", "/issues/BK-016");
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      await findings.scrollIntoViewIfNeeded();
      await shot(`issue findings ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    // An id that names no record stays text.
    await visit("/issues/BK-026");
    const missing = page.getByTestId("issue-findings").getByTestId("finding-message").filter({ hasText: "depends on BK-040, which is not an issue" });
    await expect(missing).toHaveCount(1);
    await expect(missing.getByRole("link")).toHaveCount(0);
  });
});
