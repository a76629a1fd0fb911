import type { AnyCapability } from "./capability";
import { planClaimCapability } from "./plan-claim";
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
import { plansAdvanceCapability } from "./plans-advance";
import { plansClaimCapability } from "./plans-claim";
import { plansCompleteCapability } from "./plans-complete";
import { plansCreateCapability } from "./plans-create";
import { plansFailCapability } from "./plans-fail";
import { plansGetCapability } from "./plans-get";
import { plansListCapability } from "./plans-list";
import { plansTickCapability } from "./plans-tick";

/** Every capability, in the order the surfaces list them. */
export const capabilities: readonly AnyCapability[] = [
  planModelCapability,
  planStatusCapability,
  planIssuesCapability,
  planWavesCapability,
  planNextCapability,
  planRoadmapCapability,
  planValidateCapability,
  planRecordCapability,
  planTransitionCapability,
  planEvidenceCapability,
  planClaimCapability,
  plansCreateCapability,
  plansGetCapability,
  plansListCapability,
  plansClaimCapability,
  plansAdvanceCapability,
  plansFailCapability,
  plansCompleteCapability,
  plansTickCapability,
] as unknown as readonly AnyCapability[];

export function findCapability(id: string): AnyCapability | undefined {
  return capabilities.find((c) => c.id === id);
}

export * from "./capability";
export * from "./projection";
