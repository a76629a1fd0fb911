import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "./fixtures";

// "New plan from…" in the header: a person picks a format and a source, sees the dry-run answer
// (created, skipped, mapped, dropped, findings) before anything is written, then confirms.

const FIXTURES = join(__dirname, "..", "tests", "fixtures", "import");
const PROJECT = ".ai/repo/project";
const LEDGER = ".ai/local/state/ledger.jsonl";

/** The record files and ledger as they are, to put the demo copy back after the import. */
function snapshot(dir: string) {
  const list = (sub: string) => readdirSync(join(dir, PROJECT, sub)).map((n) => join(dir, PROJECT, sub, n));
  let ledger: string | undefined;
  try {
    ledger = readFileSync(join(dir, LEDGER), "utf8");
  } catch {
    ledger = undefined;
  }
  const files = new Set([...list("issues"), ...list("milestones")]);
  return () => {
    for (const f of [...list("issues"), ...list("milestones")]) if (!files.has(f)) rmSync(f);
    if (ledger === undefined) rmSync(join(dir, LEDGER), { force: true });
    else writeFileSync(join(dir, LEDGER), ledger);
  };
}

test.describe("importing a plan @demo", () => {
  test("beads: the dry-run answer first, then the import, and the records are in the plan", async ({ page, visit, repo, shot }) => {
    const restore = snapshot(repo.dir);
    try {
      await visit("/");
      await page.getByTestId("import-open").click();
      const panel = page.getByTestId("import-panel");
      await panel.getByLabel("Format").selectOption("beads");
      await panel.getByLabel("File").setInputFiles(join(FIXTURES, "beads", "issues.jsonl"));
      await page.getByTestId("import-preview").click();
      const dry = page.getByTestId("import-dry-run");
      await expect(dry).toContainText("would create 4 milestone(s) and 5 issue(s) from issues.jsonl (beads); 3 skipped");
      await expect(page.getByTestId("import-created")).toHaveText("4 milestone(s), 5 issue(s)");
      await expect(page.getByTestId("import-mapped")).toContainText("closed → DONE 1");
      await expect(page.getByTestId("import-skipped")).toContainText("bd-d148: a tombstone");
      await expect(page.getByTestId("import-dropped")).toContainText("related links ×1");
      await expect(page.getByTestId("import-findings")).toContainText("FAIL unknown_dependency ×1: bd-kwro");
      // Nothing is written by the preview.
      expect(readdirSync(join(repo.dir, PROJECT, "issues")).some((n) => n.startsWith("bd-"))).toBe(false);
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await shot(`import-dry-run-${scheme}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.getByTestId("import-confirm").click();
      await expect(page.getByTestId("import-outcome")).toHaveText("Imported: created 4 milestone(s) and 5 issue(s) from issues.jsonl (beads); 3 skipped.");
      expect(readFileSync(join(repo.dir, PROJECT, "issues", "bd-7mh.6.yaml"), "utf8")).toContain("title: \"Import the edges back — ünïcödé ✓\"");
      await visit("/issues/bd-7mh.6");
      await expect(page.getByRole("heading", { level: 1 })).toContainText("bd-7mh.6");
      await expect(page.getByText("Import the edges back — ünïcödé ✓").first()).toBeVisible();
    } finally {
      restore();
    }
  });

  test("Backlog.md: a folder picked whole, previewed, nothing written", async ({ page, visit, repo }) => {
    const restore = snapshot(repo.dir);
    try {
      await visit("/");
      await page.getByTestId("import-open").click();
      const panel = page.getByTestId("import-panel");
      await panel.getByLabel("Format").selectOption("backlog");
      await panel.getByLabel("Folder").setInputFiles(join(FIXTURES, "backlog", "backlog"));
      await page.getByTestId("import-preview").click();
      await expect(page.getByTestId("import-created")).toHaveText("4 milestone(s), 5 issue(s)");
      await expect(page.getByTestId("import-skipped")).toContainText("DRAFT-3: a draft");
      await expect(page.getByTestId("import-mapped")).toContainText("In Progress → ACTIVE 1");
      expect(readdirSync(join(repo.dir, PROJECT, "issues")).some((n) => n.startsWith("BACK-"))).toBe(false);
    } finally {
      restore();
    }
  });
});
