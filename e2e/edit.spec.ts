import { existsSync, readFileSync, rmSync } from "node:fs";
import { runGit } from "../tests/support/git";
import { expect, test } from "./fixtures";

// Editing the plan in the browser, on the demo copy: a new issue, an inline edit with its preview,
// a refused edit, the undo, and the commit of what the browser changed.

const git = (dir: string, ...args: string[]) => runGit(dir, args);

test.describe("editing @demo", () => {
  test("create an issue, edit a field with its preview, undo it, and commit the records", async ({ page, visit, repo }) => {
    test.slow();
    const issue = repo.issue("BK-005");
    const created = repo.issue("BK-037");
    repo.restore(issue);
    git(repo.dir, "config", "user.name", "Lead in a browser");
    git(repo.dir, "config", "user.email", "lead@cockpit.invalid");
    const start = git(repo.dir, "rev-parse", "HEAD");
    try {
      // A new issue, previewed, then created.
      await visit("/milestones/booking");
      // What the browser sends: the server action's body, read as text.
      const sent: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") sent.push(r.postData() ?? "");
      });
      const form = page.getByTestId("new-issue");
      await form.getByLabel("Title").fill("Refund a booking");
      await form.getByLabel("Objective").fill("A customer gets the payment back in one step");
      await form.getByLabel("Owner").fill("lea");
      await form.getByLabel("Acceptance criterion").fill("A refund returns the payment");
      await form.getByLabel("Validation command").fill("pnpm test refunds");
      await form.getByLabel("Evidence required").fill("refund_test");
      await page.getByTestId("new-issue-preview").click();
      await expect(page.getByTestId("new-issue-id")).toHaveText("Would create BK-037.");
      await expect(page.getByTestId("new-issue-changes")).toContainText("BK-037: added, status – → ");
      expect(existsSync(created)).toBe(false);
      await page.getByTestId("new-issue-confirm").click();
      await expect(page.getByTestId("new-issue-id")).toHaveText("Created BK-037.");
      const written = readFileSync(created, "utf8");
      expect(written).toMatch(/^id: BK-037\nmilestone: booking\ntitle: Refund a booking\n/);
      expect(written).toMatch(/^objective: A customer gets the payment back in one step$/m);
      expect(written).toMatch(/^owner: lea$/m);
      // The creation was sent with its objective, owner and an idempotency key.
      const creation = sent.find((b) => b.includes('"plan.create"') && !b.includes('"dry_run"'));
      expect(creation).toContain('"objective":"A customer gets the payment back in one step"');
      expect(creation).toContain('"owner":"lea"');
      expect(creation).toMatch(/"idempotency_key":"[^"]+"/);
      // Created: the form is empty again, so a second click cannot make a duplicate.
      for (const label of ["Title", "Objective", "Owner", "Acceptance criterion", "Validation command", "Evidence required"]) {
        await expect(form.getByLabel(label, { exact: true })).toHaveValue("");
      }

      // An inline edit: preview first, nothing written, then confirm.
      await visit("/issues/BK-005");
      const editor = page.getByTestId("record-editor");
      await editor.getByLabel("Field").selectOption("priority");
      await editor.getByLabel("Value").selectOption("p0");
      const before = readFileSync(issue, "utf8");
      await page.getByTestId("edit-preview-button").click();
      await expect(page.getByTestId("edit-preview-fields")).toHaveText("priority: p1 → p0");
      await expect(page.getByTestId("edit-preview")).toContainText("nothing derived changes");
      expect(readFileSync(issue, "utf8")).toBe(before);
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("edit-outcome")).toHaveText("BK-005 set priority: set priority=p0.");
      // The edit's confirm carried an idempotency key.
      expect(sent.find((b) => b.includes('"plan.edit"') && !b.includes('"dry_run"'))).toMatch(/"idempotency_key":"[^"]+"/);
      expect(readFileSync(issue, "utf8")).toMatch(/^priority: p0$/m);

      // An edit that would add a FAIL finding is explained and cannot be confirmed.
      await editor.getByLabel("Field").selectOption("depends_on");
      await editor.getByLabel("Value").fill("BK-999");
      await page.getByTestId("edit-preview-button").click();
      await expect(page.getByTestId("edit-preview")).toContainText("Would be refused");
      await expect(page.getByTestId("edit-preview")).toContainText("unknown_dependency");
      await expect(page.getByTestId("edit-confirm")).toBeDisabled();

      // Undo, itself previewed.
      await page.getByTestId("edit-undo").click();
      await expect(page.getByTestId("edit-preview")).toBeVisible();
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("edit-outcome")).toHaveText("BK-005 undo of set priority: set priority=p1.");
      // The undo puts the file's bytes back (updated_at too): BK-005 has nothing left to commit.
      expect(readFileSync(issue, "utf8")).toBe(before);

      // The header counts the changed records; commit them.
      await visit("/");
      await expect(page.getByTestId("uncommitted")).toHaveText(/^1 uncommitted$/);
      await page.getByTestId("uncommitted").click();
      await expect(page.getByTestId("uncommitted-list")).not.toContainText("BK-005");
      await page.getByTestId("commit-confirm").click();
      await expect(page.getByTestId("commit-outcome")).toContainText("Committed 1 change(s)");
      // The outcome covers none of the header's buttons (it once lay over "New plan from…" and "Jump to…").
      const note = (await page.getByTestId("commit-outcome").boundingBox())!;
      for (const button of [page.getByTestId("import-open"), page.getByRole("button", { name: /Jump to/ })]) {
        const b = (await button.boundingBox())!;
        const apart = note.x >= b.x + b.width || b.x >= note.x + note.width || note.y >= b.y + b.height || b.y >= note.y + note.height;
        expect(apart, `the commit's outcome lies over ${await button.textContent()}`).toBe(true);
      }
      const message = git(repo.dir, "log", "-1", "--format=%an%n%B");
      expect(message).toContain("Lead in a browser");
      expect(message).toContain("- BK-037: create:");
      expect(git(repo.dir, "show", "--name-only", "--format=", "HEAD").split("\n").sort()).toEqual([".ai/repo/project/issues/BK-037.yaml"]);
    } finally {
      // The copy back as it was: its commit, the new issue gone.
      git(repo.dir, "reset", "-q", "--hard", start);
      rmSync(created, { force: true });
      repo.restore(issue);
    }
  });

  test("the owner field suggests the people the Cockpit knows as one types, and still takes a new name", async ({ page, visit, repo, shot }) => {
    const issue = repo.issue("BK-005");
    const before = readFileSync(issue, "utf8");
    await visit("/issues/BK-005");
    const editor = page.getByTestId("record-editor");
    await editor.getByLabel("Field").selectOption("owner");
    const value = editor.getByLabel("Value");
    await expect(value).toHaveAttribute("list", "edit-people");
    await value.fill("pri");
    // The demo's people (owners and commit authors) whose name holds what was typed.
    await expect(page.locator("#edit-people option")).toHaveCount(1);
    await expect(page.locator("#edit-people option")).toHaveAttribute("value", "priya");
    await value.fill("t");
    await expect.poll(async () => (await page.locator("#edit-people option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).every((v) => v.toLowerCase().includes("t"))).toBe(true);
    await expect(page.locator('#edit-people option[value="tom"]')).toHaveCount(1);
    // A name nobody has yet is still a value: suggested nothing, previewed as any other.
    await value.fill("zoe-new");
    await expect(page.locator("#edit-people option")).toHaveCount(0);
    await page.getByTestId("edit-preview-button").click();
    await expect(page.getByTestId("edit-preview-fields")).toHaveText("owner: lea → zoe-new");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`owner-suggestions-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(readFileSync(issue, "utf8")).toBe(before);
  });

  test("an edit made against a record that changed since is refused, and re-applied to the current record", async ({ page, visit, repo }) => {
    const issue = repo.issue("BK-006");
    repo.restore(issue);
    try {
      await visit("/issues/BK-006");
      const editor = page.getByTestId("record-editor");
      await editor.getByLabel("Field").selectOption("owner");
      await editor.getByLabel("Value").fill("browser");
      await page.getByTestId("edit-preview-button").click();
      await expect(page.getByTestId("edit-preview")).toBeVisible();
      // Someone else edits the record between the preview and the confirm.
      repo.cockpit("plan", "edit", "BK-006", "--set", "priority=p3");
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("edit-outcome")).toContainText("Refused: BK-006 changed since version");
      expect(readFileSync(issue, "utf8")).not.toMatch(/^owner: browser$/m);
      await page.getByTestId("edit-reapply").click();
      await expect(page.getByTestId("edit-confirm")).toBeEnabled();
      await page.getByTestId("edit-confirm").click();
      await expect(page.getByTestId("edit-outcome")).toHaveText("BK-006 set owner: set owner=browser.");
      const text = readFileSync(issue, "utf8");
      expect(text).toMatch(/^owner: browser$/m);
      expect(text).toMatch(/^priority: p3$/m);
    } finally {
      repo.restore(issue);
    }
  });
});
