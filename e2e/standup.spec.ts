import { execFileSync } from "node:child_process";
import { expect, seriousViolations, test } from "./fixtures";

// /standup on the demo copy, which is the demo's six-week history ending yesterday
// (scripts/demo-history.mjs): BK-027 was added three days ago, BK-010 was verified two days ago and
// finished yesterday, BK-015 has been ACTIVE for six days and BK-013 VERIFY for eight.

const SHA = /^[0-9a-f]{40}$/;

function shaOf(dir: string, rev: string): string {
  return execFileSync("git", ["rev-parse", rev], { cwd: dir, encoding: "utf8" }).trim();
}

test.describe("standup @demo", () => {
  test("opens on the previous working day, pinned to a commit, and lists what changed with id and title", async ({ page, visit, repo }) => {
    await visit("/standup?view=change");
    const url = new URL(page.url());
    expect(url.searchParams.get("since")).toMatch(SHA);
    expect(url.searchParams.get("until")).toBeNull();
    await expect(page.locator("main h1")).toHaveText("Standup");

    const done = page.locator("#section-done");
    await expect(done.getByTestId("change-BK-010")).toContainText("BK-010");
    await expect(done.getByTestId("change-BK-010")).toContainText("Roles: owner, staff and viewer, enforced on every endpoint");
    await expect(done.getByTestId("change-BK-010")).toContainText("→ DONE");

    const stuck = page.locator("#section-stuck");
    await expect(stuck.getByTestId("stuck-BK-015")).toContainText("Customers confirm, cancel and view their booking from a signed link");
    await expect(stuck.getByTestId("stuck-BK-015")).toContainText(/[56] days, since/); // started six days ago at 10:05 UTC
    await expect(stuck.getByTestId("stuck-BK-013")).toContainText("VERIFY");

    // The permalink pins until as well: HEAD of the copy.
    const pinned = new URL((await page.getByTestId("standup-permalink").getAttribute("href"))!, url);
    expect(pinned.searchParams.get("since")).toBe(url.searchParams.get("since"));
    expect(pinned.searchParams.get("until")).toBe(shaOf(repo.dir, "HEAD"));

    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the permalink shows the same page with both ends pinned, and keeps projector mode", async ({ page, visit, repo }) => {
    await visit("/standup?projector=1&view=change");
    const link = page.getByTestId("standup-permalink");
    await link.click();
    await expect(page).toHaveURL(/until=[0-9a-f]{40}/);
    const url = new URL(page.url());
    expect(url.searchParams.get("until")).toBe(shaOf(repo.dir, "HEAD"));
    expect(url.searchParams.get("projector")).toBe("1");
    // The end is named by its commit's date and subject, the sha small beside them.
    await expect(page.getByTestId("standup-range")).toContainText(new RegExp(`until \\w{3} \\d{1,2} \\w{3} \\d{4}, \\d\\d:\\d\\d UTC “.+” \\(commit ${shaOf(repo.dir, "HEAD").slice(0, 10)}\\)`));
    await expect(page.locator("#section-done").getByTestId("change-BK-010")).toBeVisible();
    // A pinned end has nothing uncommitted to show.
    await expect(page.locator("#section-uncommitted")).toHaveCount(0);
  });

  test("since last week shows the added runbook and every section's issue once", async ({ page, visit }) => {
    await visit("/standup?view=change");
    await page.getByRole("link", { name: "Since last week" }).click();
    await expect(page).toHaveURL(/since=[0-9a-f]{40}/);
    await expect(page.locator("#section-added").getByTestId("change-BK-027")).toContainText("On-call runbook for failed reminder delivery");
    await expect(page.locator("#section-done").getByTestId("change-BK-010")).toContainText("Roles");
    // No truncation: the page lists as many changes as plan.changes answers.
    const since = new URL(page.url()).searchParams.get("since")!;
    const changes = (await (await page.request.get(`/api/v1/plan/changes?since=${since}`)).json()) as { issues: { id: string }[] };
    expect(changes.issues.length).toBeGreaterThan(1);
    const listed = await page.locator("[id^=section-] [data-testid^=change-]").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
    const committed = listed.filter((x, i) => listed.indexOf(x) === i);
    for (const c of changes.issues) expect(committed).toContain(`change-${c.id}`);
  });

  test("a day in the picker starts at that day's start: three days ago includes the runbook added then", async ({ page, visit }) => {
    await visit("/standup?view=change");
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Since the start of a day").fill(threeDaysAgo);
    await page.getByLabel("Since the start of a day").press("Enter");
    await expect(page).toHaveURL(new RegExp(`/standup\\?since=[0-9a-f]{40}&from=${threeDaysAgo}&view=change$`));
    await expect(page.locator("#section-added").getByTestId("change-BK-027")).toBeVisible();
    // A day later, the runbook was already there.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await visit(`/standup?from=${twoDaysAgo}&view=change`);
    await expect(page).toHaveURL(new RegExp(`/standup\\?since=[0-9a-f]{40}&from=${twoDaysAgo}&view=change$`));
    await expect(page.locator("#section-done").getByTestId("change-BK-010")).toBeVisible();
    await expect(page.getByTestId("change-BK-027")).toHaveCount(0);
  });

  test("a revision in the picker is pinned to its commit; an unknown one is refused with its name", async ({ page, visit, repo }) => {
    await visit("/standup?view=change");
    await page.getByLabel("Since a revision").fill("HEAD~3");
    await page.getByLabel("Since a revision").press("Enter");
    await expect(page).toHaveURL(new RegExp(`since=${shaOf(repo.dir, "HEAD~3")}`));
    await expect(page.getByTestId("standup-range")).toContainText(shaOf(repo.dir, "HEAD~3").slice(0, 10));

    await visit("/standup?since=no-such-rev");
    await expect(page.getByTestId("standup-error")).toContainText("no revision 'no-such-rev'");
    await visit("/standup?stuck=soon");
    await expect(page.getByTestId("standup-error")).toContainText("stuck is a whole number of days");
  });

  test("a move made in this clone and not committed is flagged as such", async ({ page, visit, repo }) => {
    const file = repo.issue("BK-024");
    repo.restore(file);
    try {
      repo.cockpit("plan", "start", "BK-024");
      await visit("/standup?view=change");
      const flagged = page.locator("#section-uncommitted").getByTestId("change-BK-024");
      await expect(flagged).toContainText("Transactional email through Postmark");
      await expect(flagged).toContainText("uncommitted");
      await expect(page.locator("#section-started").getByTestId("change-BK-024")).toBeVisible();
    } finally {
      repo.restore(file);
    }
  });

  test("each ACTIVE milestone has a burn-up with a forecast band and a table", async ({ page, visit }) => {
    await visit("/standup?view=change");
    const chart = page.getByRole("img", { name: /burn-up/ });
    await expect(chart).toHaveCount(1);
    await expect(chart).toHaveAttribute("aria-label", /^Milestone booking burn-up: /);
    const figure = page.getByTestId("burnup-booking");
    await figure.getByText("The chart as a table").click();
    const rows = figure.locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(30);
  });

  test("screenshots: light, dark and projector at 1280×800, the burn-up in each", async ({ page, visit, shot }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const chart = page.getByTestId("burnup-booking");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await visit("/standup?view=change");
      await shot(`standup-${scheme}`);
      await chart.scrollIntoViewIfNeeded();
      await shot(`standup-${scheme}-burnup`);
      expect(await seriousViolations(page, `/standup ${scheme}`)).toEqual([]);
    }
    await page.getByTestId("projector-toggle").click();
    await expect(page).toHaveURL(/projector=1/);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.locator("main h1")).toHaveCSS("font-size", "36px");
    await shot("standup-projector-dark");
    await chart.scrollIntoViewIfNeeded();
    await shot("standup-projector-dark-burnup");
    await page.emulateMedia({ colorScheme: "light" });
    await page.locator("main h1").scrollIntoViewIfNeeded();
    await shot("standup-projector-light");
    await chart.scrollIntoViewIfNeeded();
    await shot("standup-projector-light-burnup");
    expect(await seriousViolations(page, "/standup projector")).toEqual([]);
  });

  test("the overview's since-yesterday counts link to the standup @demo", async ({ page, visit }) => {
    await visit("/");
    const done = page.getByTestId("since-yesterday-done");
    await expect(done).toContainText("1");
    await done.click();
    await expect(page).toHaveURL(/\/standup\?since=[0-9a-f]{40}&view=change#section-done$/);
    await expect(page.locator("#section-done").getByTestId("change-BK-010")).toBeVisible();
  });

  test("the issue and milestone pages show their timelines", async ({ page, visit }) => {
    await visit("/issues/BK-010");
    const entries = page.getByTestId("timeline-entry");
    await expect(entries.first()).toContainText("Finish BK-010");
    await expect(entries.first()).toContainText("DONE");
    await expect(entries.last()).toContainText(/^.*Add BK-006, BK-007, BK-008, BK-009, BK-010/);
    expect(await entries.count()).toBe(5); // added, started, evidence, verified, finished
    await visit("/milestones/accounts");
    await expect(page.getByTestId("timeline-entry").first()).toContainText("VERIFY");
  });
});

