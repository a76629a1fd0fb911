import type { AnyCapability } from "./capability";
import { planCapabilities } from "./plan-registry";
import { plansAdvanceCapability } from "./plans-advance";
import { plansClaimCapability } from "./plans-claim";
import { plansCompleteCapability } from "./plans-complete";
import { plansCreateCapability } from "./plans-create";
import { plansFailCapability } from "./plans-fail";
import { plansGetCapability } from "./plans-get";
import { plansListCapability } from "./plans-list";
import { plansTickCapability } from "./plans-tick";

/** Every capability, in the order the surfaces list them: the plan's, then the execution plans'. */
export const capabilities: readonly AnyCapability[] = [
  ...planCapabilities,
  ...([
    plansCreateCapability,
    plansGetCapability,
    plansListCapability,
    plansClaimCapability,
    plansAdvanceCapability,
    plansFailCapability,
    plansCompleteCapability,
    plansTickCapability,
  ] as unknown as readonly AnyCapability[]),
];

export function findCapability(id: string): AnyCapability | undefined {
  return capabilities.find((c) => c.id === id);
}

export * from "./capability";
export * from "./projection";
