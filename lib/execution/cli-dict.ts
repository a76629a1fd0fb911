import type { SubplanConfig } from "./config";
import { hasSubplans, isSubplan, rootOf, type ExecutionPlan, type Phase, type ProcessingState } from "./model";

/** The flat rendering of a plan the command line and the JSON API print. */
export interface CliDict {
  plan_id: string;
  phase: Phase;
  processing_state: ProcessingState;
  attempt: number;
  root_plan_id: string;
  automation_profile: string | null;
  /** Only for a child. */
  parent_plan_id?: string;
  /** Only when the plan has subplans. */
  subplan_count?: number;
  /** Only when set. */
  subplan_config?: SubplanConfig;
}

export function toCliDict(plan: ExecutionPlan): CliDict {
  const out: CliDict = {
    plan_id: plan.plan_id,
    phase: plan.phase,
    processing_state: plan.processing_state,
    attempt: plan.attempt,
    root_plan_id: rootOf(plan),
    automation_profile: plan.automation_profile,
  };
  if (isSubplan(plan) && plan.parent_plan_id !== null) out.parent_plan_id = plan.parent_plan_id;
  if (hasSubplans(plan)) out.subplan_count = plan.subplan_statuses.length;
  if (plan.subplan_config !== null) out.subplan_config = { ...plan.subplan_config };
  return out;
}
