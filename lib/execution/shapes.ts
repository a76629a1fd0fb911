import { z } from "zod";
import { TransitionResultSchema } from "../repo/move-shapes";
import { EXECUTION_MODES, MERGE_STRATEGIES } from "./config";
import { ERROR_CATEGORIES } from "./failure";
import { EVENT_KINDS, PHASES, PROCESSING_STATES } from "./model";
import { PublishedFields } from "../repo/sync-shapes";

// The answers of the execution-plan capabilities (docs/execution-plans.md), declared once: the
// OpenAPI document and MCP describe these schemas, and the coordinator's types are inferred from
// them (PlanView alone is spelt out, since a recursive schema's type cannot be inferred).

export const PhaseSchema = z.enum(PHASES);
export const ProcessingStateSchema = z.enum(PROCESSING_STATES);

export const SubplanConfigSchema = z.object({
  execution_mode: z.enum(EXECUTION_MODES),
  merge_strategy: z.enum(MERGE_STRATEGIES),
  max_parallel: z.number().int().min(1).max(50),
  fail_fast: z.boolean(),
  retry_failed: z.boolean(),
  max_retries: z.number().int().min(0),
  timeout: z.number().nullable(),
});

/** The CLI dict: every plan's key fields. */
const cliDict = {
  plan_id: z.string(),
  phase: PhaseSchema,
  processing_state: ProcessingStateSchema,
  attempt: z.number().int(),
  root_plan_id: z.string(),
  automation_profile: z.string().nullable(),
  parent_plan_id: z.string().optional(),
  subplan_count: z.number().int().optional(),
  subplan_config: SubplanConfigSchema.optional(),
};

/** Why a plan errored: a failure's category, or cancelled for a root whose unfinished children were all cancelled. */
export const PlanErrorSchema = z.object({ category: z.enum([...ERROR_CATEGORIES, "cancelled"]), message: z.string() });

const planFields = z.object({
  ...cliDict,
  title: z.string(),
  /** The true depth in the tree (0 for a root). */
  depth: z.number().int(),
  issue: z.string().nullable(),
  wave: z.number().int().nullable(),
  branch: z.string().nullable(),
  integration_branch: z.string().nullable(),
  base_commit: z.string().nullable(),
  last_error: PlanErrorSchema.nullable(),
  cancel_reason: z.string().nullable(),
  /** The attempt this one retries. */
  retry_of: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  processing_started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

/** A plan as the coordinator shows it: its fields and its children, each a plan view itself. */
export interface PlanView extends z.infer<typeof planFields> {
  /** The children, retries included, in creation order. */
  children: PlanView[];
}

/** The children, retries included, in creation order: each a plan view itself. */
const children = () => z.array(z.lazy((): z.ZodType<PlanView> => ExecutionPlanSchema));

export const ExecutionPlanSchema: z.ZodType<PlanView> = planFields.extend({ children: children() });

export const ExecutionEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  plan_id: z.string(),
  kind: z.enum(EVENT_KINDS),
  reason: z.string(),
  data: z.record(z.string(), z.unknown()),
});

export type EventView = z.infer<typeof ExecutionEventSchema>;

/** A plan with its timeline: the whole tree's events for a root, the plan's own for a child. */
export const ExecutionPlanDetailSchema = planFields.extend({ children: children(), events: z.array(ExecutionEventSchema) });

export type PlanDetail = z.infer<typeof ExecutionPlanDetailSchema>;

export const ExecutionPlanSummarySchema = z.object({
  ...cliDict,
  title: z.string(),
  integration_branch: z.string().nullable(),
  created_at: z.string(),
  /** How many children are in each processing state (every state named, 0 included). */
  children_by_state: z.object(Object.fromEntries(PROCESSING_STATES.map((s) => [s, z.number().int()])) as Record<(typeof PROCESSING_STATES)[number], z.ZodNumber>),
});

export type PlanSummary = z.infer<typeof ExecutionPlanSummarySchema>;

export const FailureDecisionSchema = z.object({
  category: z.enum(ERROR_CATEGORIES),
  attempt: z.number().int(),
  retriable: z.boolean(),
  retry: z.boolean(),
  next_attempt: z.number().int().optional(),
  final: z.boolean(),
  stop_others: z.boolean(),
  reason: z.string(),
});

export const FailResultSchema = z.object({
  child: ExecutionPlanSchema,
  decision: FailureDecisionSchema,
  /** The new attempt, when the failure handler retries. */
  retry: ExecutionPlanSchema.nullable(),
  /** Siblings cancelled because the failure stopped the others. */
  cancelled: z.array(z.string()),
});

export type FailResult = z.infer<typeof FailResultSchema>;

export const ExecutionClaimResultSchema = z.object({
  /** The child now processing, or null. */
  claimed: ExecutionPlanSchema.nullable(),
  /** Why this child (which rules it passed), or why none. */
  reason: z.string(),
});

export type ClaimResult = z.infer<typeof ExecutionClaimResultSchema>;

export const MergeOutcomeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("merged"), commit: z.string(), tree: z.string(), previous: z.string() }),
  z.object({ kind: z.literal("already"), commit: z.string() }),
  z.object({ kind: z.literal("conflict"), files: z.array(z.string()), detail: z.string() }),
  z.object({ kind: z.literal("error"), detail: z.string() }),
]);

export const AdvanceResultSchema = z.object({
  child: ExecutionPlanSchema,
  from: PhaseSchema,
  to: PhaseSchema,
  /** False when the move failed the child (refused start or verify, merge conflict). */
  moved: z.boolean(),
  issue_transition: TransitionResultSchema.optional(),
  merge: MergeOutcomeSchema.optional(),
  failure: FailResultSchema.optional(),
  ...PublishedFields,
});

export type AdvanceResult = z.infer<typeof AdvanceResultSchema>;

export const CompleteResultSchema = z.object({
  child: ExecutionPlanSchema,
  completed: z.boolean(),
  evidence: z.array(z.string()),
  issue_transition: TransitionResultSchema.optional(),
  failure: FailResultSchema.optional(),
  ...PublishedFields,
});

export type CompleteResult = z.infer<typeof CompleteResultSchema>;

export const PlansListSchema = z.object({ plans: z.array(ExecutionPlanSummarySchema) });
export const TickSchema = z.object({ timed_out: z.array(z.string()) });
