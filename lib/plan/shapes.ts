import { z } from "zod";
import { FINDING_CODES, ISSUE_STATUSES, MILESTONE_STATUSES } from "./constants";

// The serialised shapes of plan-semantics §7, field order included. The derivation imports these
// only as types (so the command line never loads zod); the capability surfaces validate with them.

export const IssueStatusSchema = z.enum(ISSUE_STATUSES).describe("An issue's derived status.");
export const MilestoneStatusSchema = z.enum(MILESTONE_STATUSES).describe("A milestone's derived status.");

export const StatusVocabularySchema = z.object({
  issue: z.array(IssueStatusSchema),
  milestone: z.array(MilestoneStatusSchema),
});

export const PlanProjectSchema = z.object({
  name: z.string(),
  repository: z.string(),
  default_branch: z.string(),
  active_milestone: z.string(),
});

export const PlanCountsSchema = z.object({
  total: z.number().int(),
  required: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
});

/** A live lease from the coordination database: present only on a leased issue (an overlay, never a file). */
export const PlanLeaseSchema = z.object({ holder: z.string(), since: z.string(), expires: z.string() });

export const PlanIssueSchema = z.object({
  id: z.string(),
  milestone: z.string(),
  status: IssueStatusSchema,
  wave: z.number().int(),
  priority: z.string(),
  profile: z.string(),
  parallel_safe: z.boolean(),
  title: z.string(),
  slug: z.string(),
  depends_on: z.array(z.string()),
  blocked_by: z.array(z.string()),
  dependents: z.array(z.string()),
  scope: z.array(z.string()),
  serves: z.array(z.string()),
  objective: z.string(),
  evidence_have: z.number().int(),
  evidence_need: z.number().int(),
  started_at: z.string(),
  verified_at: z.string(),
  completed_at: z.string(),
  lease: PlanLeaseSchema.optional(),
});

export const PlanMilestoneSchema = z.object({
  id: z.string(),
  status: MilestoneStatusSchema,
  order: z.number().int(),
  priority: z.string(),
  title: z.string(),
  slug: z.string(),
  version: z.string(),
  rank: z.number().int(),
  depends_on: z.array(z.string()),
  blocked_by: z.array(z.string()),
  dependents: z.array(z.string()),
  claims: z.array(z.string()),
  counts: PlanCountsSchema,
  issues: z.array(z.string()),
  outcome: z.string(),
});

export const PlanWaveSchema = z.object({ wave: z.number().int(), issues: z.array(z.string()) });
export const PlanEdgeSchema = z.object({ from: z.string(), to: z.string() });

export const PlanFindingSchema = z.object({
  level: z.enum(["FAIL", "WARN"]),
  code: z.enum(FINDING_CODES),
  subject: z.string(),
  message: z.string(),
});

export const PlanSchema = z.object({
  project: PlanProjectSchema,
  statuses: StatusVocabularySchema,
  milestones: z.array(PlanMilestoneSchema),
  issues: z.array(PlanIssueSchema),
  waves: z.array(PlanWaveSchema),
  edges: z.array(PlanEdgeSchema),
  milestone_edges: z.array(PlanEdgeSchema),
  findings: z.array(PlanFindingSchema),
});

export const PlanMilestoneProgressSchema = z.object({
  id: z.string(),
  status: MilestoneStatusSchema,
  title: z.string(),
  counts: PlanCountsSchema,
});

export const PlanStatusReportSchema = z.object({
  project: PlanProjectSchema,
  statuses: StatusVocabularySchema,
  milestones: z.array(PlanMilestoneProgressSchema),
  next_ready: PlanIssueSchema.optional(),
  counts: PlanCountsSchema,
});

export const PlanIssueListSchema = z.object({
  issues: z.array(PlanIssueSchema),
  total: z.number().int(),
  statuses: StatusVocabularySchema,
});

export const PlanWaveReportSchema = z.object({
  waves: z.array(z.object({ wave: z.number().int(), issues: z.array(PlanIssueSchema) })),
  serialised_by_scope: z.array(PlanFindingSchema),
});

export const PlanNextIssueSchema = z.object({
  issue: PlanIssueSchema.optional(),
  active_milestone: z.string(),
  /** Present (true) when the issue is not of active_milestone: none was READY there, so the choice widened to the whole plan. */
  widened: z.literal(true).optional(),
  reason: z.string().optional(),
});

export const PlanRoadmapSchema = z.object({
  milestones: z.array(PlanMilestoneSchema),
  now: z.string().optional(),
  next: z.string().optional(),
});

export const PlanValidationSchema = z.object({
  valid: z.boolean(),
  milestones: z.number().int(),
  issues: z.number().int(),
  failures: z.number().int(),
  warnings: z.number().int(),
  findings: z.array(PlanFindingSchema),
});

/** A milestone with its issues, or an issue with its dependencies: exactly one (a oneOf in the document). */
export const PlanRecordSchema = z.xor([
  z.object({ milestone: PlanMilestoneSchema, issues: z.array(PlanIssueSchema) }),
  z.object({ issue: PlanIssueSchema, depends_on: z.array(PlanIssueSchema) }),
]);

export const PlanCriticalPathStepSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: IssueStatusSchema,
  /** Days: the median cycle time of the issue's milestone, or 1 where it has no history. */
  weight: z.number(),
});

export const PlanCriticalPathSchema = z.object({
  milestone: z.string().nullable(),
  path: z.array(PlanCriticalPathStepSchema),
  total: z.number(),
});

export type StatusVocabulary = z.infer<typeof StatusVocabularySchema>;
export type PlanProject = z.infer<typeof PlanProjectSchema>;
export type PlanCounts = z.infer<typeof PlanCountsSchema>;
export type PlanIssue = z.infer<typeof PlanIssueSchema>;
export type PlanMilestone = z.infer<typeof PlanMilestoneSchema>;
export type PlanWave = z.infer<typeof PlanWaveSchema>;
export type PlanEdge = z.infer<typeof PlanEdgeSchema>;
export type PlanFinding = z.infer<typeof PlanFindingSchema>;
export type Plan = z.infer<typeof PlanSchema>;
export type PlanMilestoneProgress = z.infer<typeof PlanMilestoneProgressSchema>;
export type PlanStatusReport = z.infer<typeof PlanStatusReportSchema>;
export type PlanIssueList = z.infer<typeof PlanIssueListSchema>;
export type PlanWaveReport = z.infer<typeof PlanWaveReportSchema>;
export type PlanNextIssue = z.infer<typeof PlanNextIssueSchema>;
export type PlanRoadmap = z.infer<typeof PlanRoadmapSchema>;
export type PlanValidation = z.infer<typeof PlanValidationSchema>;
export type PlanRecord = z.infer<typeof PlanRecordSchema>;
export type PlanCriticalPathStep = z.infer<typeof PlanCriticalPathStepSchema>;
export type PlanCriticalPath = z.infer<typeof PlanCriticalPathSchema>;
