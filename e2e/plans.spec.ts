import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { parse } from "yaml";
import { EVIDENCE, MILESTONE, TIMELINE_KINDS, WAVES_FINISHED } from "../tests/helpers/notifications-plan";
import { expect, seriousViolations, settle, test, waitForPlan, type PlanJson } from "./fixtures";

// Issue 6's promise, in the browser: a milestone of the demo plan is decomposed on /plans and
// driven to the end on /plans/ID by clicks and form inputs only (the scenario:
// tests/helpers/notifications-plan.ts). BK-025 waits on BK-015 of booking, which a person finishes
// on its issue page.
// This project serves its own copy of the demo (playwright.config.ts): the others never see it.

/** The command typed to prove each required token (what the records must hold afterwards). */
const PROOF: Record<string, string> = {
  bounce_handling: "pnpm --filter api test -- notifications/email/bounces",
  template_snapshots: "pnpm --filter api test -- notifications/templates",
  reminder_tests: "pnpm --filter api test -- notifications/reminders",
  stop_handling: "pnpm --filter api test -- notifications/sms/stop",
  quiet_hours: "pnpm --filter api test -- notifications/sms/quiet-hours",
};

const statusOf = (id: string) => (plan: PlanJson) => plan.issues.find((i) => i.id === id)?.status;
/** The seal of a stamp, computed here rather than by the library under test. */
const seal = (event: string, id: string, stamp: string) =>
  "sha256:" + createHash("sha256").update(`majordomus.plan-event/v1\n${event}\n${id}\n${stamp}\n`).digest("hex");

/** The row of one attempt of an issue's child in the plan's tree. */
function childRow(page: Page, issue: string, attempt: number): Locator {
  return page
    .getByTestId("plan-tree")
    .locator('li[data-testid^="child-"]')
    .filter({ has: page.getByRole("link", { name: issue, exact: true }) })
    .filter({ hasText: `· attempt ${attempt}` });
}

/** Fill in and send the evidence form of an issue or milestone page, proved by a command. */
async function recordEvidence(page: Page, e: { covers: string; type: string; command: string; result?: string }) {
  const form = page.getByTestId("evidence-form");
  await form.getByLabel("Covers").selectOption(e.covers);
  await form.getByLabel("Type").selectOption(e.type);
  await form.getByLabel("Proved by").selectOption("command");
  await form.getByLabel("Command or artifact").fill(e.command);
  await form.getByLabel("Result").fill(e.result ?? "");
  await form.getByRole("button", { name: "Record evidence" }).click();
  await expect(page.getByTestId("evidence-outcome")).toHaveText(`Evidence recorded for ${e.covers}.`);
}

async function childId(row: Locator): Promise<string> {
  return (await row.getAttribute("data-testid"))!.replace(/^child-/, "");
}

