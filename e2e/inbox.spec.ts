import { spawn } from "node:child_process";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, seriousViolations, settle, test } from "./fixtures";

// Needs a human: an agent process claims an issue and runs `cockpit plan ask … --wait`; the inbox
// shows the ask with its age; a person answers in the page; the agent's process prints the answer
// and exits 0; the issue's timeline shows the question and the answer.

const ROOT = join(__dirname, "..");

test("an agent's ask --wait is answered from /inbox: its process prints the answer and exits 0, and the issue's timeline shows both @demo", async ({ page, repo, visit, shot }) => {
  const claimed = JSON.parse(repo.cockpit("plan", "claim", "--as", "builder-e2e", "--json")) as { issue: string; session: string };
  const question = "May I drop the legacy bookings table after the export?";
  const agent = spawn(process.execPath, [join(ROOT, "bin/cockpit"), "plan", "ask", claimed.issue, "--question", question, "--kind", "approve", "--wait", "--timeout", "120", "--as", "builder-e2e", "--repo", repo.dir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  agent.stdout.on("data", (d: Buffer) => (out += d.toString()));
  agent.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => agent.on("exit", (code) => resolve(code)));
  try {
    await expect.poll(() => JSON.parse(repo.cockpit("plan", "inbox", "--json")).asks.length, { timeout: 30_000 }).toBe(1);
    const ask = JSON.parse(repo.cockpit("plan", "inbox", "--json")).asks[0] as { id: string };

    await visit("/inbox");
    await expect(page.getByTestId(`ask-question-${ask.id}`)).toHaveText(question);
    await expect(page.getByTestId(`ask-age-${ask.id}`)).toHaveText(/^\d+ s ago$/);
    await expect(page.getByTestId(`ask-${ask.id}`)).toContainText("asked by builder-e2e (agent)");
    await expect(page.getByTestId("nav-badge-inbox")).toHaveText(/^\d+/);
    // The agent waits: its session says so on /agents too.
    expect(JSON.parse(repo.cockpit("plan", "agents", "--json")).sessions.find((s: { session: string }) => s.session === claimed.session).state).toBe("awaiting_input");
    expect(await seriousViolations(page)).toEqual([]);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`inbox-open-ask-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // The standup by person opens with the agents at work: builder-e2e waits on a person.
    await visit("/standup");
    await expect(page.getByTestId("standup-sessions-builder-e2e")).toContainText(`${claimed.issue}awaiting_input`);
    await expect(page.getByTestId("standup-sessions-builder-e2e")).toContainText("builder-e2e (agent)");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`standup-agents-at-work-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // An actor that claimed the next issue is an agent on /people too.
    await visit("/people");
    await expect(page.getByTestId("people-kind-builder-e2e")).toHaveText("agent");

    await visit("/inbox");
    await page.getByTestId(`answer-comment-${ask.id}`).fill("after the export is verified");
    await page.getByTestId(`answer-yes-${ask.id}`).click();
    await expect(page.getByTestId(`answer-outcome-${ask.id}`)).toHaveText(`Answered ${ask.id} on ${claimed.issue}: yes.`);
    expect(await exited).toBe(0);
    expect(err).toBe("");
    expect(out.replace(/\s+/g, " ").trim()).toMatch(new RegExp(`^plan: ask ${ask.id} on ${claimed.issue} answered by .+: yes \\(after the export is verified\\)$`));

    await visit(`/issues/${claimed.issue}`);
    const asks = page.getByTestId("timeline-ask");
    await expect(asks).toHaveCount(2);
    await expect(asks.nth(0)).toContainText("answered: yes (after the export is verified)");
    await expect(asks.nth(1)).toContainText(`asked (approve): ${question}`);
    await expect(asks.nth(1)).toContainText("builder-e2e");
    await page.getByTestId("timeline").scrollIntoViewIfNeeded();
    await shot("issue-timeline-ask-answered");
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    agent.kill();
    try {
      repo.cockpit("plan", "release", claimed.issue, "--as", "e2e-lead", "--force");
    } catch {
      /* nothing held it any more */
    }
    repo.restore(repo.issue(claimed.issue));
  }
});

test("the standup names the asks that waited on a person for over a working day, and the inbox shows their age @demo", async ({ page, repo, visit, shot }) => {
  const asked = JSON.parse(repo.cockpit("plan", "ask", "BK-021", "--question", "Which region do we run the load test from?", "--kind", "choose", "--option", "eu-west-1", "--option", "us-east-1", "--as", "e2e-lead", "--json")) as { id: string };
  try {
    // Opened nine hours ago: the store's clock is the one that ages it.
    const db = new Database(join(repo.dir, ".ai/local/state/cockpit.db"), { timeout: 10_000 });
    db.prepare("UPDATE asks SET opened = ? WHERE ask = ?").run(new Date(Date.now() - 9 * 3600_000).toISOString(), asked.id);
    db.close();
    await visit("/standup");
    await expect(page.getByTestId("standup-long-asks")).toContainText("1 ask waiting on a person for over a working day");
    await expect(page.getByTestId("standup-long-asks")).toContainText("e2e-lead, 9 h ago:");
    await expect(page.getByTestId("standup-long-asks")).toContainText("Which region do we run the load test from?");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settle(page);
      await shot(`standup-long-asks-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await visit("/inbox");
    await expect(page.getByTestId(`ask-age-${asked.id}`)).toHaveText("9 h ago");
    await expect(page.getByTestId(`answer-choice-${asked.id}-1`)).toHaveText("us-east-1");
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await shot("inbox-choose-390");
    await page.setViewportSize({ width: 1280, height: 800 });
  } finally {
    repo.cockpit("plan", "withdraw", asked.id, "--as", "e2e-lead");
  }
});
