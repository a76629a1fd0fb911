import { randomBytes } from "node:crypto";
import { CapabilityError, invalidInput, notFound, refused } from "../errors";
import { loadPlan } from "../plan";
import { compareBytes } from "../plan/text";
import { scopesOverlap } from "../plan/scope";
import type { Plan, PlanIssue } from "../plan/shapes";
import { recordEvidence, transition, type EvidenceInput, type TransitionResult } from "../plan/transition";
import { toCliDict, type CliDict } from "./cli-dict";
import { parseSubplanConfig, type SubplanConfig } from "./config";
import { checkErrorCategory, decideFailure, type ErrorCategory, type FailureDecision } from "./failure";
import { headCommit, mergeInto, updateRef, ZERO_OID, type MergeOutcome } from "./git";
import {
  childIdentity,
  isTerminalState,
  movePhase,
  phaseMoveProblem,
  rootIdentity,
  type Phase,
  type PlanError,
  type ProcessingState,
} from "./model";
import { lastError, newPlanRow, withExistingStore, withStore, type EventRow, type ExecutionStore, type PlanRow, type PlanTx } from "./store";

// The coordinator: execution plans meet the roadmap (docs/execution-plans.md "How it meets the roadmap").
// Every decision is an event with its reason; every decision re-reads the stored state inside a
// write transaction of the store (SQLite's BEGIN IMMEDIATE, or the project's lock on PostgreSQL),
// so several processes, on one machine or many, can drive one plan at once. Issue moves go through
// lib/plan's transitions (their own lock, records and ledger), which are asynchronous: a report
// that moves an issue checks the child in one transaction, moves the issue, and records the
// outcome in a second transaction that re-reads the child (a `report_lock` keeps two reports for
// one child from interleaving).

export type ExecutionTarget = { milestone: string } | { issues: string[] };

export interface CoordinatorOptions {
  /** The clock, in ms since the epoch (tests move it to trigger timeouts). */
  now?: () => number;
}

export interface CreateOptions extends CoordinatorOptions {
  automation_profile?: string | null;
}

export interface AdvanceOptions extends CoordinatorOptions {
  /** The branch holding the child's result, merged into the root's integration branch on `apply`. */
  branch?: string;
}

export type EvidenceEntry = Omit<EvidenceInput, "record">;

export interface EventView {
  id: number;
  at: string;
  plan_id: string;
  kind: string;
  reason: string;
  data: Record<string, unknown>;
}

export interface PlanView extends CliDict {
  title: string;
  /** The true depth in the tree (0 for a root). */
  depth: number;
  issue: string | null;
  wave: number | null;
  branch: string | null;
  integration_branch: string | null;
  base_commit: string | null;
  last_error: PlanError | null;
  cancel_reason: string | null;
  /** The attempt this one retries. */
  retry_of: string | null;
  created_at: string;
  updated_at: string;
  processing_started_at: string | null;
  finished_at: string | null;
  /** The children, retries included, in creation order. */
  children: PlanView[];
}

export interface PlanDetail extends PlanView {
  /** The timeline: the whole tree's events for a root, the plan's own for a child. */
  events: EventView[];
}

export interface PlanSummary extends CliDict {
  title: string;
  integration_branch: string | null;
  created_at: string;
  children_by_state: Record<ProcessingState, number>;
}

export interface ClaimResult {
  /** The child now processing, or null. */
  claimed: PlanView | null;
  /** Why this child (which rules it passed), or why none. */
  reason: string;
}

export interface FailResult {
  child: PlanView;
  decision: FailureDecision;
  /** The new attempt, when the failure handler retries. */
  retry: PlanView | null;
  /** Siblings cancelled because the failure stopped the others. */
  cancelled: string[];
}

export interface AdvanceResult {
  child: PlanView;
  from: Phase;
  to: Phase;
  /** False when the move failed the child (refused start or verify, merge conflict). */
  moved: boolean;
  issue_transition?: TransitionResult;
  merge?: MergeOutcome;
  failure?: FailResult;
}

export interface CompleteResult {
  child: PlanView;
  completed: boolean;
  evidence: string[];
  issue_transition?: TransitionResult;
  failure?: FailResult;
}

// ---- small helpers -----------------------------------------------------------------------------

