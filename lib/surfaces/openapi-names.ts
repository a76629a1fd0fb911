import type { z } from "zod";
import { EvidenceResultSchema, ClaimResultSchema, ReleaseResultSchema, TransitionResultSchema } from "../capabilities/outputs";
import { CommitResultSchema, PlanDiffSchema as PreviewSchema, RecordWriteResultSchema } from "../capabilities/edit-shapes";
import { PlanViewSchema } from "../capabilities/plans-inputs";
import { CodeBranchSchema, CodeCommitSchema, CodeMergedSchema, IssueCodeSchema, IssueCodeSummarySchema, PlanCodeSchema } from "../code/shapes";
import {
  BurnupPointSchema,
  HistoryEntrySchema,
  IssueCauseSchema,
  IssueChangeSchema,
  MilestoneChangeSchema,
  RevisionSchema,
} from "../history/shapes";
import {
  IssueStatusSchema,
  MilestoneStatusSchema,
  PlanCountsSchema,
  PlanCriticalPathStepSchema,
  PlanEdgeSchema,
  PlanFindingSchema,
  PlanIssueSchema,
  PlanLeaseSchema,
  PlanMilestoneProgressSchema,
  PlanMilestoneSchema,
  PlanProjectSchema,
  PlanWaveSchema,
  StatusVocabularySchema,
} from "../plan/shapes";

/**
 * The shapes the OpenAPI document names (`#/components/schemas/<name>`), so a generated client
 * gets one named type per idea. A capability's whole answer not named here is `<Capability>Output`.
 */
export const NAMED_SCHEMAS: readonly (readonly [z.ZodType, string])[] = [
  [IssueStatusSchema, "IssueStatus"],
  [MilestoneStatusSchema, "MilestoneStatus"],
  [StatusVocabularySchema, "StatusVocabulary"],
  [PlanProjectSchema, "Project"],
  [PlanCountsSchema, "Counts"],
  [PlanLeaseSchema, "Lease"],
  [PlanIssueSchema, "Issue"],
  [PlanMilestoneSchema, "Milestone"],
  [PlanMilestoneProgressSchema, "MilestoneProgress"],
  [PlanWaveSchema, "Wave"],
  [PlanEdgeSchema, "Edge"],
  [PlanFindingSchema, "Finding"],
  [PlanCriticalPathStepSchema, "CriticalPathStep"],
  [RevisionSchema, "Revision"],
  [IssueCauseSchema, "Cause"],
  [IssueChangeSchema, "Change"],
  [MilestoneChangeSchema, "MilestoneChange"],
  [HistoryEntrySchema, "HistoryEntry"],
  [BurnupPointSchema, "BurnupPoint"],
  [CodeBranchSchema, "CodeBranch"],
  [CodeCommitSchema, "CodeCommit"],
  [CodeMergedSchema, "CodeMerged"],
  [IssueCodeSchema, "IssueCode"],
  [IssueCodeSummarySchema, "IssueCodeSummary"],
  [PlanCodeSchema, "PlanCode"],
  [PreviewSchema, "Preview"],
  [RecordWriteResultSchema, "RecordWriteResult"],
  [CommitResultSchema, "CommitResult"],
  [TransitionResultSchema, "TransitionResult"],
  [ClaimResultSchema, "ClaimResult"],
  [EvidenceResultSchema, "EvidenceResult"],
  [ReleaseResultSchema, "ReleaseResult"],
  [PlanViewSchema, "ExecutionPlan"],
];
