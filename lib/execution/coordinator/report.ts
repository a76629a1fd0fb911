// A child's report (advance, complete, fail) in two transactions around the issue move, with the
// report lock that keeps two reports for one child from interleaving.
import { randomBytes } from "node:crypto";
import { invalidInput, notFound, refused } from "../../plan/errors";
import { loadPlan } from "../../repo";
import { type ErrorCategory } from "../failure";
import { type ExecutionStore, type PlanRow, type PlanTx } from "../store";
import { type FailOutcome, failInTx, finishIfDone, settleQueued } from "./settle";
import { REPORT_LOCK_STALE_MS, childName, event, iso } from "./shared";
import { tickInTx } from "./tick";
import { type FailResult, view } from "./views";

export async function requireChild(tx: PlanTx, childId: string): Promise<PlanRow> {
  const row = await tx.plan(childId);
  if (!row) throw notFound(`no execution plan '${childId}'`);
  if (row.parent_plan_id === null || row.issue_id === null) {
    throw invalidInput(`${childId} is a root plan; only its children report (claim one with claimNext)`);
  }
  return row;
}

/** Why a report about this child is refused, or undefined when it may be made. */
export function reportProblem(child: PlanRow, report: string, allowQueued = false): string | undefined {
  const who = childName(child);
  switch (child.processing_state) {
    case "processing":
      return undefined;
    case "queued":
      return allowQueued ? undefined : `${who} is queued; claim it (claimNext) before reporting ${report}`;
    case "cancelled":
      return `${who} was cancelled (${child.cancel_reason}); its ${report} is refused`;
    case "completed":
      return `${who} has already completed; its ${report} is refused`;
    case "errored":
      return `${who} has already errored (${child.error_category}: ${child.error_message}); its ${report} is refused`;
  }
}

/** Refuse a report, recording the refusal as an event of the child. */
export async function refuseReport(store: ExecutionStore, child: PlanRow, problem: string, at: string): Promise<never> {
  await store.write((tx) => event(tx, child, at, "report_refused", problem));
  throw refused(problem);
}

interface ReportLock {
  token: string;
}

async function takeReportLock(tx: PlanTx, child: PlanRow, now: number): Promise<ReportLock | string> {
  if (child.report_lock) {
    const [, since] = child.report_lock.split("@");
    if (now - Date.parse(since) < REPORT_LOCK_STALE_MS) {
      return `another report for ${childName(child)} is in progress (since ${since}); report again when it has finished`;
    }
  }
  const token = randomBytes(6).toString("hex");
  await tx.updatePlan(child.plan_id, { report_lock: `${token}@${iso(now)}` }, iso(now));
  return { token };
}

export async function releaseReportLock(store: ExecutionStore, childId: string, lock: ReportLock, at: string): Promise<void> {
  await store.write(async (tx) => {
    const c = await tx.plan(childId);
    if (c?.report_lock?.startsWith(`${lock.token}@`)) await tx.updatePlan(childId, { report_lock: null }, at);
  });
}

/**
 * Phase one of a report: tick, then, in one transaction, check the child may report and lock it.
 * Returns the child and the lock, or throws the refusal (recorded as an event).
 */
export async function beginReport(
  store: ExecutionStore,
  repo: string,
  childId: string,
  report: string,
  now: number,
  check: (child: PlanRow, tx: PlanTx) => Promise<string | undefined>,
): Promise<{ child: PlanRow; lock: ReportLock }> {
  const at = iso(now);
  const outcome = await store.write(async (tx): Promise<{ child: PlanRow; problem: string } | { child: PlanRow; lock: ReportLock }> => {
    await tickInTx(tx, repo, now);
    const child = await requireChild(tx, childId);
    const problem = reportProblem(child, report) ?? (await check(child, tx));
    if (problem) return { child, problem };
    const lock = await takeReportLock(tx, child, now);
    if (typeof lock === "string") return { child, problem: lock };
    return { child: (await tx.plan(childId))!, lock };
  });
  if ("problem" in outcome) return refuseReport(store, outcome.child, outcome.problem, at);
  return outcome;
}

/**
 * Phase two: re-read the child; if it is still processing and still ours, `fn` records the outcome.
 * If it was cancelled or timed out meanwhile, the outcome is recorded as an ignored report and refused.
 */
export async function endReport<T>(
  store: ExecutionStore,
  childId: string,
  lock: ReportLock,
  at: string,
  what: string,
  fn: (child: PlanRow, tx: PlanTx) => Promise<T>,
): Promise<T> {
  const outcome = await store.write(async (tx): Promise<{ problem: string } | { value: T }> => {
    const child = (await tx.plan(childId))!;
    if (child.processing_state !== "processing") {
      const problem = `${reportProblem(child, "report") ?? `${childName(child)} is ${child.processing_state}`}; ${what} happened meanwhile and is recorded, nothing else changes`;
      await event(tx, child, at, "report_refused", problem);
      return { problem };
    }
    if (!child.report_lock?.startsWith(`${lock.token}@`)) {
      const problem = `${childName(child)}: the report lock was taken over; ${what} happened and is recorded, nothing else changes`;
      await event(tx, child, at, "report_refused", problem);
      return { problem };
    }
    return { value: await fn(child, tx) };
  });
  if ("problem" in outcome) throw refused(outcome.problem);
  return outcome.value;
}

/** A failure's result, read inside the transaction that recorded it. */
export async function failResult(tx: PlanTx, childId: string, outcome: FailOutcome): Promise<FailResult> {
  return {
    child: await view(tx, (await tx.plan(childId))!),
    decision: outcome.decision,
    retry: outcome.retry ? await view(tx, (await tx.plan(outcome.retry.plan_id))!) : null,
    cancelled: outcome.cancelled,
  };
}

/**
 * Fail a child from inside a report (a refused start/verify/done, a merge conflict), unless it was
 * cancelled or ended meanwhile: then that failure is recorded as a refused report and nothing changes.
 */
export function failFromReport(store: ExecutionStore, repo: string, childId: string, lock: ReportLock, category: ErrorCategory, text: string, at: string): Promise<FailResult> {
  return endReport(store, childId, lock, at, `the failure (${category}: ${text})`, async (child, tx) => {
    const outcome = await failInTx(tx, repo, child, category, text, at);
    const root = (await tx.plan(child.root_plan_id))!;
    await settleQueued(tx, root, loadPlan(repo), at);
    await finishIfDone(tx, (await tx.plan(root.plan_id))!, at);
    return failResult(tx, childId, outcome);
  });
}

// ---- the coordinator's calls -------------------------------------------------------------------
