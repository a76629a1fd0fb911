import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { expect, quiet, seriousViolations, test, type PlanJson } from "./fixtures";

// Every page renders on both repositories with no console error, no page error and no failed
// request (the `page` fixture checks that at the end of each test), and axe finds no serious or
// critical violation on it.

const PAGES: Record<string, { path: string; check?: string }[]> = {
  demo: [
    { path: "/", check: "fail-count" },
    { path: "/roadmap", check: "milestone-graph" },
    { path: "/waves", check: "waves-graph" },
    { path: "/findings", check: "findings-unknown_dependency" },
    { path: "/issues/BK-020", check: "evidence-form" },
    { path: "/issues/BK-015", check: "issue-findings" },
    { path: "/milestones/booking", check: "milestone-status" },
    { path: "/plans" },
    { path: "/standup" },
    { path: "/inbox", check: "inbox-summary" },
  ],
  majordomus: [
    { path: "/", check: "fail-count" },
    { path: "/roadmap", check: "milestone-graph" },
    { path: "/waves", check: "waves-graph" },
    { path: "/findings", check: "findings-unreadable_record" },
    { path: "/findings?code=scope_conflict&page=7", check: "findings-pager-scope_conflict" },
    { path: "/issues/I0007", check: "issue-status" },
    { path: "/milestones/M000", check: "milestone-status" },
    { path: "/plans" },
    { path: "/inbox", check: "inbox-summary" },
  ],
};

for (const [project, pages] of Object.entries(PAGES)) {
  for (const { path, check } of pages) {
    test(`${path} renders cleanly and passes axe @${project}`, async ({ page, visit }) => {
      if (project === "majordomus" && path === "/waves") test.slow(); // axe over 327 nodes and their edges
      await visit(path);
      await expect(page.locator("main h1")).toBeVisible();
      if (check) await expect(page.getByTestId(check).first()).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

// Two of axe's moderate rules once failed here: `region` (the live-state announcement sat outside
// every landmark) and `heading-order` (the waves list's h3s followed the page's h1).
for (const path of ["/", "/waves", "/standup", "/issues/BK-020"]) {
  test(`${path} keeps every element in a landmark and its headings in order @demo`, async ({ page, visit }) => {
    await visit(path);
    const results = await new AxeBuilder({ page }).setLegacyMode(true).withRules(["region", "heading-order"]).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}

test("a browser's own request for /favicon.ico finds the icon @demo", async ({ request }) => {
  const direct = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(direct.status()).toBe(308);
  expect(direct.headers()["location"]).toBe("/icon.svg");
  const followed = await request.get("/favicon.ico");
  expect(followed.status()).toBe(200);
  expect(followed.headers()["content-type"]).toContain("image/svg+xml");
});

test("the overview's counts are the plan's, and link to the findings", async ({ page, visit }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
  const fails = plan.findings.filter((f) => f.level === "FAIL").length;
  const warns = plan.findings.filter((f) => f.level === "WARN").length;
  await visit("/");
  await expect(page.getByTestId("fail-count")).toHaveText(String(fails));
  await expect(page.getByTestId("warn-count")).toHaveText(String(warns));
  for (const row of plan.milestones) await expect(page.getByTestId(`milestone-row-${row.id}`)).toHaveCount(1);

  await page.getByTestId("fail-count").click();
  await expect(page).toHaveURL(/\/findings#FAIL$/);
  await expect(page.locator("section#FAIL")).toBeInViewport();
  await quiet(page);
  await page.goBack();
  await expect(page.getByTestId("warn-count")).toBeVisible();
  await page.getByTestId("warn-count").click();
  await expect(page).toHaveURL(/\/findings#WARN$/);
  await expect(page.locator("section#WARN")).toBeInViewport();
});

test("the roadmap shows now, next, every milestone and the milestone graph", async ({ page, visit }) => {
  const roadmap = (await (await page.request.get("/api/v1/plan/roadmap")).json()) as {
    now: string | null;
    next: string | null;
    milestones: { id: string }[];
  };
  await visit("/roadmap");
  await expect(page.getByTestId("roadmap-now")).toHaveText(roadmap.now ?? "none");
  await expect(page.getByTestId("roadmap-next")).toHaveText(roadmap.next ?? "none");
  const ids = await page.locator('[data-testid^="roadmap-"]:not([data-testid="roadmap-now"]):not([data-testid="roadmap-next"])').evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-testid")!.slice("roadmap-".length)),
  );
  expect(ids).toEqual(roadmap.milestones.map((m) => m.id));
  await expect(page.getByTestId("milestone-graph").locator(".react-flow__node")).toHaveCount(roadmap.milestones.length);
});

test("every issue and milestone page of the demo is served, and one issue of each other status renders @demo", async ({ page, visit }) => {
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
  // Every record's page, as the server renders it, four at a time.
  const pages = [...plan.milestones.map((m) => ({ path: `/milestones/${m.id}`, status: m.status })), ...plan.issues.map((i) => ({ path: `/issues/${i.id}`, status: i.status }))];
  for (let k = 0; k < pages.length; k += 4) {
    await Promise.all(
      pages.slice(k, k + 4).map(async ({ path, status }) => {
        const res = await page.request.get(path);
        expect(res.status(), path).toBe(200);
        expect(await res.text(), `${path} shows its status`).toContain(`>${status}</span>`);
      }),
    );
  }
  // In the browser: one issue of each status the pages above do not show (READY and ACTIVE are).
  const seen = new Set(["READY", "ACTIVE"]);
  for (const i of plan.issues) {
    if (seen.has(i.status)) continue;
    seen.add(i.status);
    await visit(`/issues/${i.id}`);
    await expect(page.getByTestId("issue-status")).toHaveText(i.status);
  }
  expect([...seen].sort()).toEqual(["ACTIVE", "BLOCKED", "CANCELLED", "DONE", "READY", "VERIFY"]);
});

test("a milestone's issues show their owner and priority, and filter by person @demo", async ({ page, visit, repo, shot }) => {
  // What the files say: each booking issue's owner.
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
  const booking = plan.issues.filter((i) => i.milestone === "booking");
  const ownerOf = (id: string) => /^owner: (.+)$/m.exec(readFileSync(repo.issue(id), "utf8"))?.[1]?.trim() ?? "";
  const toms = booking.filter((i) => ownerOf(i.id) === "tom");
  expect(toms.length).toBeGreaterThan(0);
  expect(toms.length).toBeLessThan(booking.length);

  await visit("/milestones/booking");
  for (const i of booking) await expect(page.getByTestId(`milestone-owner-${i.id}`)).toHaveText(ownerOf(i.id) || "—");
  await page.getByLabel("Person").selectOption("tom");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/milestones\/booking\?person=tom$/);
  await expect(page.getByTestId("milestone-person-shown")).toHaveText(`${toms.length} of ${booking.length} issues are tom's`);
  await expect(page.locator('[data-testid^="milestone-issue-"]')).toHaveCount(toms.length);
  for (const i of toms) await expect(page.getByTestId(`milestone-issue-${i.id}`)).toBeVisible();
  await quiet(page);
  expect(await seriousViolations(page)).toEqual([]);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.getByTestId("milestone-person-filter").scrollIntoViewIfNeeded();
    await shot(`milestone-by-person-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
});
