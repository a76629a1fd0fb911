// Settling a root's children after a change: failures and retries, queued children that can never
// run, finished waves, and the end of the root.
import type { Plan, PlanIssue } from "../../plan/shapes";
import { decideFailure, type ErrorCategory, type FailureDecision } from "../failure";
import { childIdentity, isTerminalState, movePhase, type ProcessingState } from "../model";
import { newPlanRow, type PlanRow, type PlanTx } from "../store";
import { childName, event, issueOf, latestAttempts, rootConfig, unfinishedDeps } from "./shared";

export interface FailOutcome {
  decision: FailureDecision;
  retry: PlanRow | null;
  cancelled: string[];
}

async function cancelChild(tx: PlanTx, c: PlanRow, reason: string, at: string): Promise<void> {
  const was = c.processing_state;
  await tx.updatePlan(c.plan_id, { processing_state: "cancelled", cancel_reason: reason, finished_at: at, report_lock: null }, at);
  await event(tx, c, at, "cancelled", `${childName(c)} was ${was} and is cancelled: ${reason}`, { was });
}

/** Fail a child (queued or processing): the failure handler decides retry and stop; all recorded. */
export async function failInTx(tx: PlanTx, repo: string, child: PlanRow, category: ErrorCategory, text: string, at: string): Promise<FailOutcome> {
  const root = (await tx.plan(child.root_plan_id))!;
  const parent = (await tx.plan(child.parent_plan_id!))!;
  const config = rootConfig(root);
  const decision = decideFailure(config, { category, attempt: child.attempt });
  await tx.updatePlan(
    child.plan_id,
    { processing_state: "errored", error_category: category, error_message: text, finished_at: at, report_lock: null },
    at,
  );
  await event(tx, child, at, "child_failed", `${childName(child)} failed with ${category}: ${text}. Failure handler: ${decision.reason}`, {
    category,
    message: text,
    decision,
  });
  let retry: PlanRow | null = null;
  if (decision.retry) {
    const identity = childIdentity({ plan_id: parent.plan_id, parent_plan_id: parent.parent_plan_id, root_plan_id: parent.root_plan_id });
    retry = await tx.insertPlan(
      newPlanRow({
        ...identity,
        root_plan_id: root.plan_id,
        automation_profile: child.automation_profile,
        attempt: child.attempt + 1,
        title: child.title,
        issue_id: child.issue_id,
        wave: child.wave,
        retry_of: child.plan_id,
        created_at: at,
      }),
    );
    await event(tx, retry, at, "retry_queued", `attempt ${retry.attempt} of issue ${child.issue_id} is queued as ${retry.plan_id}, retrying ${child.plan_id} (${category})`, {
      retry_of: child.plan_id,
    });
  }
  const cancelled: string[] = [];
  if (decision.stop_others) {
    const why = `sibling ${childName(child)} failed finally with ${category} (${text}) and ${config.fail_fast ? "fail_fast is set" : "the plan is sequential"}`;
    for (const s of await tx.children(parent.plan_id)) {
      if (s.plan_id === child.plan_id || isTerminalState(s.processing_state)) continue;
      await cancelChild(tx, s, why, at);
      cancelled.push(s.plan_id);
    }
  }
  return { decision, retry, cancelled };
}

/**
 * Queued children whose issue can no longer be done by this plan: its issue is gone or CANCELLED,
 * or a dependency is CANCELLED or is the work of a child that ended without completing (no retry
 * left). They are cancelled, so the plan can end. A queued child whose issue is already DONE
 * (done outside the plan, or by an earlier attempt) completes with nothing to run.
 */
export async function settleQueued(tx: PlanTx, root: PlanRow, plan: Plan, at: string): Promise<void> {
  // Until nothing changes: a cancelled child strands the children depending on its issue in turn.
  while ((await settleOnce(tx, root, plan, at)) > 0);
}