// The real corpus's copy is one commit made when the tests start: since yesterday, the plan was
// empty, so every issue is listed as added, none dropped.
test("on a copy committed today, the standup lists every issue as added and passes axe @majordomus", async ({ page, visit }) => {
  test.slow();
  await visit("/standup?view=change");
  const url = new URL(page.url());
  expect(url.searchParams.get("since")).toMatch(/^\d{4}-\d{2}-\d{2}$/); // before the first commit: nothing to pin
  await expect(page.getByTestId("standup-range")).toContainText("the empty plan");
  const plan = (await (await page.request.get("/api/v1/plan")).json()) as { issues: { id: string }[] };
  await expect(page.locator("#section-added [data-testid^=change-]")).toHaveCount(plan.issues.length);
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe("standup picker @demo", () => {
  test("the range shown is highlighted, and the day asked stays in the picker", async ({ page, visit, shot }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await visit("/standup");
      await shot(`standup-picker-${scheme}`);
    }
    await expect(page.getByTestId("since-yesterday")).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("since-week")).not.toHaveAttribute("aria-current");
    await page.getByTestId("since-week").click();
    await expect(page.getByTestId("since-week")).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("since-yesterday")).not.toHaveAttribute("aria-current");

    const day = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Since the start of a day").fill(day);
    await page.getByLabel("Since the start of a day").press("Enter");
    await expect(page).toHaveURL(new RegExp(`since=[0-9a-f]{40}&from=${day}$`));
    await expect(page.getByLabel("Since the start of a day")).toHaveValue(day);
    await expect(page.getByTestId("since-day")).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("since-week")).not.toHaveAttribute("aria-current");

    await page.getByLabel("Since a revision").fill("HEAD~2");
    await page.getByLabel("Since a revision").press("Enter");
    await expect(page.getByTestId("since-revision")).toHaveAttribute("aria-current", "true");
    await expect(page.getByLabel("Since the start of a day")).toHaveValue("");
  });

  test("since is named by its commit's date and subject, not a bare sha", async ({ page, visit, repo }) => {
    await visit("/standup");
    const since = new URL(page.url()).searchParams.get("since")!;
    const subject = execFileSync("git", ["show", "-s", "--format=%s", since], { cwd: repo.dir, encoding: "utf8" }).trim();
    const rev = page.getByTestId("standup-range").getByTestId("standup-rev").first();
    await expect(rev.locator("strong")).toHaveText(/^\w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/);
    await expect(rev).toContainText(`“${subject}”`);
    await expect(rev.locator("[title]")).toHaveAttribute("title", since);
  });

  test("since last week keeps the page shown, marked as loading, until the new one arrives", async ({ page, visit }) => {
    await visit("/standup");
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(
      (url) => url.pathname === "/standup",
      async (route) => {
        if (route.request().headers()["rsc"] === "1") await held;
        await route.continue();
      },
    );
    await page.getByTestId("since-week").click();
    await expect(page.getByTestId("standup-pending")).toBeVisible();
    await expect(page.getByTestId("standup-people")).toBeVisible();
    await expect(page.getByTestId("person-marek")).toBeVisible();
    release();
    await expect(page.getByTestId("since-week")).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("standup-pending")).toHaveCount(0);
    await page.unroute((url) => url.pathname === "/standup");
  });
});

