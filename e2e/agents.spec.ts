import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, seriousViolations, settle, test } from "./fixtures";

// /agents: who holds what. Sessions are opened by real claims on the served copy; the time that
// makes one stale and another expired is written into the store's rows (the clock is the store's),
// then a real claim reclaims the abandoned issue and a person releases the stale one from the page.

interface Claimed {
  issue: string;
  session: string;
  epoch: number;
  event: string;
  reclaimed_from?: { actor: string; session: string; epoch: number };
}

test("/agents shows a stale session and an expired one with their reasons; a claim reclaims the abandoned issue; a person releases the stale one with a reason @demo", async ({ page, repo, visit, shot }) => {
  const claim = (who: string) => JSON.parse(repo.cockpit("plan", "claim", "--as", who, "--json")) as Claimed;
  const one = claim("builder-1");
  const two = claim("builder-2");
  try {
    // builder-1 has been silent for 10 minutes (stale, its lease still live); builder-2's lease ended a minute ago.
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const db = new Database(join(repo.dir, ".ai/local/state/cockpit.db"), { timeout: 10_000 });
    db.prepare("UPDATE sessions SET last_seen = ? WHERE session = ?").run(ago(10), one.session);
    db.prepare("UPDATE sessions SET last_seen = ?, expires = ? WHERE session = ?").run(ago(31), ago(1), two.session);
    db.close();

    await visit("/agents");
    await expect(page.getByTestId(`session-state-${one.session}`)).toHaveText("stale");
    await expect(page.getByTestId(`session-reason-${one.session}`)).toContainText("no heartbeat for 10 min; the lease ends at 20");
    await expect(page.getByTestId(`session-state-${two.session}`)).toHaveText("expired");
    await expect(page.getByTestId(`session-reason-${two.session}`)).toContainText(`${two.issue} is ACTIVE: open to reclaim`);
    await expect(page.getByTestId("nav-badge-agents")).toContainText("2");
    expect(await seriousViolations(page)).toEqual([]);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`agents-stale-expired-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // The next claim takes the abandoned issue over before any READY one; the page says so.
    const three = claim("builder-3");
    expect(three).toMatchObject({ issue: two.issue, event: "plan_reclaim", epoch: 2, reclaimed_from: { actor: "builder-2", session: two.session, epoch: 1 } });
    await page.reload();
    await settle(page);
    await expect(page.getByTestId(`session-state-${two.session}`)).toHaveText("reclaimed");
    await expect(page.getByTestId(`session-reason-${two.session}`)).toContainText("reclaimed by builder-3 at 20");
    await expect(page.getByTestId(`session-state-${three.session}`)).toHaveText("active");

    // A person releases the stale session, with a reason, having seen what changes.
    await page.getByTestId(`release-open-${one.issue}`).click();
    await expect(page.getByTestId(`release-preview-${one.issue}`)).toHaveText(
      `Before: ${one.issue} ACTIVE, held by builder-1 (stale). After: ${one.issue} ACTIVE, held by nobody: the next claim takes it over.`,
    );
    await expect(page.getByTestId(`release-confirm-${one.issue}`)).toBeDisabled();
    await page.getByLabel("Why (kept as the session's note)").fill("builder-1 crashed");
    await page.getByTestId(`release-confirm-${one.issue}`).click();
    await expect(page.getByTestId(`session-state-${one.session}`)).toHaveText("released");
    await expect(page.getByTestId(`session-reason-${one.session}`)).toContainText(`: "builder-1 crashed"`);
    await expect(page.getByTestId(`release-outcome-${one.issue}`)).toHaveText(`Released ${one.issue} from builder-1.`);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`agents-reclaimed-released-${scheme}`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    for (const issue of new Set([one.issue, two.issue])) {
      try {
        repo.cockpit("plan", "release", issue, "--as", "e2e-lead", "--force");
      } catch {
        /* nothing held it any more */
      }
    }
    repo.restore(repo.issue(one.issue), repo.issue(two.issue));
  }
});

test("a person takes an abandoned issue over from /agents, with a reason, having seen what changes @demo", async ({ page, repo, visit, shot }) => {
  const gone = JSON.parse(repo.cockpit("plan", "claim", "--as", "builder-4", "--json")) as Claimed;
  try {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const db = new Database(join(repo.dir, ".ai/local/state/cockpit.db"), { timeout: 10_000 });
    db.prepare("UPDATE sessions SET last_seen = ?, expires = ? WHERE session = ?").run(ago(40), ago(5), gone.session);
    db.close();
    await visit("/agents");
    await expect(page.getByTestId(`session-state-${gone.session}`)).toHaveText("expired");
    await page.getByTestId(`takeover-open-${gone.issue}`).click();
    await expect(page.getByTestId(`takeover-preview-${gone.issue}`)).toHaveText(
      `Before: ${gone.issue} ACTIVE, held by builder-4 (expired, epoch ${gone.epoch}). After: ${gone.issue} ACTIVE, held by you (epoch ${gone.epoch + 1}); builder-4's later writes on it are refused.`,
    );
    await expect(page.getByTestId(`takeover-confirm-${gone.issue}`)).toBeDisabled();
    await page.getByLabel("Why (kept in the ledger and as your session's note)").fill("builder-4 crashed overnight");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`agents-takeover-form-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByTestId(`takeover-confirm-${gone.issue}`).click();
    // The list refreshed (the old session reclaimed) and the outcome is still shown in its row.
    await expect(page.getByTestId(`session-state-${gone.session}`)).toHaveText("reclaimed");
    await expect(page.getByTestId(`takeover-outcome-${gone.issue}`)).toHaveText(`Took over ${gone.issue} from builder-4 (epoch ${gone.epoch + 1}).`);
    const line = repo.cockpit("plan", "agents", "--json");
    expect((JSON.parse(line) as { sessions: { issue: string; epoch: number; state: string; note: string | null }[] }).sessions.find((s) => s.issue === gone.issue && s.epoch === gone.epoch + 1)).toMatchObject({ state: "active", note: "builder-4 crashed overnight" });
    await shot("agents-taken-over");
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    try {
      repo.cockpit("plan", "release", gone.issue, "--as", "e2e-lead", "--force");
    } catch {
      /* nothing held it any more */
    }
    repo.restore(repo.issue(gone.issue));
  }
});
