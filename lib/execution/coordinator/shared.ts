// What the operations share: the clock, events, the children's order and names, and what an issue
// still waits on.
import { compareBytes } from "../../plan/text";
import { scopesOverlap } from "../../plan/scope";
import type { Plan, PlanIssue } from "../../plan/shapes";
import { parseSubplanConfig, type SubplanConfig } from "../config";
import type { EventKind } from "../model";
import { type PlanRow, type PlanTx } from "../store";
import type { CoordinatorOptions } from "./views";

export const clock = (o: CoordinatorOptions | undefined) => (o?.now ? o.now() : Date.now());

export const iso = (ms: number) => new Date(ms).toISOString();

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A report lock older than this belongs to a process that died mid-report. */
export const REPORT_LOCK_STALE_MS = 10 * 60_000;

export function integrationBranchName(rootId: string): string {
  return `cockpit/plan-${rootId.toLowerCase()}`;
}

export async function event(tx: PlanTx, plan: PlanRow, at: string, kind: EventKind, reason: string, data: Record<string, unknown> = {}): Promise<void> {
  await tx.addEvent({ plan_id: plan.plan_id, root_plan_id: plan.root_plan_id, at, kind, reason, data });
}

export function childName(c: PlanRow): string {
  return `child ${c.plan_id} (issue ${c.issue_id}, attempt ${c.attempt})`;
}

/** Children in run order: wave, then issue id (byte order), then attempt. */
export function runOrder(a: PlanRow, b: PlanRow): number {
  return (a.wave ?? 0) - (b.wave ?? 0) || compareBytes(a.issue_id ?? "", b.issue_id ?? "") || a.attempt - b.attempt || a.seq - b.seq;
}

/** The latest attempt of each issue's work. */
export function latestAttempts(children: readonly PlanRow[]): PlanRow[] {
  const latest = new Map<string, PlanRow>();
  for (const c of children) {
    const key = c.issue_id ?? c.plan_id;
    const had = latest.get(key);
    if (!had || c.attempt > had.attempt || (c.attempt === had.attempt && c.seq > had.seq)) latest.set(key, c);
  }
  return [...latest.values()].sort(runOrder);
}

export function rootConfig(root: PlanRow): SubplanConfig {
  return root.subplan_config ?? parseSubplanConfig({});
}

export function issueOf(plan: Plan, id: string | null): PlanIssue | undefined {
  return id === null ? undefined : plan.issues.find((i) => i.id === id);
}

/** The effective dependencies of an issue (§3.2): declared, existing, not itself; each once. */
export function effectiveDeps(plan: Plan, issue: PlanIssue): PlanIssue[] {
  const out: PlanIssue[] = [];
  for (const d of issue.depends_on) {
    if (d === issue.id || out.some((x) => x.id === d)) continue;
    const dep = plan.issues.find((i) => i.id === d);
    if (dep) out.push(dep);
  }
  return out;
}

/**
 * The dependencies an issue still waits on, each once in declaration order: the derived
 * `blocked_by` (§2.4) without the gate's `milestone:` entries.
 */
export function unfinishedDeps(plan: Plan, issue: PlanIssue): PlanIssue[] {
  const ids = [...new Set(issue.blocked_by.filter((b) => !b.startsWith("milestone:")))];
  return ids.map((id) => plan.issues.find((i) => i.id === id)).filter((d): d is PlanIssue => d !== undefined);
}

/** Why a child's issue may not start yet (dependencies not DONE, the milestone gate), or undefined. */
export function waitingOn(plan: Plan, issue: PlanIssue): string | undefined {
  const open = unfinishedDeps(plan, issue);
  if (open.length > 0) return `${issue.id} waits on ${open.map((d) => `${d.id} (${d.status})`).join(", ")}`;
  const gate = issue.blocked_by.filter((b) => b.startsWith("milestone:"));
  if (gate.length > 0) return `${issue.id} waits on the gate of its milestone ${issue.milestone}`;
  return undefined;
}

/** The first pair of overlapping scope paths of two issues, or undefined. */
export function sharedScope(a: PlanIssue, b: PlanIssue): [string, string] | undefined {
  for (const x of a.scope) for (const y of b.scope) if (scopesOverlap(x, y)) return [x, y];
  return undefined;
}

// ---- views -------------------------------------------------------------------------------------