const clock = (o: CoordinatorOptions | undefined) => (o?.now ? o.now() : Date.now());
const iso = (ms: number) => new Date(ms).toISOString();
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A report lock older than this belongs to a process that died mid-report. */
const REPORT_LOCK_STALE_MS = 10 * 60_000;

export function integrationBranchName(rootId: string): string {
  return `cockpit/plan-${rootId.toLowerCase()}`;
}

async function event(tx: PlanTx, plan: PlanRow, at: string, kind: string, reason: string, data: Record<string, unknown> = {}): Promise<void> {
  await tx.addEvent({ plan_id: plan.plan_id, root_plan_id: plan.root_plan_id, at, kind, reason, data });
}

function childName(c: PlanRow): string {
  return `child ${c.plan_id} (issue ${c.issue_id}, attempt ${c.attempt})`;
}

/** Children in run order: wave, then issue id (byte order), then attempt. */
function runOrder(a: PlanRow, b: PlanRow): number {
  return (a.wave ?? 0) - (b.wave ?? 0) || compareBytes(a.issue_id ?? "", b.issue_id ?? "") || a.attempt - b.attempt || a.seq - b.seq;
}

/** The latest attempt of each issue's work. */
function latestAttempts(children: readonly PlanRow[]): PlanRow[] {
  const latest = new Map<string, PlanRow>();
  for (const c of children) {
    const key = c.issue_id ?? c.plan_id;
    const had = latest.get(key);
    if (!had || c.attempt > had.attempt || (c.attempt === had.attempt && c.seq > had.seq)) latest.set(key, c);
  }
  return [...latest.values()].sort(runOrder);
}

function rootConfig(root: PlanRow): SubplanConfig {
  return root.subplan_config ?? parseSubplanConfig({});
}

function issueOf(plan: Plan, id: string | null): PlanIssue | undefined {
  return id === null ? undefined : plan.issues.find((i) => i.id === id);
}

/** The effective dependencies of an issue (§3.2): declared, existing, not itself; each once. */
function effectiveDeps(plan: Plan, issue: PlanIssue): PlanIssue[] {
  const out: PlanIssue[] = [];
  for (const d of issue.depends_on) {
    if (d === issue.id || out.some((x) => x.id === d)) continue;
    const dep = plan.issues.find((i) => i.id === d);
    if (dep) out.push(dep);
  }
  return out;
}

/** Why a child's issue may not start yet (dependencies not DONE, the milestone gate), or undefined. */
function waitingOn(plan: Plan, issue: PlanIssue): string | undefined {
  const open = effectiveDeps(plan, issue).filter((d) => d.status !== "DONE");
  if (open.length > 0) return `${issue.id} waits on ${open.map((d) => `${d.id} (${d.status})`).join(", ")}`;
  const gate = issue.blocked_by.filter((b) => b.startsWith("milestone:"));
  if (gate.length > 0) return `${issue.id} waits on the gate of its milestone ${issue.milestone}`;
  return undefined;
}

/** The first pair of overlapping scope paths of two issues, or undefined. */
function sharedScope(a: PlanIssue, b: PlanIssue): [string, string] | undefined {
  for (const x of a.scope) for (const y of b.scope) if (scopesOverlap(x, y)) return [x, y];
  return undefined;
}

// ---- views -------------------------------------------------------------------------------------

async function view(tx: PlanTx, row: PlanRow, depth?: number): Promise<PlanView> {
  const d = depth ?? (await tx.depthOf(row.plan_id));
  const children: PlanView[] = [];
  for (const c of await tx.children(row.plan_id)) children.push(await view(tx, c, d + 1)); // one query at a time on a connection
  return {
    ...toCliDict(await tx.model(row.plan_id)),
    title: row.title,
    depth: d,
    issue: row.issue_id,
    wave: row.wave,
    branch: row.branch,
    integration_branch: row.integration_branch,
    base_commit: row.base_commit,
    last_error: lastError(row),
    cancel_reason: row.cancel_reason,
    retry_of: row.retry_of,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processing_started_at: row.processing_started_at,
    finished_at: row.finished_at,
    children,
  };
}

const eventView = (e: EventRow): EventView => ({ id: e.id, at: e.at, plan_id: e.plan_id, kind: e.kind, reason: e.reason, data: e.data });

// ---- the failure path, inside a transaction ----------------------------------------------------

