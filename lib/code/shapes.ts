import { z } from "zod";
import { PlanFindingSchema } from "../plan/shapes";

// The answers of plan.code (docs/code-links.md), field order included. Times are ISO UTC.

export const CodeBranchSchema = z.object({
  /** The branch name: after refs/heads/, or after refs/remotes/<remote>/. */
  name: z.string(),
  /** The remote of a remote-tracking branch; null for a local branch. */
  remote: z.string().nullable(),
  tip: z.string(),
  /** Commits the branch has that the default branch lacks. */
  ahead: z.number().int(),
  /** Commits the default branch has that the branch lacks. */
  behind: z.number().int(),
  /** The tip's author date. */
  last_commit_at: z.string(),
  /** Whether the tip is an ancestor of the default branch. */
  merged: z.boolean(),
});

export const CodeCommitSchema = z.object({
  sha: z.string(),
  subject: z.string(),
  /** As .mailmap maps it. */
  author: z.string(),
  authored_at: z.string(),
  /** Whether the default branch holds it. */
  on_default: z.boolean(),
});

/** The first commit of the default branch's first-parent line that brought in the issue's code, and when it was committed. */
export const CodeMergedSchema = z.object({ commit: z.string(), at: z.string() });

export const CodeFindingSchema = PlanFindingSchema;

const issueFields = {
  branches: z.array(CodeBranchSchema),
  authors: z.array(z.string()),
  first_activity_at: z.string().nullable(),
  last_activity_at: z.string().nullable(),
  merged: CodeMergedSchema.nullable(),
  findings: z.array(CodeFindingSchema),
};

/** Why the answer is empty when it cannot read any code: present only then. */
const note = z.string().optional();

/** plan.code with an id: one issue's branches, commits and code findings. */
export const IssueCodeSchema = z.object({
  id: z.string(),
  default_branch: z.string().nullable(),
  branches: issueFields.branches,
  commits: z.array(CodeCommitSchema),
  authors: issueFields.authors,
  first_activity_at: issueFields.first_activity_at,
  last_activity_at: issueFields.last_activity_at,
  merged: issueFields.merged,
  findings: issueFields.findings,
  note,
});

/** One issue in the answer without an id: the same as with its id, without the commits. */
export const IssueCodeSummarySchema = z.object({ id: z.string(), ...issueFields });

/** plan.code without an id: every issue with at least one link, and every code finding. */
export const PlanCodeSchema = z.object({
  default_branch: z.string().nullable(),
  issues: z.array(IssueCodeSummarySchema),
  findings: z.array(CodeFindingSchema),
  note,
});

/** One issue's code, or every linked issue's: exactly one (a oneOf in the document). */
export const PlanCodeAnswerSchema = z.xor([IssueCodeSchema, PlanCodeSchema]);

export type CodeBranch = z.infer<typeof CodeBranchSchema>;
export type CodeCommit = z.infer<typeof CodeCommitSchema>;
export type CodeMerged = z.infer<typeof CodeMergedSchema>;
export type CodeFinding = z.infer<typeof CodeFindingSchema>;
export type IssueCode = z.infer<typeof IssueCodeSchema>;
export type IssueCodeSummary = z.infer<typeof IssueCodeSummarySchema>;
export type PlanCode = z.infer<typeof PlanCodeSchema>;

/** plan.code answers one issue's links when asked with an id: that answer, narrowed. */
export function issueCodeOf(answer: IssueCode | PlanCode): IssueCode {
  if ("issues" in answer) throw new Error("the code links answered for the whole plan where one issue was asked for");
  return answer;
}

/** plan.code answers every issue's links when asked without an id: that answer, narrowed. */
export function planCodeOf(answer: IssueCode | PlanCode): PlanCode {
  if (!("issues" in answer)) throw new Error("the code links answered for one issue where the whole plan was asked for");
  return answer;
}
