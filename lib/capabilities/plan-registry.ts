import type { AnyCapability } from "./capability";
import { planAgentsCapability } from "./plan-agents";
import { planAnswerCapability, planAskCapability, planWaitCapability, planWithdrawCapability } from "./plan-ask";
import { planInboxCapability } from "./plan-inbox";
import { planDigestCapability } from "./plan-digest";
import { planBurnupCapability } from "./plan-burnup";
import { planChangesCapability } from "./plan-changes";
import { planClaimCapability } from "./plan-claim";
import { planCodeCapability } from "./plan-code";
import { planCommitCapability } from "./plan-commit";
import { planCreateCapability } from "./plan-create";
import { planEditCapability } from "./plan-edit";
import { planCriticalPathCapability } from "./plan-critical-path";
import { planEvidenceCapability } from "./plan-evidence";
import { planForecastCapability } from "./plan-forecast";
import { planHeartbeatCapability } from "./plan-heartbeat";
import { planHistoryCapability } from "./plan-history";
import { planImportCapability } from "./plan-import";
import { planIssuesCapability } from "./plan-issues";
import { planModelCapability } from "./plan-model";
import { planNextCapability } from "./plan-next";
import { planRecordCapability } from "./plan-record";
import { planReleaseCapability } from "./plan-release";
import { planRoadmapCapability } from "./plan-roadmap";
import { planStandupCapability } from "./plan-standup";
import { planStatusCapability } from "./plan-status";
import { planSyncStatusCapability } from "./plan-sync-status";
import { planTransitionCapability } from "./plan-transition";
import { planValidateCapability } from "./plan-validate";
import { planUndoCapability } from "./plan-undo";
import { planActivityCapability } from "./plan-activity";
import { planWavesCapability } from "./plan-waves";

/**
 * The plan's capabilities, in the order the surfaces list them. Kept apart from the execution
 * plans' so that `cockpit plan …` loads neither SQLite nor the coordinator.
 */
const declared = [
  planModelCapability,
  planStatusCapability,
  planIssuesCapability,
  planWavesCapability,
  planNextCapability,
  planRoadmapCapability,
  planCriticalPathCapability,
  planValidateCapability,
  planRecordCapability,
  planChangesCapability,
  planHistoryCapability,
  planBurnupCapability,
  planForecastCapability,
  planCodeCapability,
  planStandupCapability,
  planTransitionCapability,
  planEvidenceCapability,
  planClaimCapability,
  planHeartbeatCapability,
  planReleaseCapability,
  planAgentsCapability,
  planAskCapability,
  planWaitCapability,
  planAnswerCapability,
  planWithdrawCapability,
  planInboxCapability,
  planDigestCapability,
  planCreateCapability,
  planEditCapability,
  planUndoCapability,
  planActivityCapability,
  planImportCapability,
  planCommitCapability,
  planSyncStatusCapability,
] as const;

/** Each of them with its own types (its literal id, its input and output schemas). */
export type PlanCapability = (typeof declared)[number];

export const planCapabilities = declared as unknown as readonly AnyCapability[];