async function settleOnce(tx: PlanTx, root: PlanRow, plan: Plan, at: string): Promise<number> {
  const latest = latestAttempts(await tx.descendants(root.plan_id));
  const ended = new Map<string, PlanRow>();
  for (const c of latest) {
    if (c.issue_id && (c.processing_state === "errored" || c.processing_state === "cancelled")) ended.set(c.issue_id, c);
  }
  let changed = 0;
  for (const c of latest) {
    if (c.processing_state !== "queued") continue;
    const issue = issueOf(plan, c.issue_id);
    if (issue?.status === "DONE") {
      await tx.updatePlan(c.plan_id, { processing_state: "completed", finished_at: at }, at);
      await event(tx, c, at, "completed", `${childName(c)} completed with nothing to run: its issue ${issue.id} is already DONE`);
      changed++;
      continue;
    }
    const why = strandedBecause(plan, issue, c, ended);
    if (why) {
      await cancelChild(tx, c, why, at);
      changed++;
    }
  }
  return changed;
}

/** Why a queued child's work can never be done by this plan, or undefined. */
function strandedBecause(plan: Plan, issue: PlanIssue | undefined, c: PlanRow, ended: Map<string, PlanRow>): string | undefined {
  if (!issue) return `its issue ${c.issue_id} is no longer in the plan`;
  if (issue.status === "CANCELLED") return `its issue ${issue.id} is CANCELLED`;
  for (const dep of unfinishedDeps(plan, issue)) {
    if (dep.status === "CANCELLED") return `its issue ${issue.id} depends on ${dep.id}, which is CANCELLED and can never be DONE`;
    const gone = ended.get(dep.id);
    if (gone) return `its issue ${issue.id} depends on ${dep.id}, whose ${childName(gone)} ended ${gone.processing_state} with no retry left`;
  }
  return undefined;
}

/** Record finished waves, and end the root when every child's latest attempt has ended. */
export async function finishIfDone(tx: PlanTx, root: PlanRow, at: string): Promise<void> {
  if (isTerminalState(root.processing_state)) return;
  const latest = latestAttempts(await tx.descendants(root.plan_id));
  const finishedWaves = new Set(
    (await tx.events({ root: root.plan_id }))
      .filter((e) => e.kind === "wave_finished")
      .map((e) => Number(e.data.wave)),
  );
  const waves = [...new Set(latest.map((c) => c.wave ?? 0))].sort((a, b) => a - b);
  for (const w of waves) {
    if (finishedWaves.has(w)) continue;
    const members = latest.filter((c) => (c.wave ?? 0) === w);
    if (!members.every((c) => isTerminalState(c.processing_state))) continue;
    const count = (s: ProcessingState) => members.filter((c) => c.processing_state === s).length;
    await event(
      tx,
      root,
      at,
      "wave_finished",
      `wave ${w} is finished: ${count("completed")} completed, ${count("errored")} errored, ${count("cancelled")} cancelled (of ${members.length})`,
      { wave: w, completed: count("completed"), errored: count("errored"), cancelled: count("cancelled") },
    );
  }
  if (!latest.every((c) => isTerminalState(c.processing_state))) return;
  const failed = latest.filter((c) => c.processing_state !== "completed");
  if (failed.length === 0) {
    const moved = movePhase(root, "apply");
    await tx.updatePlan(root.plan_id, { phase: moved.phase, processing_state: "completed", finished_at: at }, at);
    await event(
      tx,
      root,
      at,
      "plan_completed",
      `every child completed (${latest.length} of ${latest.length})${root.integration_branch ? `; their work is on ${root.integration_branch}` : ""}`,
      { children: latest.length },
    );
    return;
  }
  const lines: string[] = [];
  for (const c of failed) {
    if (c.processing_state === "cancelled") {
      lines.push(`${childName(c)} was cancelled: ${c.cancel_reason}`);
      continue;
    }
    const decided = (await tx.events({ plan: c.plan_id })).filter((e) => e.kind === "child_failed").pop();
    const decision = decided?.data.decision as FailureDecision | undefined;
    lines.push(`${childName(c)} errored with ${c.error_category}: ${c.error_message}${decision ? ` (failure handler: ${decision.reason})` : ""}`);
  }
  await tx.updatePlan(
    root.plan_id,
    { processing_state: "errored", error_category: failed.find((c) => c.error_category)?.error_category ?? "cancelled", error_message: lines[0], finished_at: at },
    at,
  );
  await event(tx, root, at, "plan_errored", `${failed.length} of ${latest.length} children did not complete: ${lines.join("; ")}`, {
    failed: failed.map((c) => ({ plan_id: c.plan_id, issue: c.issue_id, state: c.processing_state, category: c.error_category, message: c.error_message ?? c.cancel_reason })),
  });
}
