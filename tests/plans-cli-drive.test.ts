// Issue 6's promise on the command line: a milestone of the demo plan is decomposed and driven to
// the end by `cockpit plans …`, each call a real `node bin/cockpit` process over a git copy of the
// demo (the scenario: tests/helpers/notifications-plan.ts). When the plan waits on BK-015,
// `cockpit plan` finishes it, as a person would.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdvanceResult, ClaimResult, CompleteResult, FailResult, PlanDetail, PlanSummary } from "@/lib/execution/coordinator";
import { EVIDENCE, MILESTONE, TIMELINE_KINDS, WAVES_FINISHED } from "./helpers/notifications-plan";
import { CLI, ensureCliBuilt } from "./support/processes";
import { ROOT, cleanupRepos, demoGitCopy, git } from "./support/repo";

const commandFor = (token: string) => `pnpm --filter api test -- ${token}`;

let repo: string;

/** `node bin/cockpit <args> --repo <copy>`: exit code, stdout, stderr. */
function cockpit(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args, "--repo", repo], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same with --json, which must succeed; its one JSON document. */
function cockpitJson<T>(...args: string[]): T {
  const r = cockpit(...args, "--json");
  expect(r.stderr, `cockpit ${args.join(" ")}`).toBe("");
  expect(r.code, `cockpit ${args.join(" ")}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

interface StatusJson {
  milestones: { id: string; status: string; counts: { required: number; by_status: Record<string, number> } }[];
}
const issueStatuses = () =>
  Object.fromEntries(
    cockpitJson<{ issues: { id: string; status: string }[] }>("plan", "issues", "--milestone", MILESTONE).issues.map((i) => [i.id, i.status]),
  );
const milestoneStatus = () => cockpitJson<StatusJson>("plan", "status").milestones.find((m) => m.id === MILESTONE);

beforeAll(() => {
  ensureCliBuilt();
  repo = demoGitCopy("cockpit-plans-drive-");
});
afterAll(cleanupRepos);

describe("cockpit plans drives a demo milestone to DONE", () => {
  it("decomposes notifications, runs every child wave by wave, retries one transient failure, and the milestone ends DONE", () => {
    expect(milestoneStatus()?.status).toBe("PLANNED");

    // ---- decompose
    const created = cockpitJson<PlanDetail>("plans", "create", "--milestone", MILESTONE);
    const root = created.plan_id;
    expect(root).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(created).toMatchObject({ phase: "execute", processing_state: "processing", title: `deliver milestone ${MILESTONE}` });
    expect(created.subplan_config).toMatchObject({ execution_mode: "sequential", max_retries: 2, retry_failed: true, fail_fast: false });
    expect(created.children.map((c) => [c.issue, c.wave, c.phase, c.processing_state, c.attempt])).toEqual([
      ["BK-024", 3, "strategize", "queued", 1],
      ["BK-027", 3, "strategize", "queued", 1],
      ["BK-025", 5, "strategize", "queued", 1],
      ["BK-026", 6, "strategize", "queued", 1],
    ]);
    expect(created.integration_branch).toBe(`cockpit/plan-${root.toLowerCase()}`);
    expect(git(repo, "rev-parse", created.integration_branch!)).toBe(git(repo, "rev-parse", "HEAD"));

    // ---- drive: claim, execute, apply, complete, until nothing is left to claim
    const claimed: string[] = [];
    const waits: string[] = [];
    let failedOnce = false;
    for (let round = 0; round < 12; round++) {
      const claim = cockpitJson<ClaimResult>("plans", "claim", root);
      if (!claim.claimed) {
        if (claim.reason === `execution plan ${root} has ended completed`) break;
        // The one wait: BK-025 depends on BK-015 of another milestone, which a person finishes.
        expect(claim.reason).toBe("sequential: the next child cannot start: BK-025 waits on BK-015 (ACTIVE)");
        waits.push(claim.reason);
        expect(cockpitJson<{ from: string; to: string }>("plan", "verify", "BK-015")).toMatchObject({ from: "ACTIVE", to: "VERIFY" });
        for (const covers of ["manage_link_tests", "cancel_frees_slot"]) {
          cockpitJson("plan", "evidence", "BK-015", "--covers", covers, "--type", "test", "--command", commandFor(covers));
        }
        expect(cockpitJson<{ from: string; to: string }>("plan", "done", "BK-015")).toMatchObject({ from: "VERIFY", to: "DONE" });
        continue;
      }
      const child = claim.claimed;
      const issue = child.issue!;
      claimed.push(`${issue}#${child.attempt}`);
      expect(child).toMatchObject({ processing_state: "processing", phase: "strategize", parent_plan_id: root, root_plan_id: root });
      expect(claim.reason).toMatch(new RegExp(`^claimed child ${child.plan_id} \\(issue ${issue}, attempt ${child.attempt}\\) in wave ${child.wave}: its dependencies `));

      const executed = cockpitJson<AdvanceResult>("plans", "advance", child.plan_id, "--to", "execute");
      expect(executed).toMatchObject({ moved: true, from: "strategize", to: "execute", child: { phase: "execute", processing_state: "processing" } });
      if (child.attempt === 1) expect(executed.issue_transition).toMatchObject({ issue, transition: "start", from: "READY", to: "ACTIVE" });
      // A retry finds its issue ACTIVE from the failed attempt and does not start it again.
      else expect(executed.issue_transition).toBeUndefined();
      expect(issueStatuses()[issue]).toBe("ACTIVE");

      if (issue === "BK-024" && !failedOnce) {
        failedOnce = true;
        const failed = cockpitJson<FailResult>("plans", "fail", child.plan_id, "--category", "transient", "--message", "the Postmark sandbox answered 503");
        expect(failed.child).toMatchObject({ processing_state: "errored", last_error: { category: "transient", message: "the Postmark sandbox answered 503" } });
        expect(failed.decision).toMatchObject({ retry: true, stop_others: false });
        expect(failed.retry).toMatchObject({ issue, attempt: 2, retry_of: child.plan_id, processing_state: "queued", phase: "strategize", wave: 3 });
        expect(failed.cancelled).toEqual([]);
        expect(issueStatuses()[issue]).toBe("ACTIVE");
        continue;
      }

      const applied = cockpitJson<AdvanceResult>("plans", "advance", child.plan_id, "--to", "apply");
      expect(applied).toMatchObject({ moved: true, from: "execute", to: "apply", issue_transition: { issue, transition: "verify", from: "ACTIVE", to: "VERIFY" } });

      // One token by --covers/--type/--command; any before it by --evidence-json.
      const tokens = EVIDENCE[issue];
      const evidence = tokens.length
        ? [
            ...(tokens.length > 1
              ? ["--evidence-json", JSON.stringify(tokens.slice(0, -1).map((t) => ({ covers: t, type: "test", command: commandFor(t) })))]
              : []),
            ...["--covers", tokens.at(-1)!, "--type", "test", "--command", commandFor(tokens.at(-1)!)],
          ]
        : [];
      const completed = cockpitJson<CompleteResult>("plans", "complete", child.plan_id, ...evidence);
      expect(completed).toMatchObject({ completed: true, child: { processing_state: "completed", phase: "apply" }, issue_transition: { issue, transition: "done", from: "VERIFY", to: "DONE" } });
      expect(completed.evidence).toEqual(tokens);
      expect(issueStatuses()[issue]).toBe("DONE");
    }

    // Wave order, the retry right after its failure, and the one wait before wave 5.
    expect(claimed).toEqual(["BK-024#1", "BK-024#2", "BK-027#1", "BK-025#1", "BK-026#1"]);
    expect(waits).toHaveLength(1);

    // ---- the root has completed, and its timeline holds every decision in order
    const done = cockpitJson<PlanDetail>("plans", "get", root);
    expect(done).toMatchObject({ phase: "apply", processing_state: "completed" });
    expect(done.children.map((c) => [c.issue, c.attempt, c.processing_state])).toEqual([
      ["BK-024", 1, "errored"],
      ["BK-027", 1, "completed"],
      ["BK-025", 1, "completed"],
      ["BK-026", 1, "completed"],
      ["BK-024", 2, "completed"],
    ]);
    expect(done.events.map((e) => e.kind)).toEqual(TIMELINE_KINDS);
    expect(done.events.filter((e) => e.kind === "wave_finished").map((e) => e.reason)).toEqual(WAVES_FINISHED);
    expect(done.events.at(-1)?.reason).toBe(`every child completed (4 of 4); their work is on cockpit/plan-${root.toLowerCase()}`);

    const [listed] = cockpitJson<{ plans: PlanSummary[] }>("plans", "list").plans;
    expect(listed).toMatchObject({ plan_id: root, processing_state: "completed", children_by_state: { queued: 0, processing: 0, completed: 4, errored: 1, cancelled: 0 } });
    // An ended plan hands out nothing more, and says so (exit 0: an answer, not an error).
    expect(cockpitJson<ClaimResult>("plans", "claim", root)).toEqual({ claimed: null, reason: `execution plan ${root} has ended completed` });
    // A report on a child that has ended is refused, with the refusal's exit code.
    const runbook = done.children[1];
    const refusedMove = cockpit("plans", "advance", runbook.plan_id, "--to", "apply");
    expect(refusedMove).toEqual({
      code: 15,
      stdout: "",
      stderr: `cockpit plans advance: child ${runbook.plan_id} (issue BK-027, attempt 1) has already completed; its move to apply is refused\n`,
    });

    // ---- the milestone: every issue DONE; VERIFY until its own evidence, then DONE
    expect(issueStatuses()).toEqual({ "BK-024": "DONE", "BK-025": "DONE", "BK-026": "DONE", "BK-027": "DONE" });
    expect(milestoneStatus()).toMatchObject({ status: "VERIFY", counts: { required: 4, by_status: { DONE: 4 } } });
    cockpitJson("plan", "evidence", MILESTONE, "--covers", "delivery_report", "--type", "ci", "--command", "pnpm --filter api run report:delivery -- --days 7");
    expect(milestoneStatus()).toMatchObject({ status: "DONE", counts: { required: 4, by_status: { DONE: 4 } } });
  });
});