test.describe("execution plans @plans", () => {
  test("a milestone is decomposed and driven to DONE from the browser, one transient failure retried", async ({ page, visit, shot, repo }) => {
    test.setTimeout(240_000);
    const timeline = page.getByTestId("plan-timeline");
    const claimOutcome = page.getByTestId("claim-outcome");

    // A retry of this test starts again from the demo's records (the plans of an earlier try stay).
    repo.restore(...["BK-015", ...Object.keys(EVIDENCE)].map(repo.issue), repo.milestone(MILESTONE));
    await waitForPlan(page, (p) => p.milestones.find((m) => m.id === MILESTONE)?.status === "PLANNED" && statusOf("BK-015")(p) === "ACTIVE");
    const ledgerPath = join(repo.dir, ".ai/local/state/ledger.jsonl");
    const ledgerBefore = existsSync(ledgerPath) ? readFileSync(ledgerPath, "utf8").length : 0;
    const plansBefore = ((await (await page.request.get("/api/v1/plans/list")).json()) as { plans: unknown[] }).plans.length;

    // ---- /plans: decompose the milestone
    await visit("/plans");
    await expect(page.getByRole("heading", { name: `Plans (${plansBefore})` })).toBeVisible();
    const form = page.getByTestId("create-plan");
    // Only milestones with unfinished issues are offered.
    await expect(form.getByLabel("Milestone").locator("option")).toHaveText([
      "Customers book an appointment online in under a minute",
      "Customers are reminded before their appointment",
      "Businesses take deposits and pay refunds through Stripe",
    ]);
    await form.getByLabel("Milestone").selectOption(MILESTONE);
    await expect(form.getByLabel("Mode")).toHaveValue("sequential");
    await expect(form.getByLabel("max_retries")).toHaveValue("2");
    // Preview first: what it would make, and nothing is made.
    await form.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByTestId("create-preview-result");
    await expect(preview).toContainText(`It would deliver milestone ${MILESTONE}: 4 children in 3 wave(s), sequential, max_parallel 5.`);
    await expect(preview.locator("li")).toHaveText([/^wave 3 · BK-024 · /, /^wave 3 · BK-027 · /, /^wave 5 · BK-025 · /, /^wave 6 · BK-026 · /]);
    await expect(preview).toContainText("Integration branch: cockpit/plan-");
    // The page was refreshed after the preview: the count of plans is the same.
    await expect(page.getByRole("heading", { name: `Plans (${plansBefore})` })).toBeVisible();
    await preview.getByRole("button", { name: "Decompose" }).click();
    await page.waitForURL(/\/plans\/[0-9A-HJKMNP-TV-Z]{26}$/);
    const rootId = page.url().split("/").pop()!;
    await settle(page);
    await shot("decomposed");

    await expect(page.getByRole("heading", { name: `deliver milestone ${MILESTONE}` })).toBeVisible();
    await expect(page.getByTestId("plan-phase")).toHaveText("execute");
    await expect(page.getByTestId("plan-state")).toHaveText("processing");
    const rows = page.getByTestId("plan-tree").locator('li[data-testid^="child-"]');
    await expect(rows).toHaveCount(4);
    // Children in wave-then-issue order, each queued in strategize.
    await expect(rows.getByRole("link")).toHaveText(["BK-024", "BK-027", "BK-025", "BK-026"]);
    await expect(rows.getByTestId("child-state")).toHaveText(["queued", "queued", "queued", "queued"]);
    await expect(rows.getByTestId("child-phase")).toHaveText(["strategize", "strategize", "strategize", "strategize"]);
    await expect(rows).toContainText(["wave 3 · attempt 1", "wave 3 · attempt 1", "wave 5 · attempt 1", "wave 6 · attempt 1"]);
    await expect(timeline).toContainText("strategize → execute: 4 children in 3 wave(s) (sequential, max_parallel 5)");
    await expect(page.getByTestId("plan-config")).toContainText("max_retries: 2");

    /** Claim the next child and check the server claimed this one, for this reason. */
    const claim = async (issue: string, attempt: number, why: string) => {
      await page.getByRole("button", { name: "Claim the next child" }).click();
      await expect(claimOutcome).toHaveText(
        new RegExp(`^Claimed ${issue}: claimed child [0-9A-Z]{26} \\(issue ${issue}, attempt ${attempt}\\) in wave \\d: ${why}`),
      );
      const row = childRow(page, issue, attempt);
      await expect(row.getByTestId("child-state")).toHaveText("processing");
      await expect(row.getByTestId("child-phase")).toHaveText("strategize");
      return row;
    };

    /** strategize → execute: the issue starts (or, on a retry, stays ACTIVE). */
    const execute = async (row: Locator, issue: string, attempt: number) => {
      const id = await childId(row);
      await row.getByRole("button", { name: "Advance to execute" }).click();
      await expect(row.getByTestId("child-outcome")).toHaveText("strategize → execute");
      await expect(row.getByTestId("child-phase")).toHaveText("execute");
      await expect(timeline).toContainText(
        `child ${id} (issue ${issue}, attempt ${attempt}) strategize → execute: ` +
          (attempt === 1 ? `issue ${issue} started (READY → ACTIVE)` : `issue ${issue} is already ACTIVE from an earlier attempt; it is not started again`),
      );
      await waitForPlan(page, (p) => statusOf(issue)(p) === "ACTIVE");
    };

    /** execute → apply (the issue is verified), then complete with a command per required token. */
    const applyAndComplete = async (row: Locator, issue: string, attempt: number, { checkAxe = false } = {}) => {
      const id = await childId(row);
      await row.getByRole("button", { name: "Advance to apply" }).click();
      await expect(row.getByTestId("child-outcome")).toHaveText("execute → apply");
      await expect(row.getByTestId("child-phase")).toHaveText("apply");
      await expect(timeline).toContainText(
        `child ${id} (issue ${issue}, attempt ${attempt}) execute → apply: it names no branch, so it applies as is; issue ${issue} verified (ACTIVE → VERIFY)`,
      );
      await waitForPlan(page, (p) => statusOf(issue)(p) === "VERIFY");
      const tokens = EVIDENCE[issue];
      // The completion form asks for exactly the evidence the issue requires.
      await expect(row.getByRole("textbox", { name: /^Command proving / })).toHaveCount(tokens.length);
      for (const t of tokens) await row.getByRole("textbox", { name: `Command proving ${t}` }).fill(PROOF[t]);
      await shot(`${issue} attempt ${attempt} apply`);
      // The completion form and the failure form are on screen, with a completed and an errored child.
      if (checkAxe) expect(await seriousViolations(page, `/plans/ID, ${issue} in apply`)).toEqual([]);
      await row.getByRole("button", { name: "Complete" }).click();
      await expect(row.getByTestId("child-outcome")).toHaveText("Completed: its issue is DONE.");
      await expect(row.getByTestId("child-state")).toHaveText("completed");
      await expect(row.getByRole("button")).toHaveCount(0);
      await expect(timeline).toContainText(
        `child ${id} (issue ${issue}, attempt ${attempt}) completed: ${tokens.length ? `evidence recorded for ${tokens.join(", ")}; ` : ""}issue ${issue} is DONE (VERIFY → DONE)`,
      );
      await waitForPlan(page, (p) => statusOf(issue)(p) === "DONE");
    };

    // ---- wave 3: BK-024 fails once (transient) and its retry completes; then BK-027
    const first = await claim("BK-024", 1, "its dependencies BK-004 are DONE");
    const firstId = await childId(first);
    await execute(first, "BK-024", 1);
    await first.getByLabel("Failure category").selectOption("transient");
    await first.getByLabel("What went wrong").fill("the Postmark sandbox answered 503");
    await first.getByRole("button", { name: "Fail" }).click();
    await expect(first.getByTestId("child-outcome")).toHaveText(
      "retry: transient is retriable and attempt 1 is within max_retries 2, so attempt 2 runs the same work; the siblings go on.",
    );
    await expect(first.getByTestId("child-state")).toHaveText("errored");
    await expect(first).toContainText("transient: the Postmark sandbox answered 503");
    await expect(first.getByRole("button")).toHaveCount(0);
    const retry = childRow(page, "BK-024", 2);
    await expect(retry).toContainText(`wave 3 · attempt 2 (retry of ${firstId.slice(-6)})`);
    await expect(retry.getByTestId("child-state")).toHaveText("queued");
    await expect(rows).toHaveCount(5);
    await expect(timeline).toContainText(`child ${firstId} (issue BK-024, attempt 1) failed with transient: the Postmark sandbox answered 503. Failure handler: retry`);
    await expect(timeline).toContainText(new RegExp(`attempt 2 of issue BK-024 is queued as ${await childId(retry)}, retrying ${firstId} \\(transient\\)`));
    await shot("BK-024 failed, retry queued");
    // The failure leaves the issue where it was: the retry carries on from ACTIVE.
    await waitForPlan(page, (p) => statusOf("BK-024")(p) === "ACTIVE");

    await claim("BK-024", 2, "its dependencies BK-004 are DONE");
    await execute(retry, "BK-024", 2);
    await applyAndComplete(retry, "BK-024", 2);

    const runbook = await claim("BK-027", 1, "its dependencies BK-004 are DONE");
    await execute(runbook, "BK-027", 1);
    await applyAndComplete(runbook, "BK-027", 1);

    // ---- BK-025 waits on BK-015 (booking, ACTIVE): claiming says so, and nothing is claimed
    await page.getByRole("button", { name: "Claim the next child" }).click();
    await expect(claimOutcome).toHaveText("Nothing to claim: sequential: the next child cannot start: BK-025 waits on BK-015 (ACTIVE)");
    await expect(childRow(page, "BK-025", 1).getByTestId("child-state")).toHaveText("queued");
    await expect(timeline.locator("li").last()).toContainText("claim_waiting");

    // A person finishes BK-015 on its own page: verify, its two pieces of evidence, done.
    await visit("/issues/BK-015");
    await expect(page.getByTestId("issue-status")).toHaveText("ACTIVE");
    await page.getByTestId("move-verify").click();
    await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-015: ACTIVE → VERIFY\./);
    await recordEvidence(page, { covers: "manage_link_tests", type: "test", command: "pnpm --filter api test -- bookings/manage" });
    await recordEvidence(page, { covers: "cancel_frees_slot", type: "test", command: "pnpm --filter web e2e -- manage-booking" });
    await expect(page.getByTestId("move-done")).toBeEnabled();
    await page.getByTestId("move-done").click();
    await expect(page.getByTestId("move-outcome")).toHaveText(/^BK-015: VERIFY → DONE\./);
    await expect(page.getByTestId("issue-status")).toHaveText("DONE");

    // ---- waves 5 and 6: BK-025, then BK-026, whose dependency BK-025 this plan just finished
    await visit(`/plans/${rootId}`);
    const reminders = await claim("BK-025", 1, "its dependencies BK-024, BK-015 are DONE");
    await execute(reminders, "BK-025", 1);
    await applyAndComplete(reminders, "BK-025", 1, { checkAxe: true });

    const sms = await claim("BK-026", 1, "its dependencies BK-025 are DONE");
    await execute(sms, "BK-026", 1);
    await applyAndComplete(sms, "BK-026", 1);

    // ---- the root has completed: no more claiming, and the timeline says why
    await expect(page.getByTestId("plan-state")).toHaveText("completed");
    await expect(page.getByTestId("plan-phase")).toHaveText("apply");
    await expect(page.getByRole("button", { name: "Claim the next child" })).toHaveCount(0);
    await expect(rows.getByTestId("child-state")).toHaveText(["errored", "completed", "completed", "completed", "completed"]);
    await expect(timeline.locator("li").last()).toContainText(`plan_completed`);
    await expect(timeline.locator("li").last()).toContainText(`every child completed (4 of 4); their work is on cockpit/plan-${rootId.toLowerCase()}`);
    // Every decision, in order.
    await expect(timeline.locator("li > span:nth-child(2)")).toHaveText(TIMELINE_KINDS);
    await expect(timeline.locator("li").filter({ hasText: "wave_finished" }).locator("span:nth-child(3)")).toHaveText(WAVES_FINISHED);
    await shot("plan completed");

    await visit("/plans");
    await expect(page.getByRole("heading", { name: `Plans (${plansBefore + 1})` })).toBeVisible();
    const listed = page.getByTestId("plan-list").locator("li").filter({ hasText: rootId });
    await expect(listed).toHaveText(`${rootId}deliver milestone ${MILESTONE}apply · completed · 4 completed, 1 errored`);
    // Nothing is left to decompose in the milestone.
    await expect(page.getByTestId("create-plan").getByLabel("Milestone").locator("option")).toHaveText([
      "Customers book an appointment online in under a minute",
      "Businesses take deposits and pay refunds through Stripe",
    ]);

    // ---- on disk: each issue's record is sealed DONE, with the evidence typed in the browser
    for (const [id, tokens] of Object.entries(EVIDENCE)) {
      const record = parse(readFileSync(repo.issue(id), "utf8")) as Record<string, string> & { evidence?: Record<string, string>[] };
      for (const [field, sealField, event] of [
        ["started_at", "started_event", "plan_start"],
        ["verified_at", "verified_event", "plan_verify"],
        ["completed_at", "completed_event", "plan_done"],
      ]) {
        expect(record[field], `${id} ${field}`).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(record[sealField], `${id} ${sealField}`).toBe(seal(event, id, record[field]));
      }
      expect(
        (record.evidence ?? []).map((e) => [e.covers, e.type, e.command]),
        `${id} evidence`,
      ).toEqual(tokens.map((t) => [t, "test", PROOF[t]]));
    }
    // The ledger holds each issue's moves once: the retry did not start BK-024 a second time.
    const ledger = readFileSync(ledgerPath, "utf8")
      .slice(ledgerBefore)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; issue?: string; covers?: string });
    for (const [id, tokens] of Object.entries(EVIDENCE)) {
      expect(
        ledger.filter((l) => l.issue === id).map((l) => (l.covers ? `${l.event} ${l.covers}` : l.event)),
        `${id} in the ledger`,
      ).toEqual(["plan_start", "plan_verify", ...tokens.map((t) => `plan_evidence ${t}`), "plan_done"]);
    }

    // ---- the milestone: every issue DONE, VERIFY until its own evidence is recorded, then DONE
    await visit(`/milestones/${MILESTONE}`);
    await expect(page.getByTestId("milestone-status")).toHaveText("VERIFY");
    await expect(page.getByRole("heading", { name: "Issues: 4 of 4 done" })).toBeVisible();
    const report = { covers: "delivery_report", type: "ci", command: "pnpm --filter api run report:delivery -- --days 7", result: "99.6% of reminders inside the window" };
    await recordEvidence(page, report);
    await expect(page.getByTestId("milestone-status")).toHaveText("DONE");
    const milestoneRecord = parse(readFileSync(repo.milestone(MILESTONE), "utf8")) as { evidence?: Record<string, string>[] };
    expect(milestoneRecord.evidence).toEqual([expect.objectContaining(report)]);

    const status = (await (await page.request.get("/api/v1/plan/status")).json()) as { milestones: { id: string; status: string; counts: { required: number; by_status: Record<string, number> } }[] };
    const milestone = status.milestones.find((m) => m.id === MILESTONE);
    expect(milestone?.status).toBe("DONE");
    expect(milestone?.counts.by_status.DONE).toBe(4);
    expect(milestone?.counts.required).toBe(4);
  });

  test("a plan is deleted from its page after a confirmation: its children, its timeline and its integration branch go, the records stay", async ({ page, visit, repo }) => {
    const created = await page.request.post("/api/v1/plans/create", { data: { milestone: "booking" } });
    expect(created.status()).toBe(200);
    const plan = (await created.json()) as { plan_id: string; integration_branch: string; children: unknown[] };
    const branchThere = () => spawnSync("git", ["rev-parse", "--verify", "-q", `refs/heads/${plan.integration_branch}`], { cwd: repo.dir }).status === 0;
    expect(branchThere()).toBe(true);
    const records = readFileSync(repo.milestone("booking"), "utf8");

    await visit(`/plans/${plan.plan_id}`);
    await page.getByTestId("delete-plan").click();
    const confirm = page.getByTestId("delete-plan-confirm");
    await expect(confirm).toContainText(`Delete ${plan.plan_id}, its ${plan.children.length} children and their timeline, and the branch ${plan.integration_branch}? The records are not touched.`);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(/\/plans$/);
    await expect(page.getByRole("heading", { name: /^Plans \(\d+\)$/ })).toBeVisible();
    await expect(page.locator("main")).not.toContainText(plan.plan_id);
    expect(branchThere()).toBe(false);
    expect(readFileSync(repo.milestone("booking"), "utf8")).toBe(records);
  });
});
