import { expect, seriousViolations, test } from "./fixtures";

// The standup by person on the demo copy (scripts/demo-history.mjs): the demo's owners are lea,
// marek, priya and tom; Ana Sousa commits but owns nothing, so she is a person of her own.

const OWNERS = ["lea", "marek", "priya", "tom"];

interface Standup {
  people: {
    person: string;
    active: { id: string }[];
    verify: { id: string }[];
    blocked: { id: string }[];
    landed: { id: string; merged: { commit: string; at: string }; code?: { commits: number; authors: string[] } }[];
  }[];
  findings: { code: { subject: string; code: string }[] };
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

  test("the default view renders the whole answer: BK-010 landed with its merge commit and its commits, the code findings, next and roadmap", async ({ page, visit }) => {
    await visit("/standup");
    await expect(page.getByTestId("standup-people")).toBeVisible();
    const since = new URL(page.url()).searchParams.get("since")!;
    const answer = (await (await page.request.get(`/api/v1/plan/standup?since=${since}`)).json()) as Standup;
    const owner = answer.people.find((p) => p.landed.some((l) => l.id === "BK-010"))!;
    const landed = owner.landed.find((l) => l.id === "BK-010")!;
    const entry = page.getByTestId(`person-${owner.person}`).getByTestId("list-landed").getByTestId("person-issue-BK-010");
    await expect(entry.getByTestId("landed-merge")).toContainText(`merged by ${landed.merged.commit.slice(0, 7)} at ${landed.merged.at.slice(0, 10)}`);
    await expect(entry.getByTestId("landed-merge").locator("code")).toHaveAttribute("title", landed.merged.commit);
    expect(landed.code?.authors).toContain("Ana Sousa");
    await expect(entry.getByTestId("code-activity")).toContainText(`${landed.code!.commits} commit`);
    await expect(entry.getByTestId("code-activity")).toContainText("by Ana Sousa");
    const findings = page.getByTestId("standup-findings");
    expect(answer.findings.code.map((f) => `${f.subject}-${f.code}`)).toContain("BK-015-merged_not_verified");
    await expect(findings.getByTestId("code-finding-BK-015-merged_not_verified")).toContainText("verify it");
    // The subject is a link, and so is every id its message names (FindingMessage).
    await expect(findings.getByTestId("code-finding-BK-015-merged_not_verified").getByRole("link", { name: "BK-015" }).first()).toHaveAttribute("href", "/issues/BK-015");
    await expect(page.getByTestId("standup-next")).toContainText("Next issue:");
    await expect(page.getByTestId("standup-next")).toContainText("Roadmap now:");
  });

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

  test("the palette finds everyone /people lists, an author who owns nothing included", async ({ page, visit }) => {
    await visit("/people");
    await expect(page.getByTestId("people-row-Ana Sousa")).toBeVisible();
    const found = (await (await page.request.get("/api/palette?q=sousa")).json()) as { people: string[] };
    expect(found.people).toEqual(["Ana Sousa"]);
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await palette.getByRole("combobox").fill("sousa");
    await palette.getByTestId("palette-option-person-Ana Sousa").click();
    await expect(page).toHaveURL(/\/people\/Ana%20Sousa$/);
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`a person's page lists their recent moves and commits, as plan.history and plan.code answer (${scheme})`, async ({ page, visit, shot }) => {
      // Two person pages, each reading its timelines after the rest is shown.
      test.slow();
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 800 });
      // Marek's BK-015: its newest move in its timeline is on his page, with its date.
      const history = (await (await page.request.get("/api/v1/plan/history?id=BK-015")).json()) as { entries: { time: string; status: string | null }[] };
      const i = history.entries.findIndex((e, k) => e.status !== (history.entries[k + 1]?.status ?? null));
      const move = history.entries[i];
      const from = history.entries[i + 1]?.status ?? "new";
      await visit("/people/marek");
      const moves = page.getByTestId("person-moves");
      await expect(moves.getByTestId("person-move-BK-015").first()).toContainText(`${from} → ${move.status}`);
      await expect(moves.getByTestId("person-move-BK-015").first()).toContainText(new Date(move.time).toISOString().slice(0, 16).replace("T", " "));
      await moves.scrollIntoViewIfNeeded();
      await shot(`person-marek-recent-${scheme}`);
      expect(await seriousViolations(page, `/people/marek ${scheme}`)).toEqual([]);
      // Ana Sousa's newest linked commit on BK-010: its short sha, subject and issue link.
      const code = (await (await page.request.get("/api/v1/plan/code?id=BK-010")).json()) as { commits: { sha: string; subject: string; author: string }[] };
      const newest = code.commits.find((c) => c.author === "Ana Sousa")!;
      await visit("/people/Ana%20Sousa");
      const commit = page.getByTestId("person-commits").getByTestId(`person-commit-${newest.sha.slice(0, 7)}`);
      await expect(commit).toContainText(newest.subject);
      await expect(commit.getByRole("link", { name: "BK-010" })).toHaveAttribute("href", "/issues/BK-010");
      await page.getByTestId("person-commits").scrollIntoViewIfNeeded();
      await shot(`person-ana-recent-${scheme}`);
    });
  }
});
