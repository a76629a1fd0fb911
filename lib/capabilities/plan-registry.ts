import type { AnyCapability } from "./capability";
import { planClaimCapability } from "./plan-claim";
import { planCriticalPathCapability } from "./plan-critical-path";
import { planEvidenceCapability } from "./plan-evidence";
import { planIssuesCapability } from "./plan-issues";
import { planModelCapability } from "./plan-model";
import { planNextCapability } from "./plan-next";
import { planRecordCapability } from "./plan-record";
import { planRoadmapCapability } from "./plan-roadmap";
import { planStatusCapability } from "./plan-status";
import { planTransitionCapability } from "./plan-transition";
import { planValidateCapability } from "./plan-validate";
import { planWavesCapability } from "./plan-waves";

/**
 * The plan's capabilities, in the order the surfaces list them. Kept apart from the execution
 * plans' so that `cockpit plan …` loads neither SQLite nor the coordinator.
 */
export const planCapabilities: readonly AnyCapability[] = [
  planModelCapability,
  planStatusCapability,
  planIssuesCapability,
  planWavesCapability,
  planNextCapability,
  planRoadmapCapability,
  planCriticalPathCapability,
  planValidateCapability,
  planRecordCapability,
  planTransitionCapability,
  planEvidenceCapability,
  planClaimCapability,
] as unknown as readonly AnyCapability[];
