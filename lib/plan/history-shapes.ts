import { z } from "zod";
import { ISSUE_STATUSES, MILESTONE_STATUSES, type IssueStatus, type MilestoneStatus } from "./constants";
import { IssueStatusSchema, MilestoneStatusSchema, PlanFindingSchema } from "./shapes";

// The serialised shapes of the time answers: field order is the order written here.

export const RevisionSchema = z.object({
  rev: z.string(),
  commit: z.string().nullable(),
  committed_at: z.string().nullable(),
});

const FromTo = <T extends z.ZodType>(t: T) => z.object({ from: t.nullable(), to: t.nullable() });

/** Why an issue's status changed: the move whose stamp appeared, the dependencies that finished (or now block), … */
export const IssueCauseSchema = z.object({
  kind: z.enum(["move", "unblocked", "blocked", "cancelled", "evidence", "other"]),
  move: z.enum(["start", "verify", "done"]).optional(),
  field: z.string().optional(),
  stamp: z.string().optional(),
  dependencies: z.array(z.string()).optional(),
  /** For unblocked: dependencies that stopped blocking because the record no longer declares them. */
  dropped: z.array(z.string()).optional(),
});

export const IssueChangeSchema = z.object({
  id: z.string(),
  title: z.string(),
  milestone: z.string(),
  /** The status before; null for an issue added. */
  from: IssueStatusSchema.nullable(),
  /** The status after; null for an issue removed. */
  to: IssueStatusSchema.nullable(),
  wave: FromTo(z.number().int()),
  milestone_from: z.string().nullable(),
  cause: IssueCauseSchema.optional(),
});

/** A milestone whose status changed; from null: added, to null: removed. */
export const MilestoneChangeSchema = z.object({ id: z.string(), from: MilestoneStatusSchema.nullable(), to: MilestoneStatusSchema.nullable() });

/** The findings that appeared and the ones that went. */
export const FindingsChangeSchema = z.object({ new: z.array(PlanFindingSchema), resolved: z.array(PlanFindingSchema) });

/** An id before and after (the next issue, a roadmap slot's milestone); null where there is none. */
export const IdChangeSchema = FromTo(z.string());

/** The roadmap's now and next milestones, before and after. */
export const RoadmapChangeSchema = z.object({ now: IdChangeSchema, next: IdChangeSchema });

export const PlanDiffSchema = z.object({
  issues: z.array(IssueChangeSchema),
  milestones: z.array(MilestoneChangeSchema),
  findings: FindingsChangeSchema,
  next: IdChangeSchema,
  roadmap: RoadmapChangeSchema,
});

/** One end of a window of changes: the revision, and its commit's subject line to show beside it. */
export const WindowEndSchema = RevisionSchema.extend({
  subject: z.string().optional().describe("the commit's subject line (absent without a commit)"),
  head: z.string().optional().describe("until now: the commit the files sit on (HEAD), which a link pins the window to; absent before the first commit"),
});

export const PlanChangesSchema = z.object({
  since: WindowEndSchema,
  until: WindowEndSchema,
  ...PlanDiffSchema.shape,
});

export type RevisionInfo = z.infer<typeof WindowEndSchema>;
export type IssueCause = z.infer<typeof IssueCauseSchema>;
export type IssueChange = z.infer<typeof IssueChangeSchema>;
export type PlanDiff = z.infer<typeof PlanDiffSchema>;
export type PlanChanges = z.infer<typeof PlanChangesSchema>;

type RecordStatus = IssueStatus | MilestoneStatus;
/** Both vocabularies once each: they share words (ACTIVE, DONE…), so one enum, not an either-or. */
const RECORD_STATUSES = [...new Set<RecordStatus>([...ISSUE_STATUSES, ...MILESTONE_STATUSES])] as [RecordStatus, ...RecordStatus[]];
export const RecordStatusSchema = z.enum(RECORD_STATUSES).describe("A milestone's or an issue's derived status.");

/** One entry of a record's timeline: a commit that changed its file, or a move not yet committed. */
export const HistoryEntrySchema = z.object({
  /** A move in this clone's ledger whose stamp no commit carries yet. */
  uncommitted: z.boolean(),
  commit: z.string().nullable(),
  author: z.string(),
  time: z.string(),
  message: z.string(),
  /** The ledger event of an uncommitted entry (plan_start, plan_done, …); null for a commit. */
  event: z.string().nullable(),
  /** The record's derived status after the entry; null where the record does not exist after it. */
  status: RecordStatusSchema.nullable(),
});

export const PlanHistorySchema = z.object({
  id: z.string(),
  kind: z.enum(["issue", "milestone"]),
  path: z.string(),
  entries: z.array(HistoryEntrySchema),
  /** Whether older entries were left out by `limit`. */
  truncated: z.boolean(),
});

export const BurnupPointSchema = z.object({
  date: z.string(),
  /** The commit the day is measured at; null before the first commit, and for today (the files now). */
  commit: z.string().nullable(),
  scope: z.number().int(),
  started: z.number().int(),
  done: z.number().int(),
});

export const PlanBurnupSchema = z.object({
  milestone: z.string(),
  points: z.array(BurnupPointSchema),
});

export const ForecastSchema = z.object({
  milestone: z.string(),
  /** forecast: dates below; done: nothing left; not_enough_history: too few completions in the window. */
  outcome: z.enum(["forecast", "done", "not_enough_history"]),
  message: z.string(),
  seed: z.number().int(),
  trials: z.number().int(),
  window: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
  /** Issues of the whole plan that reached DONE on each day of the window, by sealed completed_at. */
  daily: z.array(z.object({ date: z.string(), done: z.number().int() })),
  completions: z.number().int(),
  needed: z.number().int(),
  remaining: z.number().int(),
  remaining_waves: z.number().int(),
  /** Cycle times (started_at → completed_at, days) of the DONE issues with both stamps sealed. */
  cycle_times: z.array(z.number()),
  /** The completion dates (50/85/95 % of trials done by then); null without a forecast. */
  dates: z.object({ p50: z.string(), p85: z.string(), p95: z.string() }).nullable(),
});

export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type PlanHistory = z.infer<typeof PlanHistorySchema>;
export type BurnupPoint = z.infer<typeof BurnupPointSchema>;
export type PlanBurnup = z.infer<typeof PlanBurnupSchema>;
export type Forecast = z.infer<typeof ForecastSchema>;
