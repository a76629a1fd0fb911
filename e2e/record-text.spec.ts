import { readFileSync, writeFileSync } from "node:fs";
import { expect, test, waitForPlan } from "./fixtures";

// Record text with control characters renders on the issue page and hydrates: the browser's
// parser drops a NUL from a page's text, so a value made only of NULs (a dependency, the
// priority) left React no text node to hydrate (error #418). The page shows U+FFFD instead, and
// the console stays clean (the fixture's check at the end of the test fails on any error).

test("an issue whose fields hold NULs and other control characters renders and hydrates without an error @demo", async ({ page, visit, repo, shot }) => {
  const file = repo.issue("BK-016");
  repo.restore(file);
  const text = readFileSync(file, "utf8");
  const hostile = text
    .replace(/^title: .*$/m, 'title: "Intake\\0 questions \\e[31m\\x7f\\x9b\\r\\nend"')
    .replace(/^owner: .*$/m, 'owner: "\\0"')
    .replace(/^priority: .*$/m, 'priority: "\\0"')
    .replace(/^profile: .*$/m, 'profile: "\\r"')
    .replace(/^objective: .*$/m, 'objective: "Owners\\0 add \\r questions\\0"')
    .replace("depends_on:\n  - BK-012", 'depends_on:\n  - BK-012\n  - "\\0"')
    .replace("  - apps/api/src/bookings/intake.ts", '  - "\\0"')
    .replace("  - Required questions block the booking until answered", '  - "\\0"');
  expect(hostile).not.toBe(text);
  try {
    writeFileSync(file, hostile);
    await waitForPlan(page, (plan) => plan.issues.some((i) => i.id === "BK-016" && i.depends_on.includes("\u0000")));
    await visit("/issues/BK-016");
    await expect(page.locator("main h1")).toContainText("BK-016");
    await expect(page.locator("main p.text-lg")).toContainText("Intake\uFFFD questions");
    await expect(page.locator("main dd").filter({ hasText: "(not an issue)" })).toHaveText("BK-012, \uFFFD (not an issue)");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`control-characters-${scheme}`);
    }
  } finally {
    repo.restore(file);
  }
  // A record with evidence (its file's mappings) renders as before.
  await visit("/issues/BK-001");
  await expect(page.locator("main h1")).toContainText("BK-001");
});