interface FailOutcome {
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
async function failInTx(tx: PlanTx, repo: string, child: PlanRow, category: ErrorCategory, text: string, at: string): Promise<FailOutcome> {
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
async function settleQueued(tx: PlanTx, root: PlanRow, plan: Plan, at: string): Promise<void> {
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
  for (const dep of effectiveDeps(plan, issue)) {
    if (dep.status === "DONE") continue;
    if (dep.status === "CANCELLED") return `its issue ${issue.id} depends on ${dep.id}, which is CANCELLED and can never be DONE`;
    const gone = ended.get(dep.id);
    if (gone) return `its issue ${issue.id} depends on ${dep.id}, whose ${childName(gone)} ended ${gone.processing_state} with no retry left`;
  }
  return undefined;
}

/** Record finished waves, and end the root when every child's latest attempt has ended. */
async function finishIfDone(tx: PlanTx, root: PlanRow, at: string): Promise<void> {
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

/** Children processing longer than their root's timeout fail with `timeout`. */
async function tickInTx(tx: PlanTx, repo: string, now: number): Promise<string[]> {
  const at = iso(now);
  const failed: string[] = [];
  const roots = new Map<string, PlanRow>();
  for (const c of await tx.inState("processing")) {
    if (c.parent_plan_id === null || c.processing_started_at === null) continue;
    const root = roots.get(c.root_plan_id) ?? (await tx.plan(c.root_plan_id))!;
    roots.set(root.plan_id, root);
    const timeout = rootConfig(root).timeout;
    if (timeout === null) continue;
    const ranMs = now - Date.parse(c.processing_started_at);
    if (ranMs <= timeout * 1000) continue;
    const current = (await tx.plan(c.plan_id))!;
    if (current.processing_state !== "processing") continue;
    await failInTx(tx, repo, current, "timeout", `processing for ${Math.round(ranMs / 1000)} s, longer than the timeout of ${timeout} s`, at);
    failed.push(c.plan_id);
  }
  const failedRoots = new Set<string>();
  for (const id of failed) failedRoots.add((await tx.plan(id))!.root_plan_id);
  for (const rootId of failedRoots) {
    const root = (await tx.plan(rootId))!;
    await settleQueued(tx, root, loadPlan(repo), at);
    await finishIfDone(tx, (await tx.plan(rootId))!, at);
  }
  return failed;
}

// ---- checks on reports -------------------------------------------------------------------------

async function requireChild(tx: PlanTx, childId: string): Promise<PlanRow> {
  const row = await tx.plan(childId);
  if (!row) throw notFound(`no execution plan '${childId}'`);
  if (row.parent_plan_id === null || row.issue_id === null) {
    throw invalidInput(`${childId} is a root plan; only its children report (claim one with claimNext)`);
  }
  return row;
}

/** Why a report about this child is refused, or undefined when it may be made. */
function reportProblem(child: PlanRow, report: string, allowQueued = false): string | undefined {
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
async function refuseReport(store: ExecutionStore, child: PlanRow, problem: string, at: string): Promise<never> {
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

async function releaseReportLock(store: ExecutionStore, childId: string, lock: ReportLock, at: string): Promise<void> {
  await store.write(async (tx) => {
    const c = await tx.plan(childId);
    if (c?.report_lock?.startsWith(`${lock.token}@`)) await tx.updatePlan(childId, { report_lock: null }, at);
  });
}

/**
 * Phase one of a report: tick, then, in one transaction, check the child may report and lock it.
 * Returns the child and the lock, or throws the refusal (recorded as an event).
 */
async function beginReport(
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
async function endReport<T>(
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
async function failResult(tx: PlanTx, childId: string, outcome: FailOutcome): Promise<FailResult> {
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
function failFromReport(store: ExecutionStore, repo: string, childId: string, lock: ReportLock, category: ErrorCategory, text: string, at: string): Promise<FailResult> {
  return endReport(store, childId, lock, at, `the failure (${category}: ${text})`, async (child, tx) => {
    const outcome = await failInTx(tx, repo, child, category, text, at);
    const root = (await tx.plan(child.root_plan_id))!;
    await settleQueued(tx, root, loadPlan(repo), at);
    await finishIfDone(tx, (await tx.plan(root.plan_id))!, at);
    return failResult(tx, childId, outcome);
  });
}

// ---- the coordinator's calls -------------------------------------------------------------------

/**
 * Decompose a milestone (or a list of issues) into a root plan with one child per issue that is not
 * DONE or CANCELLED, each remembering its issue and wave. The root is in `execute`, processing;
 * the children queued in `strategize`, attempt 1. When the repository has a commit, the root gets
 * the integration branch `cockpit/plan-<root id lowercase>` at HEAD.
 */
export async function createExecutionPlan(repo: string, target: ExecutionTarget, config?: unknown, o: CreateOptions = {}): Promise<PlanDetail> {
  const subplanConfig = parseSubplanConfig(config ?? {});
  const plan = loadPlan(repo);
  let title: string;
  let wanted: PlanIssue[];
  let storedTarget: ExecutionTarget;
  const isObject = typeof target === "object" && target !== null;
  if (isObject && "milestone" in target && typeof target.milestone === "string") {
    if (!plan.milestones.some((m) => m.id === target.milestone)) throw notFound(`no milestone '${target.milestone}'`);
    wanted = plan.issues.filter((i) => i.milestone === target.milestone);
    title = `deliver milestone ${target.milestone}`;
    storedTarget = { milestone: target.milestone };
  } else if (isObject && "issues" in target && Array.isArray(target.issues)) {
    if (target.issues.length === 0) throw invalidInput("issues names no issue to execute");
    const ids = [...new Set(target.issues)];
    wanted = ids.map((id) => {
      const issue = plan.issues.find((i) => i.id === id);
      if (!issue) throw notFound(`no issue '${id}'; cockpit plan issues lists every one`);
      return issue;
    });
    title = `do ${ids.join(", ")}`;
    storedTarget = { issues: ids };
  } else {
    throw invalidInput("an execution plan is made for { milestone } or { issues: [...] }");
  }
  const todo = wanted.filter((i) => i.status !== "DONE" && i.status !== "CANCELLED").sort((a, b) => a.wave - b.wave || compareBytes(a.id, b.id));
  if (todo.length === 0) {
    throw refused(`nothing to execute: every issue of ${"milestone" in storedTarget ? `milestone ${storedTarget.milestone}` : "the list"} is DONE or CANCELLED`);
  }
  const placed = new Set(plan.waves.flatMap((w) => w.issues));
  const cyclic = todo.filter((i) => !placed.has(i.id)).map((i) => i.id);
  if (cyclic.length > 0) throw invalidInput(`${cyclic.join(" ")} ${cyclic.length === 1 ? "is" : "are"} in a dependency cycle; no execution order exists`);
  const skipped = wanted.filter((i) => !todo.includes(i));

  const now = clock(o);
  const at = iso(now);
  const identity = rootIdentity();
  const head = await headCommit(repo);
  let integration: string | null = null;
  if (head) {
    integration = integrationBranchName(identity.plan_id);
    if (!(await updateRef(repo, `refs/heads/${integration}`, head, ZERO_OID, `cockpit: integration branch of execution plan ${identity.plan_id}`))) {
      throw refused(`cannot create the integration branch ${integration} at ${head}`);
    }
  }
  return withStore(repo, (store) =>
    store.write(async (tx) => {
      await tickInTx(tx, repo, now);
      const root = await tx.insertPlan(
        newPlanRow({
          ...identity,
          root_plan_id: identity.plan_id,
          automation_profile: o.automation_profile ?? null,
          title,
          target: storedTarget,
          integration_branch: integration,
          base_commit: head ?? null,
          created_at: at,
        }),
      );
      await event(tx, root, at, "created", `execution plan created to ${title}; it starts in strategize`, { target: storedTarget });
      if (integration) {
        await event(tx, root, at, "integration_branch", `children's branches merge into ${integration}, created at HEAD ${head}`, { branch: integration, base: head });
      } else {
        await event(tx, root, at, "integration_branch", "the repository has no commit yet, so there is no integration branch; children apply without merging");
      }
      for (const issue of todo) {
        const c = await tx.insertPlan(
          newPlanRow({
            ...childIdentity(identity),
            root_plan_id: identity.plan_id,
            automation_profile: o.automation_profile ?? null,
            title: issue.title,
            issue_id: issue.id,
            wave: issue.wave,
            created_at: at,
          }),
        );
        await event(tx, c, at, "child_created", `child for issue ${issue.id} (wave ${issue.wave}, ${issue.status})`, { issue: issue.id, wave: issue.wave });
      }
      const moved = movePhase(root, "execute");
      await tx.updatePlan(root.plan_id, { phase: moved.phase, processing_state: "processing", subplan_config: subplanConfig, processing_started_at: at }, at);
      const waves = [...new Set(todo.map((i) => i.wave))];
      event(
        tx,
        root,
        at,
        "decomposed",
        `strategize → execute: ${todo.length} children in ${waves.length} wave(s) (${subplanConfig.execution_mode}, max_parallel ${subplanConfig.max_parallel})` +
          (skipped.length ? `; skipped ${skipped.map((i) => `${i.id} (${i.status})`).join(", ")}` : ""),
        { children: todo.map((i) => i.id), skipped: skipped.map((i) => i.id), config: subplanConfig },
      );
      return await detail(tx, root.plan_id);
    }),
  );
}

/**
 * Move the next claimable child to processing, or say why none is. A child is claimable when every
 * effective dependency of its issue is DONE in the plan derived now (and its milestone's gate is
 * open), the concurrency limit allows it (sequential: none processing, and only the first queued
 * child in wave-then-issue order; parallel: fewer than max_parallel processing), and no processing
 * sibling's issue shares scope with its issue.
 */
export async function claimNext(repo: string, rootId: string, o: CoordinatorOptions = {}): Promise<ClaimResult> {
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, (store) =>
    store.write(async (tx) => {
      await tickInTx(tx, repo, now);
      const root = await tx.plan(rootId);
      if (!root) throw notFound(`no execution plan '${rootId}'`);
      if (root.parent_plan_id !== null) throw invalidInput(`${rootId} is a child plan; claim from its root ${root.root_plan_id}`);
      const plan = loadPlan(repo);
      await settleQueued(tx, root, plan, at);
      await finishIfDone(tx, (await tx.plan(rootId))!, at);
      const current = (await tx.plan(rootId))!;
      if (isTerminalState(current.processing_state)) {
        return { claimed: null, reason: `execution plan ${rootId} has ended ${current.processing_state}` };
      }
      const config = rootConfig(current);
      const children = await tx.children(rootId);
      const processing = children.filter((c) => c.processing_state === "processing");
      const queued = children.filter((c) => c.processing_state === "queued").sort(runOrder);
      const none = async (reason: string): Promise<ClaimResult> => {
        const last = await tx.lastEvent(rootId);
        if (!(last?.kind === "claim_waiting" && last.reason === reason)) await event(tx, current, at, "claim_waiting", reason);
        return { claimed: null, reason };
      };
      if (queued.length === 0) return none(`no child is queued (${processing.length} processing)`);

      let candidates: PlanRow[];
      if (config.execution_mode === "sequential") {
        if (processing.length > 0) {
          return none(`sequential: ${childName(processing[0])} is processing, and one child runs at a time`);
        }
        candidates = [queued[0]];
      } else {
        if (processing.length >= config.max_parallel) {
          return none(`parallel: ${processing.length} children are processing, the max_parallel of ${config.max_parallel}`);
        }
        candidates = queued;
      }
      const busy = processing.map((p) => ({ row: p, issue: issueOf(plan, p.issue_id) }));
      const reasons: string[] = [];
      for (const c of candidates) {
        const issue = issueOf(plan, c.issue_id);
        if (!issue) {
          reasons.push(`${c.issue_id} is not in the plan`);
          continue;
        }
        const waiting = waitingOn(plan, issue);
        if (waiting) {
          reasons.push(waiting);
          continue;
        }
        const clash = busy.map((b) => ({ b, paths: b.issue ? sharedScope(issue, b.issue) : undefined })).find((x) => x.paths);
        if (clash) {
          reasons.push(`${issue.id} shares ${clash.paths![0]} with ${clash.b.row.issue_id}, which is processing`);
          continue;
        }
        await tx.updatePlan(c.plan_id, { processing_state: "processing", processing_started_at: at }, at);
        const deps = effectiveDeps(plan, issue).map((d) => d.id);
        const reason =
          `claimed ${childName(c)} in wave ${c.wave}: ` +
          (deps.length ? `its dependencies ${deps.join(", ")} are DONE` : "its issue has no dependencies") +
          `; ${processing.length + 1} processing` +
          (config.execution_mode === "parallel" ? ` of max_parallel ${config.max_parallel}` : " (sequential, next in wave-then-issue order)") +
          (processing.length ? "; no processing sibling shares its scope" : "") +
          (reasons.length ? `; passed over: ${reasons.join("; ")}` : "");
        await event(tx, (await tx.plan(c.plan_id))!, at, "claimed", reason, { issue: issue.id, wave: c.wave, dependencies: deps, passed_over: reasons });
        return { claimed: await view(tx, (await tx.plan(c.plan_id))!), reason };
      }
      const prefix = config.execution_mode === "sequential" ? "sequential: the next child cannot start" : "no queued child can start";
      return none(`${prefix}: ${reasons.join("; ")}`);
    }),
  );
}

/**
 * One phase move of a processing child. Entering `execute` starts its issue (a refused start fails
 * the child with `validation`). Entering `apply` merges the child's branch, when it names one, into
 * the root's integration branch (a conflict fails the child with `conflict`), then verifies its issue.
 */
export async function advance(repo: string, childId: string, to: Phase, o: AdvanceOptions = {}): Promise<AdvanceResult> {
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, async (store) => {
    const { child, lock } = await beginReport(store, repo, childId, `move to ${to}`, now, async (c, tx) => {
      const problem = phaseMoveProblem(c.phase, to);
      if (problem) return `${childName(c)}: ${problem}`;
      if (to === "apply" && o.branch !== undefined) {
        const root = (await tx.plan(c.root_plan_id))!;
        if (!root.integration_branch) {
          return `${childName(c)} names branch ${o.branch}, but execution plan ${root.plan_id} has no integration branch (the repository had no commit when it was made)`;
        }
      }
      return undefined;
    });
    const from = child.phase;
    const issueId = child.issue_id!;
    try {
      if (to === "execute") {
        const earlier = await store.read(async (tx) => (await tx.children(child.parent_plan_id!)).some((s) => s.issue_id === issueId && s.attempt < child.attempt));
        const issue = earlier ? issueOf(loadPlan(repo), issueId) : undefined;
        let started: TransitionResult | undefined;
        let note: string;
        if (issue && (issue.status === "ACTIVE" || issue.status === "VERIFY")) {
          note = `issue ${issueId} is already ${issue.status} from an earlier attempt; it is not started again`;
        } else {
          try {
            started = await transition(repo, issueId, "start");
          } catch (error) {
            if (!(error instanceof CapabilityError)) throw error;
            const failure = await failFromReport(store, repo, childId, lock, "validation", `the start of issue ${issueId} was refused: ${error.message}`, at);
            return { child: failure.child, from, to, moved: false, failure };
          }
          note = `issue ${issueId} started (${started.from} → ${started.to})`;
        }
        return await endReport(store, childId, lock, at, note, async (c, tx) => {
          await tx.updatePlan(c.plan_id, { phase: movePhase(c, "execute").phase, report_lock: null }, at);
          await event(tx, c, at, "phase_moved", `${childName(c)} ${from} → execute: ${note}`, { from, to, issue_transition: started ?? null });
          return { child: await view(tx, (await tx.plan(childId))!), from, to, moved: true, ...(started ? { issue_transition: started } : {}) };
        });
      }

      if (to === "apply") {
        let merge: MergeOutcome | undefined;
        let mergeNote = "it names no branch, so it applies as is";
        if (o.branch !== undefined) {
          const root = await store.read(async (tx) => (await tx.plan(child.root_plan_id))!);
          const integration = root.integration_branch!;
          merge = await mergeInto(repo, integration, o.branch, `cockpit: merge ${o.branch} into ${integration} (issue ${issueId}, child ${childId})`);
          if (merge.kind === "error") {
            const problem = `${childName(child)}: cannot merge ${o.branch}: ${merge.detail}`;
            await releaseReportLock(store, childId, lock, at);
            await refuseReport(store, child, problem, at);
          }
          if (merge.kind === "conflict") {
            const text = `merging ${o.branch} into ${integration} conflicts in ${merge.files.join(", ") || "the tree"}${merge.detail ? ` (${merge.detail})` : ""}`;
            const failure = await failFromReport(store, repo, childId, lock, "conflict", text, at);
            return { child: failure.child, from, to, moved: false, merge, failure };
          }
          mergeNote =
            merge.kind === "merged"
              ? `${o.branch} merged into ${integration} as ${merge.commit} (git three-way merge)`
              : `${o.branch} is already contained in ${integration}`;
        }
        let verified: TransitionResult;
        try {
          verified = await transition(repo, issueId, "verify");
        } catch (error) {
          if (!(error instanceof CapabilityError)) throw error;
          const failure = await failFromReport(store, repo, childId, lock, "validation", `the verify of issue ${issueId} was refused: ${error.message}`, at);
          return { child: failure.child, from, to, moved: false, ...(merge ? { merge } : {}), failure };
        }
        const note = `${mergeNote}; issue ${issueId} verified (${verified.from} → ${verified.to})`;
        return await endReport(store, childId, lock, at, note, async (c, tx) => {
          await tx.updatePlan(c.plan_id, { phase: movePhase(c, "apply").phase, branch: o.branch ?? null, report_lock: null }, at);
          if (merge) await event(tx, c, at, "merged", mergeNote, { branch: o.branch, merge });
          await event(tx, c, at, "phase_moved", `${childName(c)} execute → apply: ${note}`, { from, to, issue_transition: verified });
          return { child: await view(tx, (await tx.plan(childId))!), from, to, moved: true, issue_transition: verified, ...(merge ? { merge } : {}) };
        });
      }

      // strategize (from action): no issue move.
      return await endReport(store, childId, lock, at, `the move to ${to}`, async (c, tx) => {
        await tx.updatePlan(c.plan_id, { phase: movePhase(c, to).phase, report_lock: null }, at);
        await event(tx, c, at, "phase_moved", `${childName(c)} ${from} → ${to}`, { from, to });
        return { child: await view(tx, (await tx.plan(childId))!), from, to, moved: true };
      });
    } finally {
      await releaseReportLock(store, childId, lock, at);
    }
  });
}

/**
 * Complete a child in `apply`: record each evidence entry on its issue, then move the issue to DONE;
 * the child completes. A refused done fails the child with `validation`. Evidence that is refused
 * (a token the issue does not require, a malformed entry) refuses the call and leaves the child as it was.
 */
export async function complete(repo: string, childId: string, evidence: readonly EvidenceEntry[], o: CoordinatorOptions = {}): Promise<CompleteResult> {
  if (!Array.isArray(evidence)) throw invalidInput("evidence is a list of { covers, type, command | artifact, result? }");
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, async (store) => {
    const { child, lock } = await beginReport(store, repo, childId, "completion", now, async (c) =>
      c.phase === "apply" ? undefined : `${childName(c)} is in ${c.phase}; it completes from apply (advance it first)`,
    );
    const issueId = child.issue_id!;
    try {
      const covered: string[] = [];
      for (const e of evidence) {
        try {
          await recordEvidence(repo, { ...e, record: issueId });
        } catch (error) {
          if (!(error instanceof CapabilityError)) throw error;
          const problem = `${childName(child)}: evidence ${JSON.stringify(e?.covers)} was refused (${error.message}); the child stays in apply${covered.length ? ` (recorded before it: ${covered.join(", ")})` : ""}`;
          await store.write((tx) => event(tx, child, at, "report_refused", problem, { code: error.code }));
          throw error;
        }
        covered.push(e.covers);
      }
      let done: TransitionResult | undefined;
      let note: string;
      try {
        done = await transition(repo, issueId, "done");
        note = `issue ${issueId} is DONE (${done.from} → ${done.to})`;
      } catch (error) {
        if (!(error instanceof CapabilityError)) throw error;
        // Already DONE (an earlier attempt, or someone outside the plan, finished it): nothing to move.
        if (issueOf(loadPlan(repo), issueId)?.status === "DONE") {
          note = `issue ${issueId} is already DONE`;
        } else {
          const failure = await failFromReport(store, repo, childId, lock, "validation", `the done of issue ${issueId} was refused: ${error.message}`, at);
          return { child: failure.child, completed: false, evidence: covered, failure };
        }
      }
      return await endReport(store, childId, lock, at, note, async (c, tx) => {
        await tx.updatePlan(c.plan_id, { processing_state: "completed", finished_at: at, report_lock: null }, at);
        await event(
          tx,
          c,
          at,
          "completed",
          `${childName(c)} completed: ${covered.length ? `evidence recorded for ${covered.join(", ")}; ` : ""}${note}`,
          { evidence: covered, issue_transition: done ?? null },
        );
        const root = (await tx.plan(c.root_plan_id))!;
        await settleQueued(tx, root, loadPlan(repo), at);
        await finishIfDone(tx, (await tx.plan(root.plan_id))!, at);
        return { child: await view(tx, (await tx.plan(childId))!), completed: true, evidence: covered, ...(done ? { issue_transition: done } : {}) };
      });
    } finally {
      await releaseReportLock(store, childId, lock, at);
    }
  });
}

/**
 * A child reports failure (it may be queued or processing). The failure handler decides: retry ⇒
 * the child is errored and a new child (same parent, same issue, attempt + 1) is queued; stop
 * others ⇒ the queued siblings are cancelled and the processing ones marked cancelled.
 */
export async function fail(repo: string, childId: string, category: string, text: string, o: CoordinatorOptions = {}): Promise<FailResult> {
  const cat = checkErrorCategory(category);
  if (typeof text !== "string" || text.trim() === "") throw invalidInput("a failure says what went wrong (message)");
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, async (store) => {
    const outcome = await store.write(async (tx): Promise<{ child: PlanRow; problem: string } | { result: FailResult }> => {
      await tickInTx(tx, repo, now);
      const child = await requireChild(tx, childId);
      const problem = reportProblem(child, `failure (${cat})`, true);
      if (problem) return { child, problem };
      const failed = await failInTx(tx, repo, child, cat, text, at);
      const root = (await tx.plan(child.root_plan_id))!;
      await settleQueued(tx, root, loadPlan(repo), at);
      await finishIfDone(tx, (await tx.plan(root.plan_id))!, at);
      return { result: await failResult(tx, childId, failed) };
    });
    if ("problem" in outcome) return refuseReport(store, outcome.child, outcome.problem, at);
    return outcome.result;
  });
}

/** Fail (with `timeout`) every child processing longer than its root's timeout; returns their ids. */
export async function tick(repo: string, o: CoordinatorOptions = {}): Promise<string[]> {
  const now = clock(o);
  return withStore(repo, (store) => store.write((tx) => tickInTx(tx, repo, now)));
}

async function detail(tx: PlanTx, planId: string): Promise<PlanDetail> {
  const row = (await tx.plan(planId))!;
  const events = row.parent_plan_id === null ? await tx.events({ root: planId }) : await tx.events({ plan: planId });
  return { ...(await view(tx, row)), events: events.map(eventView) };
}

// Reads answer as if every call ticked first (children past their timeout show as timed out), but
// write nothing: the tick runs in a transaction that is rolled back, and the next command keeps it.

/** A plan as the CLI dict, with its tree of children (retries included) and its timeline. */
export async function getPlan(repo: string, id: string, o: CoordinatorOptions = {}): Promise<PlanDetail> {
  const now = clock(o);
  const missing = () => notFound(`no execution plan '${id}'`);
  return withExistingStore(
    repo,
    (store) =>
      store.preview(async (tx) => {
        await tickInTx(tx, repo, now);
        if (!(await tx.plan(id))) throw missing();
        return detail(tx, id);
      }),
    () => {
      throw missing();
    },
  );
}

/** Every root plan, newest first, with how many children are in each state. */
export async function listPlans(repo: string, o: CoordinatorOptions = {}): Promise<PlanSummary[]> {
  const now = clock(o);
  // No store yet: no plan was ever created here, and a read does not create one.
  return withExistingStore(
    repo,
    (store) =>
      store.preview(async (tx) => {
        await tickInTx(tx, repo, now);
        const summaries: PlanSummary[] = [];
        for (const r of await tx.roots()) {
          const counts: Record<ProcessingState, number> = { queued: 0, processing: 0, completed: 0, errored: 0, cancelled: 0 };
          for (const c of await tx.descendants(r.plan_id)) counts[c.processing_state]++;
          summaries.push({
            ...toCliDict(await tx.model(r.plan_id)),
            title: r.title,
            integration_branch: r.integration_branch,
            created_at: r.created_at,
            children_by_state: counts,
          });
        }
        return summaries;
      }),
    () => [],
  );
}
