import { isValid, ulid } from "ulid";
import { refused } from "../plan/errors";
import { parseSubplanConfig, type SubplanConfig } from "./config";
import { PlanValidationError } from "./errors";

// The execution-plan model (docs/execution-plans.md): identity and hierarchy, phase, processing state,
// the parent's view of its children, and the one-step-forward phase lifecycle. Pure: no I/O.

export const PHASES = ["action", "strategize", "execute", "apply"] as const;
export type Phase = (typeof PHASES)[number];

export const PROCESSING_STATES = ["queued", "processing", "completed", "errored", "cancelled"] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

export const TERMINAL_STATES: readonly ProcessingState[] = ["completed", "errored", "cancelled"];

/** What an event of a plan's log records: the coordinator writes these and no other. */
export const EVENT_KINDS = [
  "created",
  "integration_branch",
  "decomposed",
  "child_created",
  "claim_waiting",
  "claimed",
  "phase_moved",
  "merged",
  "report_refused",
  "completed",
  "cancelled",
  "child_failed",
  "retry_queued",
  "wave_finished",
  "plan_completed",
  "plan_errored",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface PlanIdentity {
  plan_id: string;
  /** The plan this one was decomposed from; null for a root. */
  parent_plan_id: string | null;
  /** The root of the tree; null (absent) or equal to plan_id for a root. */
  root_plan_id: string | null;
}

export interface PlanError {
  category: string;
  message: string;
}

/** The parent's view of one child. */
export interface SubplanStatus {
  plan_id: string;
  phase: Phase;
  processing_state: ProcessingState;
  attempt: number;
  last_error: PlanError | null;
}

export interface ExecutionPlan extends PlanIdentity {
  phase: Phase;
  processing_state: ProcessingState;
  automation_profile: string | null;
  attempt: number;
  subplan_config: SubplanConfig | null;
  subplan_statuses: SubplanStatus[];
}

// ---- identity ---------------------------------------------------------------------------------

/** A new plan id. */
export function newPlanId(): string {
  return ulid();
}

/** A ULID as the ulid package accepts it, and within the 48-bit time range (first character 0..7). */
export function isUlid(value: unknown): value is string {
  return typeof value === "string" && isValid(value) && value[0] <= "7";
}

function shown(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : value === undefined ? "nothing" : JSON.stringify(value);
}

function checkUlid(field: keyof PlanIdentity, value: unknown): void {
  if (!isUlid(value)) throw new PlanValidationError(field, `${field} is not a ULID: ${shown(value)}`);
}

/**
 * Check an identity; throws a PlanValidationError naming the field. A root has no parent and a
 * root_plan_id that is absent or its own id; a child names its parent and the root it inherited.
 */
export function validateIdentity(identity: { plan_id?: unknown; parent_plan_id?: unknown; root_plan_id?: unknown }): PlanIdentity {
  checkUlid("plan_id", identity.plan_id);
  const plan_id = identity.plan_id as string;
  const parent = identity.parent_plan_id ?? null;
  const root = identity.root_plan_id ?? null;
  if (parent !== null) checkUlid("parent_plan_id", parent);
  if (root !== null) checkUlid("root_plan_id", root);
  if (parent === null) {
    if (root !== null && root !== plan_id) {
      throw new PlanValidationError(
        "root_plan_id",
        `root_plan_id of a root plan must be absent or equal to its plan_id (got '${root}' for '${plan_id}')`,
      );
    }
  } else {
    if (parent === plan_id) throw new PlanValidationError("parent_plan_id", `parent_plan_id cannot be the plan itself ('${plan_id}')`);
    if (root === null) {
      throw new PlanValidationError("root_plan_id", `root_plan_id is required for a child plan (it inherits its parent's root)`);
    }
    if (root === plan_id) {
      throw new PlanValidationError("root_plan_id", `root_plan_id of a child plan cannot be the child itself ('${plan_id}')`);
    }
  }
  return { plan_id, parent_plan_id: parent as string | null, root_plan_id: root as string | null };
}

/** A fresh root identity: no parent, root = self. */
export function rootIdentity(plan_id: string = newPlanId()): PlanIdentity {
  return validateIdentity({ plan_id, parent_plan_id: null, root_plan_id: plan_id });
}

/** A fresh child of `parent`: it inherits the parent's root (the parent itself when it is the root). */
export function childIdentity(parent: PlanIdentity, plan_id: string = newPlanId()): PlanIdentity {
  return validateIdentity({ plan_id, parent_plan_id: parent.plan_id, root_plan_id: rootOf(parent) });
}

/** The root plan id a plan names: its root_plan_id, or itself when it is a root with none. */
export function rootOf(plan: PlanIdentity): string {
  return plan.root_plan_id ?? plan.plan_id;
}

// ---- the plan ----------------------------------------------------------------------------------

export interface PlanInput {
  plan_id?: string;
  parent_plan_id?: string | null;
  root_plan_id?: string | null;
  phase?: Phase;
  processing_state?: ProcessingState;
  automation_profile?: string | null;
  attempt?: number;
  subplan_config?: unknown;
  subplan_statuses?: SubplanStatus[];
}

/**
 * A plan with the model's defaults: a new ULID, phase `strategize`, `queued`, no automation
 * profile, attempt 1, no subplan config, no subplan statuses. Every given field is validated.
 */
export function createPlan(input: PlanInput = {}): ExecutionPlan {
  const identity = validateIdentity({
    plan_id: input.plan_id ?? newPlanId(),
    parent_plan_id: input.parent_plan_id ?? null,
    root_plan_id: input.root_plan_id ?? null,
  });
  const phase = input.phase ?? "strategize";
  if (!(PHASES as readonly string[]).includes(phase)) {
    throw new PlanValidationError("phase", `phase must be one of ${PHASES.join(", ")} (got ${shown(phase)})`);
  }
  const state = input.processing_state ?? "queued";
  if (!(PROCESSING_STATES as readonly string[]).includes(state)) {
    throw new PlanValidationError("processing_state", `processing_state must be one of ${PROCESSING_STATES.join(", ")} (got ${shown(state)})`);
  }
  const attempt = input.attempt ?? 1;
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new PlanValidationError("attempt", `attempt must be an integer of at least 1 (got ${shown(attempt)})`);
  }
  const profile = input.automation_profile ?? null;
  if (profile !== null && (typeof profile !== "string" || profile.trim() === "")) {
    throw new PlanValidationError("automation_profile", `automation_profile must be a name or none (got ${shown(profile)})`);
  }
  const config = input.subplan_config === undefined || input.subplan_config === null ? null : parseSubplanConfig(input.subplan_config);
  return {
    ...identity,
    phase,
    processing_state: state,
    automation_profile: profile,
    attempt,
    subplan_config: config,
    subplan_statuses: [...(input.subplan_statuses ?? [])],
  };
}

