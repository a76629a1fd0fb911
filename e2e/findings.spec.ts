import { readFileSync, writeFileSync } from "node:fs";
import { FINDINGS_PAGE_SIZE } from "../lib/plan/finding-query";
import { expect, test, waitForPlan, type PlanJson } from "./fixtures";

// The findings page: grouped by level and code, each subject linked to its record.

async function planOf(page: import("@playwright/test").Page): Promise<PlanJson> {
  return (await (await page.request.get("/api/v1/plan")).json()) as PlanJson;
}

test("findings are grouped by level and code, and every subject links to a record that exists", async ({ page, visit }) => {
  const plan = await planOf(page);
  await visit("/findings");
  const issues = new Set(plan.issues.map((i) => i.id));
  const milestones = new Set(plan.milestones.map((m) => m.id));
  for (const level of ["FAIL", "WARN"] as const) {
    const mine = plan.findings.filter((f) => f.level === level);
    const section = page.locator(`section#${level}`);
    await expect(section.getByRole("heading", { level: 2 })).toHaveText(`${level === "FAIL" ? "Failures" : "Warnings"} (${mine.length})`);
    const codes = [...new Set(mine.map((f) => f.code))];
    for (const code of codes) {
      const n = mine.filter((f) => f.code === code).length;
      await expect(section.getByTestId(`findings-${code}`).locator("summary")).toHaveText(`${code} (${n})`);
      await expect(section.getByTestId(`findings-${code}`).locator("ul > li")).toHaveCount(Math.min(n, FINDINGS_PAGE_SIZE));
      // A longer list is paged, not cut: its pager says how many there are.
      if (n > FINDINGS_PAGE_SIZE) await expect(section.getByTestId(`findings-pager-${code}`)).toContainText(`of ${n}`);
    }
  }
  // Every link in a finding goes to a record of the plan (or to the graph, or to the project).
  const hrefs = await page.locator('[data-testid^="findings-"] li a').evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href")!))]);
  expect(hrefs.length).toBeGreaterThan(0);
  const broken = hrefs.filter((h) => {
    const m = /^\/(issues|milestones)\/([^/#?]+)$/.exec(h);
    if (!m) return !["/waves#cycle", "/#project"].includes(h);
    const id = decodeURIComponent(m[2]);
    return m[1] === "issues" ? !issues.has(id) : !milestones.has(id);
  });
  expect(broken, "links of findings to records that do not exist").toEqual([]);
});

test("a finding's subject opens its record @demo", async ({ page, visit }) => {
  await visit("/findings");
  await page.getByTestId("findings-unknown_dependency").getByRole("link", { name: "BK-026" }).click();
  await expect(page).toHaveURL(/\/issues\/BK-026$/);
  await expect(page.locator("main h1")).toContainText("BK-026");
  await expect(page.getByTestId("issue-findings")).toContainText("depends on BK-040, which is not an issue");
  await page.goBack();
  await page.getByTestId("findings-milestone_evidence_missing").getByRole("link", { name: "accounts" }).click();
  await expect(page).toHaveURL(/\/milestones\/accounts$/);
});

test("cycles: `graph` links to the cycle column of /waves, a milestone cycle links each of its milestones @demo", async ({ page, visit, repo, shot }) => {
  const files = [repo.issue("BK-025"), repo.milestone("notifications"), repo.milestone("payments")];
  repo.restore(...files);
  const add = (file: string, after: string, line: string) => {
    const text = readFileSync(file, "utf8");
    expect(text).toContain(after);
    writeFileSync(file, text.replace(after, `${after}${line}\n`));
  };
  try {
    add(repo.issue("BK-025"), "depends_on:\n", "  - BK-026"); // BK-026 already depends on BK-025
    add(repo.milestone("notifications"), "depends_on:\n", "  - payments");
    add(repo.milestone("payments"), "depends_on:\n", "  - notifications");
    await waitForPlan(page, (p) => p.findings.some((f) => f.code === "cycle") && p.findings.some((f) => f.code === "milestone_cycle"));
    const plan = await planOf(page);
    const cycle = plan.findings.find((f) => f.code === "milestone_cycle")!;
    // The subject names every milestone left without a rank: the cycle and what depends on it.
    const cyclic = cycle.subject.split(" ");
    expect(cyclic).toEqual(expect.arrayContaining(["notifications", "payments"]));

    await visit("/findings");
    const group = page.getByTestId("findings-milestone_cycle");
    for (const id of cyclic) await expect(group.getByRole("link", { name: id, exact: true })).toHaveAttribute("href", `/milestones/${id}`);
    const graph = page.getByTestId("findings-cycle").getByRole("link", { name: "graph" });
    await expect(graph).toHaveAttribute("href", "/waves#cycle");
    await shot("cycle findings");

    await graph.click();
    await expect(page).toHaveURL(/\/waves#cycle$/);
    const column = page.locator("#cycle");
    await expect(column.getByRole("heading")).toHaveText("In a cycle (no wave)");
    for (const id of ["BK-025", "BK-026"]) await expect(column.getByRole("link", { name: id, exact: true })).toHaveCount(1);

    await page.goBack();
    await group.getByRole("link", { name: "payments", exact: true }).click();
    await expect(page).toHaveURL(/\/milestones\/payments$/);
  } finally {
    repo.restore(...files);
  }
});

test("unreadable records show their file, line and reason @majordomus", async ({ page, visit }) => {
  const plan = await planOf(page);
  const unreadable = plan.findings.filter((f) => f.code === "unreadable_record");
  expect(unreadable).toHaveLength(6);
  await visit("/findings");
  const items = page.getByTestId("findings-unreadable_record").locator("ul > li");
  await expect(items).toHaveCount(unreadable.length);
  for (const f of unreadable) {
    const m = /^(\S+) does not parse at line (\d+), column (\d+): (.*)$/.exec(f.message)!;
    expect(m, f.message).not.toBeNull();
    const [, file, line, column, reason] = m;
    const item = items.filter({ hasText: file });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(`${f.subject} — ${file} line ${line}, column ${column}: ${reason}`);
    await expect(item.getByRole("link")).toHaveCount(0);
  }
});

test("search finds a scope conflict past the 500th, and both of its issues are links; the URL keeps the filters @majordomus", async ({ page, visit }) => {
  const plan = await planOf(page);
  const conflicts = plan.findings.filter((f) => f.code === "scope_conflict");
  expect(conflicts.length).toBeGreaterThan(600);
  const target = conflicts[600];
  const partner = /with (\S+);/.exec(target.message)![1];
  await visit("/findings");
  await page.getByTestId("findings-q").fill(`${target.subject} ${partner}`);
  await page.getByTestId("findings-code").selectOption("scope_conflict");
  await page.getByTestId("findings-search").click();
  await expect(page).toHaveURL(/[?&]code=scope_conflict/);
  expect(new URL(page.url()).searchParams.get("q")).toBe(`${target.subject} ${partner}`);
  const group = page.getByTestId("findings-scope_conflict");
  const row = group.locator("li").filter({ hasText: target.message });
  await expect(row.first()).toBeVisible();
  await expect(row.first().getByRole("link", { name: target.subject, exact: true })).toHaveAttribute("href", `/issues/${encodeURIComponent(target.subject)}`);
  await expect(row.first().getByRole("link", { name: partner, exact: true })).toHaveAttribute("href", `/issues/${encodeURIComponent(partner)}`);
  await expect(page.getByTestId("findings-count")).toContainText(`of ${plan.findings.length} findings match`);
  // A reload keeps the filters; Clear drops them.
  await page.reload();
  await expect(page.getByTestId("findings-q")).toHaveValue(`${target.subject} ${partner}`);
  await expect(page.getByTestId("findings-code")).toHaveValue("scope_conflict");
  await page.getByTestId("findings-clear").click();
  await expect(page).toHaveURL(/\/findings$/);
});

test("every scope conflict is reachable by its pages: the 7th page lists the 601st @majordomus", async ({ page, visit }) => {
  const plan = await planOf(page);
  const conflicts = plan.findings.filter((f) => f.code === "scope_conflict");
  await visit("/findings?code=scope_conflict&page=7");
  const group = page.getByTestId("findings-scope_conflict");
  await expect(group.locator("ul > li")).toHaveCount(Math.min(FINDINGS_PAGE_SIZE, conflicts.length - 600));
  await expect(group.locator("ul > li").first()).toContainText(conflicts[600].message);
  await expect(page.getByTestId("findings-pager-scope_conflict")).toContainText(`601–${Math.min(700, conflicts.length)} of ${conflicts.length}`);
  await page.getByTestId("findings-pager-scope_conflict").getByTestId("findings-next").click();
  await expect(page).toHaveURL(/page=8/);
  await expect(group.locator("ul > li").first()).toContainText(conflicts[700].message);
});

test("what the code says is its own group on /findings, counted the same there, on the overview and in the standup @demo", async ({ page, visit }) => {
  const code = (await (await page.request.get("/api/v1/plan/code")).json()) as { findings: { code: string; subject: string }[] };
  const standup = (await (await page.request.get("/api/v1/plan/standup")).json()) as { findings: { code: unknown[] } };
  expect(code.findings.length).toBeGreaterThan(0);
  expect(standup.findings.code).toHaveLength(code.findings.length);
  await visit("/findings");
  await expect(page.locator("section#code").getByRole("heading", { level: 2 })).toHaveText(`What the code says (${code.findings.length})`);
  await expect(page.getByTestId("findings-code-group").locator("li")).toHaveCount(code.findings.length);
  await expect(page.getByTestId("findings-code-group")).toContainText(code.findings[0].code);
  await visit("/");
  await expect(page.getByTestId("code-finding-count")).toHaveText(String(code.findings.length));
});