// The real corpus by person: a card shows the first entries of a long list and "+N more", which
// opens the same window with every entry; the counts in the titles are the answer's.
test("by person, a long list shows its first entries and +N more, which shows them all @majordomus", async ({ page, visit }) => {
  test.slow();
  await visit("/standup");
  await expect(page.getByTestId("standup-people")).toBeVisible();
  const since = new URL(page.url()).searchParams.get("since")!;
  type Lists = Record<"done" | "verify" | "active" | "blocked" | "started" | "landed", { id: string }[]>;
  const answer = (await (await page.request.get(`/api/v1/plan/standup?since=${since}`)).json()) as { people: (Lists & { person: string })[]; unowned: Lists };
  const cards = [...answer.people.map((p) => ({ testid: `person-${p.person}`, lists: p as Lists })), { testid: "person-unowned", lists: answer.unowned }];
  const long = cards.flatMap((c) => (Object.keys(c.lists) as (keyof Lists)[]).filter((k) => Array.isArray(c.lists[k]) && c.lists[k].length > 8).map((k) => ({ ...c, key: k })));
  expect(long.length, "the corpus has a list longer than a card shows").toBeGreaterThan(0);
  const { testid, lists, key } = long[0];
  const list = page.getByTestId(testid).getByTestId(`list-${key}`);
  await expect(list.locator("h3")).toContainText(`· ${lists[key].length}`);
  await expect(list.locator("[data-testid^=person-issue-]")).toHaveCount(8);
  for (const i of lists[key].slice(0, 8)) await expect(list.getByTestId(`person-issue-${i.id}`)).toBeVisible();
  const more = list.getByTestId("list-more").getByRole("link");
  await expect(more).toHaveText(`+${lists[key].length - 8} more`);
  await more.click();
  // The whole window of the real corpus is a larger page: a busy machine renders it in seconds.
  await expect(page).toHaveURL(/[?&]all=1(&|#|$)/, { timeout: 30_000 });
  const all = page.getByTestId(testid).getByTestId(`list-${key}`);
  await expect(all.locator("[data-testid^=person-issue-]")).toHaveCount(lists[key].length, { timeout: 30_000 });
  await expect(all.getByTestId("list-more")).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get("since")).toBe(since);
});
