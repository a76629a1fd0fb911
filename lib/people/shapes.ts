import { z } from "zod";
import { ISSUE_STATUSES } from "../plan/constants";
import { PlanFindingSchema } from "../plan/shapes";
import { FindingsChangeSchema, IdChangeSchema, RoadmapChangeSchema, WindowEndSchema } from "../plan/history-shapes";

// plan.standup's answer (docs/people.md), field order included.

/** The derived status at `until`; REMOVED for an issue done in the window whose file is gone since. */
export const StandupStatusSchema = z.enum([...ISSUE_STATUSES, "REMOVED"]);

const issueFields = {
  id: z.string(),
  title: z.string(),
  status: StandupStatusSchema,
};

/** The issue's linked commits authored in the window, and their authors as .mailmap names them; left out when there are none. */
export const StandupCodeSchema = z.object({ commits: z.number().int(), authors: z.array(z.string()) });
const codeField = { code: StandupCodeSchema.optional() };

export const StandupIssueSchema = z.object({ ...issueFields, ...codeField });

/** An ACTIVE or VERIFY issue, with how many days it has been there past `--stuck` (null: not stuck). */
export const StandupOpenSchema = z.object({ ...issueFields, stuck_days: z.number().int().nullable(), ...codeField });

/** A `blocked_by` entry (an issue id, or `milestone:<id>`) and the blocking issue's person (null: none, or a milestone). */
export const BlockerSchema = z.object({ entry: z.string(), owner: z.string().nullable() });

export const StandupBlockedSchema = z.object({ ...issueFields, blocked_by: z.array(BlockerSchema), ...codeField });

/** An issue whose code landed in the window, with the commit of the default branch that brought it in (plan.code's `merged`). */
export const StandupLandedSchema = z.object({ ...issueFields, merged: z.object({ commit: z.string(), at: z.string() }), ...codeField });

const lists = {
  /** What happened in the window. */
  done: z.array(StandupIssueSchema),
  /** The state at `until`, changed or not. */
  verify: z.array(StandupOpenSchema),
  active: z.array(StandupOpenSchema),
  blocked: z.array(StandupBlockedSchema),
  /** What happened in the window: started, merged into the default branch. */
  started: z.array(StandupIssueSchema),
  landed: z.array(StandupLandedSchema),
};

export const StandupPersonSchema = z.object({
  person: z.string(),
  ...lists,
  /** The person's commits linked to an issue, authored in the window. */
  commits: z.number().int(),
  /** The issues those commits are linked to, in id order. */
  commit_issues: z.array(z.string()),
});

export const PlanStandupSchema = z.object({
  since: WindowEndSchema,
  until: WindowEndSchema,
  people: z.array(StandupPersonSchema),
  unowned: z.object(lists),
  findings: FindingsChangeSchema.extend({ code: z.array(PlanFindingSchema) }),
  next: IdChangeSchema,
  roadmap: RoadmapChangeSchema,
});

export type StandupIssue = z.infer<typeof StandupIssueSchema>;
export type StandupOpen = z.infer<typeof StandupOpenSchema>;
export type StandupBlocked = z.infer<typeof StandupBlockedSchema>;
export type StandupLanded = z.infer<typeof StandupLandedSchema>;
export type StandupCode = z.infer<typeof StandupCodeSchema>;
export type StandupPerson = z.infer<typeof StandupPersonSchema>;
export type PlanStandup = z.infer<typeof PlanStandupSchema>;
export type StandupLists = Omit<StandupPerson, "person" | "commits" | "commit_issues">;
