import { readFileSync } from "node:fs";
import { expect, test, waitForPlan, type PlanJson } from "./fixtures";

// The code in the plan, on the demo's history (scripts/make-demo.mjs, CODE_BRANCHES): the issue
// page's Code panel, the move it suggests (made only through its confirmation), the standup's
// Landed section, the waves graph's mark and the overview's warning.

const statusOf = (id: string) => (plan: PlanJson) => plan.issues.find((i) => i.id === id)?.status;

test.describe("the code @demo", () => {
  test("BK-024's Code panel: a teammate's remote branch, its commits, and the suggested start behind its confirmation", async ({ page, visit, repo, shot }) => {
    const file = repo.issue("BK-024");
    repo.restore(file);
    try {
      await waitForPlan(page, (p) => statusOf("BK-024")(p) === "READY");
      await visit("/issues/BK-024");
      const panel = page.getByTestId("code-panel");
      const branch = panel.getByTestId("code-branch-origin/bk-024-postmark");
      await expect(branch).toContainText("origin/bk-024-postmark");
      await expect(branch.locator("td").nth(1)).toHaveText("2");
      await expect(branch.locator("td").nth(3)).toHaveText("no");
      await expect(panel.getByTestId("code-commits").locator("li")).toHaveCount(2);
      await expect(panel.getByTestId("code-commits").locator("li").first()).toContainText("Versioned templates for the booking emails");
      await expect(panel.getByTestId("code-commits").locator("li").first()).toContainText("Marek Nowak");
      await expect(panel.getByTestId("code-findings")).toContainText("work_without_start");
      // The findings card counts what the code says too (it said "(0)" under the panel's WARN).
      await expect(page.getByTestId("issue-code-finding").filter({ hasText: "work_without_start" })).toHaveCount(1);
      await expect(page.getByRole("heading", { name: /^Findings about it \([1-9]\d*\)$/ })).toBeVisible();

      // The suggestion opens the move's confirmation; nothing is written until it is confirmed.
      const before = readFileSync(file);
      await panel.getByTestId("suggested-start").click();
      await expect(panel.getByTestId("suggested-before-after")).toHaveText("BK-024: READY → ACTIVE");
      await shot("BK-024 suggested start, confirmation open");
      await panel.getByTestId("suggested-cancel").click();
      await expect(panel.getByTestId("suggested-confirm")).toHaveCount(0);
      expect(readFileSync(file).equals(before)).toBe(true);
      await expect(page.getByTestId("issue-status")).toHaveText("READY");

      await panel.getByTestId("suggested-start").click();
      await panel.getByTestId("suggested-confirm-button").click();
      await expect(panel.getByTestId("suggested-outcome")).toContainText("BK-024: READY → ACTIVE");
      await expect(page.getByTestId("issue-status")).toHaveText("ACTIVE");
      expect(readFileSync(file, "utf8")).toMatch(/^started_at: /m);
      // Started: the code no longer says someone else is on it.
      await expect(page.getByTestId("code-panel").getByTestId("suggested-move")).toHaveCount(0);
    } finally {
      repo.restore(file);
    }
  });

  test("BK-010's Code panel: its merged branch and the merge commit", async ({ page, visit }) => {
    await visit("/issues/BK-010");
    const panel = page.getByTestId("code-panel");
    await expect(panel.getByTestId("code-merged")).toContainText("Merged into main");
    const branch = panel.getByTestId("code-branch-bk-010-roles");
    await expect(branch.locator("td").nth(1)).toHaveText("0");
    await expect(branch.locator("td").nth(3)).toHaveText("yes");
    await expect(panel.getByTestId("code-commits")).toContainText("Merge branch 'bk-010-roles'");
    await expect(panel.getByTestId("code-commits")).toContainText("Enforce roles on every endpoint");
    await expect(panel.getByTestId("suggested-move")).toHaveCount(0);
  });

  test("the standup: BK-010 landed yesterday with its merge commit, and the code findings beside the plan's", async ({ page, visit }) => {
    await visit("/standup?view=change");
    const landed = page.locator("#section-landed");
    await expect(landed.getByTestId("landed-BK-010")).toContainText("Roles: owner, staff and viewer");
    await expect(landed.getByTestId("landed-BK-010")).toContainText("merged into main by");
    await expect(landed.getByTestId("landed-BK-010").getByTestId("code-activity")).toContainText("by Ana Sousa");
    const findings = page.locator("#section-findings");
    await expect(findings.getByTestId("code-finding-BK-015-merged_not_verified")).toContainText("verify it");
    await expect(findings.getByTestId("code-finding-BK-020-work_without_start")).toBeVisible();
    // BK-015's last commit is older than its stamp's three days: still stuck.
    await expect(page.locator("#section-stuck").getByTestId("stuck-BK-015")).toBeVisible();
  });

  test("the overview warns that someone is already on the next issue, and the waves graph marks the code", async ({ page, visit }) => {
    await visit("/");
    await expect(page.getByTestId("next-issue")).toContainText("BK-020");
    await expect(page.getByTestId("next-issue-code-warning")).toContainText("Someone is already on it");
    await expect(page.getByTestId("next-issue-code-warning")).toContainText("bk-020-ics-feed");
    await visit("/waves");
    const graph = page.getByTestId("waves-graph");
    await expect(graph).toHaveAttribute("data-ready", "true");
    const node = graph.locator(".react-flow__node", { hasText: "BK-020" });
    await expect(node.getByTestId("code-mark")).toHaveAttribute("data-code", "branch finding");
    await expect(graph.locator(".react-flow__node", { hasText: "BK-015" }).getByTestId("code-mark")).toHaveAttribute("data-code", "branch merged finding");
    await expect(page.getByTestId("code-legend")).toBeVisible();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`the Code panel and the standup's Landed section at 1280×800 (${scheme})`, async ({ page, visit, shot }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await visit("/issues/BK-015");
      await page.getByTestId("code-panel").scrollIntoViewIfNeeded();
      await expect(page.getByTestId("code-panel").getByTestId("suggested-verify")).toBeVisible();
      await page.getByTestId("suggested-verify").click();
      await expect(page.getByTestId("suggested-before-after")).toHaveText("BK-015: ACTIVE → VERIFY");
      await shot(`code panel ${scheme}`);
      await page.getByTestId("suggested-cancel").click();
      await visit("/standup?view=change");
      await page.locator("#section-landed").scrollIntoViewIfNeeded();
      await shot(`standup landed ${scheme}`);
    });
  }
});
