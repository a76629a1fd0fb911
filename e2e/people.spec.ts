import { expect, seriousViolations, test } from "./fixtures";

// The standup by person on the demo copy (scripts/demo-history.mjs): the demo's owners are lea,
// marek, priya and tom; Ana Sousa commits but owns nothing, so she is a person of her own.

const OWNERS = ["lea", "marek", "priya", "tom"];

interface Standup {
  people: { person: string; active: { id: string }[]; verify: { id: string }[]; blocked: { id: string }[] }[];
}

test.describe("standup by person @demo", () => {
  for (const scheme of ["light", "dark"] as const) {
    test(`names every owner with their active, VERIFY and blocked issues, as plan.standup answers (${scheme})`, async ({ page, visit, shot }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 800 });
      await visit("/standup");
      await expect(page.getByTestId("standup-people")).toBeVisible();
      const since = new URL(page.url()).searchParams.get("since")!;
      const answer = (await (await page.request.get(`/api/v1/plan/standup?since=${since}`)).json()) as Standup;
      for (const owner of OWNERS) {
        const card = page.getByTestId(`person-${owner}`);
        await expect(card.locator("h2").getByRole("link", { name: owner, exact: true })).toHaveAttribute("href", `/people/${owner}`);
        const p = answer.people.find((x) => x.person === owner)!;
        expect(p.active.length + p.verify.length + p.blocked.length).toBeGreaterThan(0);
        for (const i of [...p.active, ...p.verify, ...p.blocked]) {
          // An issue started in the window and still in progress is in two of the card's lists.
          await expect(card.getByTestId(`person-issue-${i.id}`).first().getByRole("link", { name: i.id })).toHaveAttribute("href", `/issues/${i.id}`);
        }
      }
      // Marek's BK-015 is in progress and stuck; Priya's BK-013 waits in VERIFY.
      await expect(page.getByTestId("person-marek").getByTestId("list-active")).toContainText("BK-015");
      await expect(page.getByTestId("person-priya").getByTestId("list-verify")).toContainText("BK-013");
      await expect(page.getByTestId("person-Ana Sousa")).toBeVisible();
      await shot(`standup-people-${scheme}`);
      expect(await seriousViolations(page, `/standup by person ${scheme}`)).toEqual([]);
    });
  }

  test("by change is one click away and kept in the URL", async ({ page, visit }) => {
    await visit("/standup");
    await page.getByTestId("standup-view").getByRole("link", { name: "By change" }).click();
    await expect(page).toHaveURL(/view=change/);
    await expect(page.locator("#section-done").getByTestId("change-BK-010")).toBeVisible();
    await page.getByTestId("standup-view").getByRole("link", { name: "By person" }).click();
    await expect(page.getByTestId("standup-people")).toBeVisible();
    expect(new URL(page.url()).searchParams.get("view")).toBeNull();
  });
});

test.describe("people @demo", () => {
  test("/people lists every owner with counts, /people/HANDLE their issues by status, and the palette finds them", async ({ page, visit, shot }) => {
    await visit("/people");
    for (const owner of OWNERS) await expect(page.getByTestId(`people-row-${owner}`)).toBeVisible();
    // Marek owns BK-015, ACTIVE: the ACTIVE column counts it.
    await expect(page.getByTestId("people-row-marek").locator("td").nth(1)).not.toHaveText("0");
    await shot("people");
    await page.getByTestId("people-row-marek").getByRole("link", { name: "marek" }).click();
    await expect(page).toHaveURL(/\/people\/marek$/);
    await expect(page.getByTestId("person-status-ACTIVE")).toContainText("BK-015");
    await expect(page.getByTestId("person-status-BLOCKED")).toContainText("blocked by");
    await shot("person-marek");
    expect(await seriousViolations(page, "/people/marek")).toEqual([]);

    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await palette.getByRole("combobox").fill("pri");
    await palette.getByTestId("palette-option-person-priya").click();
    await expect(page).toHaveURL(/\/people\/priya$/);
    await expect(page.getByTestId("person-status-VERIFY")).toContainText("BK-013");
  });
});
