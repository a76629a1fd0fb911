import { z } from "zod";
import { PlanFindingSchema } from "../plan/shapes";
import { PublishedFields } from "../repo/sync-shapes";

// What an import reads (one pure parser per format turns source text into these) and what it
// answers. The parsers never touch the repository; the writer (import.ts) does.

export const IMPORT_FORMATS = ["beads", "backlog", "taskmaster", "github"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The source as text, by path relative to what was given (a file's own name, or a folder's paths). */
export type SourceFiles = Readonly<Record<string, string>>;

export interface ImportIssue {
  id: string;
  /** The id the source gives it, as written (`bd-7mh.6`, `BACK-200`, `4.2`, `#17`). */
  sourceId: string;
  /** The source's status word (`closed`, `In Progress`, `review`, `OPEN`), for `mapped`. */
  sourceStatus: string;
  milestone: string;
  title: string;
  priority: string;
  owner?: string;
  objective?: string;
  current_state?: string;
  desired_state?: string;
  completion?: string;
  depends_on: string[];
  acceptance_criteria: string[];
  validation: string[];
  evidence_required: string[];
  cancelled?: boolean;
  started_at?: string;
  completed_at?: string;
  created_at?: string;
}

export interface ImportMilestone {
  id: string;
  /** Absent for a milestone the import makes (the one named after the source, a GitHub milestone). */
  sourceId?: string;
  title: string;
  priority: string;
  outcome?: string;
  desired_state?: string;
  acceptance_criteria: string[];
  depends_on: string[];
  cancelled?: boolean;
  created_at?: string;
}

export interface Skip {
  id: string;
  why: string;
}

export interface Dropped {
  what: string;
  count: number;
  why: string;
}

/** A parser's answer: the records in source order, and every loss named. */
export interface ParsedSource {
  milestones: ImportMilestone[];
  issues: ImportIssue[];
  skipped: Skip[];
  dropped: Dropped[];
  /** How many records the source holds (lines, files, tasks and subtasks, issues), malformed ones included. */
  read: number;
}

/** The bounds a source is read within, together (limits.ts gives them: LIMITS, or smaller ones a test gives). */
export interface ImportLimits {
  readonly sourceBytes: number;
  readonly fileBytes: number;
  readonly files: number;
  readonly records: number;
  readonly recordBytes: number;
  readonly jsonDepth: number;
  readonly folderDepth: number;
}

export interface ParseOptions {
  prefix?: string;
  /** GitHub only: the issue-dependencies file's text. */
  dependencies?: string;
  /** Now, as a stamp: what an ACTIVE issue with no time of its own is stamped with. */
  now: string;
  /** The bounds a source is read within (limits.ts's LIMITS). */
  limits: ImportLimits;
}

export const ImportResultSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  source: z.string(),
  dry_run: z.boolean(),
  /** Records read from the source: created + skipped (of the source's own records) add up to it. */
  read: z.number().int(),
  created: z.object({ milestones: z.array(z.string()), issues: z.array(z.string()) }),
  skipped: z.array(z.object({ id: z.string(), why: z.string() })),
  /** Per source status, the derived status each imported issue has after the import, counted. */
  mapped: z.record(z.string(), z.record(z.string(), z.number().int())),
  dropped: z.array(z.object({ what: z.string(), count: z.number().int(), why: z.string() })),
  /** The findings the imported records cause, exactly as plan.validate gives them. */
  findings: z.array(PlanFindingSchema),
  /** One sentence: what was (or would be) done. */
  summary: z.string(),
  ...PublishedFields,
});
export type ImportResult = z.infer<typeof ImportResultSchema>;