/** A subplan has a parent. */
export function isSubplan(plan: PlanIdentity): boolean {
  return plan.parent_plan_id !== null;
}

/** A root has no parent, and names no root other than itself. */
export function isRoot(plan: PlanIdentity): boolean {
  return plan.parent_plan_id === null && (plan.root_plan_id === null || plan.root_plan_id === plan.plan_id);
}

/** 0 for a root; -1 for a child (a plan alone cannot know how deep it is; the store can). */
export function depth(plan: PlanIdentity): number {
  return isRoot(plan) ? 0 : -1;
}

export function hasSubplans(plan: Pick<ExecutionPlan, "subplan_statuses">): boolean {
  return plan.subplan_statuses.length > 0;
}

export function isTerminalState(state: ProcessingState): boolean {
  return TERMINAL_STATES.includes(state);
}

/** completed, errored or cancelled. */
export function isTerminal(plan: Pick<ExecutionPlan, "processing_state">): boolean {
  return isTerminalState(plan.processing_state);
}

export function isErrored(plan: Pick<ExecutionPlan, "processing_state">): boolean {
  return plan.processing_state === "errored";
}

// ---- phase moves -------------------------------------------------------------------------------

/** The one legal move from a phase, or undefined from `apply` (the last phase). */
export function nextPhase(from: Phase): Phase | undefined {
  const i = PHASES.indexOf(from);
  return i >= 0 && i < PHASES.length - 1 ? PHASES[i + 1] : undefined;
}

/** Why `from → to` is not a legal move, or undefined when it is (one step forward only). */
export function phaseMoveProblem(from: string, to: string): string | undefined {
  const known = (p: string): p is Phase => (PHASES as readonly string[]).includes(p);
  if (!known(from)) return `'${from}' is not a phase; the phases are ${PHASES.join(", ")}`;
  if (!known(to)) return `'${to}' is not a phase; the phases are ${PHASES.join(", ")}`;
  const legal = nextPhase(from);
  if (legal === to) return undefined;
  const only = legal ? `the only legal move from ${from} is ${from} → ${legal}` : `${from} is the last phase; no move is legal from it`;
  return `phase move ${from} → ${to} is refused: ${only}`;
}

export function canMove(from: string, to: string): boolean {
  return phaseMoveProblem(from, to) === undefined;
}

/** The plan moved one phase forward; a refused move throws a `refused` CapabilityError saying which move is legal. */
export function movePhase<P extends Pick<ExecutionPlan, "phase">>(plan: P, to: Phase): P {
  const problem = phaseMoveProblem(plan.phase, to);
  if (problem) throw refused(problem);
  return { ...plan, phase: to };
}

/** The parent's view of a child: its id, phase, processing state, attempt and last error. */
export function subplanStatusOf(child: ExecutionPlan, last_error: PlanError | null = null): SubplanStatus {
  return {
    plan_id: child.plan_id,
    phase: child.phase,
    processing_state: child.processing_state,
    attempt: child.attempt,
    last_error: last_error ? { ...last_error } : null,
  };
}
