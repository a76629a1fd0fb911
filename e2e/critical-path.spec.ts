import type { Page } from "@playwright/test";
import { expect, quiet, seriousViolations, test } from "./fixtures";

// The waves graph draws the critical path that plan.critical_path answers: the same issues, the
// links between them, for the milestone in view or for the whole plan.

interface CriticalPath {
  milestone: string | null;
  path: { id: string; title: string; status: string; weight: number }[];
  total: number;
}

async function criticalPathOf(page: Page, milestone?: string): Promise<string[]> {
  const r = await page.request.get(`/api/v1/plan/critical_path${milestone ? `?milestone=${encodeURIComponent(milestone)}` : ""}`);
  expect(r.status()).toBe(200);
  return ((await r.json()) as CriticalPath).path.map((s) => s.id);
}

/** The ids of the nodes the graph marks as on the critical path, in id order. */
async function drawnPath(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId("waves-graph")
    .locator('.react-flow__node:has([data-critical="true"])')
    .evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.id!));
  return ids.sort();
}

const criticalEdges = (page: Page) => page.getByTestId("waves-graph").locator(".react-flow__edge.critical");

for (const project of ["demo", "majordomus"] as const) {
  test(`the graph highlights the critical path the API answers, for the active milestone and for all @${project}`, async ({ page, visit, shot }) => {
    if (project === "majordomus") test.slow();
    const plan = (await (await page.request.get("/api/v1/plan")).json()) as { project: { active_milestone: string } };
    const active = plan.project.active_milestone;
    const ofActive = await criticalPathOf(page, active);
    const ofAll = await criticalPathOf(page);
    expect(ofAll.length, "the plan has a chain of unfinished work").toBeGreaterThan(1);

    await visit(`/waves?milestone=${encodeURIComponent(active)}`);
    await expect.poll(() => drawnPath(page)).toEqual([...ofActive].sort());
    await expect(criticalEdges(page)).toHaveCount(Math.max(0, ofActive.length - 1));

    await visit("/waves?milestone=all");
    await expect.poll(() => drawnPath(page)).toEqual([...ofAll].sort());
    await expect(criticalEdges(page)).toHaveCount(ofAll.length - 1);
    // Each node on the path says so to a screen reader.
    const first = page.getByTestId("waves-graph").locator(`.react-flow__node[data-id="${ofAll[0]}"]`);
    await expect(first).toHaveAttribute("aria-label", /on the critical path/);
    await shot("critical-path-all");
    expect(await seriousViolations(page, "waves with the critical path")).toEqual([]);

    // It can be hidden, and the URL keeps that.
    await page.getByTestId("critical-toggle").click();
    await expect.poll(() => drawnPath(page)).toEqual([]);
    await expect(criticalEdges(page)).toHaveCount(0);
    await expect.poll(() => new URL(page.url()).searchParams.get("critical")).toBe("off");
    await quiet(page);
  });
}
