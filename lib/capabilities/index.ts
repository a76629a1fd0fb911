import type { AnyCapability } from "./capability";
import type { z } from "zod";
import { planCapabilities, type PlanCapability } from "./plan-registry";
import { plansAdvanceCapability } from "./plans-advance";
import { plansClaimCapability } from "./plans-claim";
import { plansCompleteCapability } from "./plans-complete";
import { plansCreateCapability } from "./plans-create";
import { plansDeleteCapability } from "./plans-delete";
import { plansFailCapability } from "./plans-fail";
import { plansGetCapability } from "./plans-get";
import { plansListCapability } from "./plans-list";
import { plansTickCapability } from "./plans-tick";

const executionCapabilities = [
  plansCreateCapability,
  plansGetCapability,
  plansListCapability,
  plansClaimCapability,
  plansAdvanceCapability,
  plansFailCapability,
  plansCompleteCapability,
  plansTickCapability,
  plansDeleteCapability,
] as const;

/** Every capability, in the order the surfaces list them: the plan's, then the execution plans'. */
export const capabilities: readonly AnyCapability[] = [...planCapabilities, ...(executionCapabilities as unknown as readonly AnyCapability[])];

/** Every registered capability with its own types, for a caller that can name one only by its id. */
export type RegisteredCapability = PlanCapability | (typeof executionCapabilities)[number];
export type CapabilityId = RegisteredCapability["id"];
/** The answer's type of the capability with this id: its output schema's, as `call` gives a page. */
export type OutputOf<Id extends CapabilityId> = z.infer<Extract<RegisteredCapability, { id: Id }>["output"]>;

export function findCapability(id: string): AnyCapability | undefined {
  return capabilities.find((c) => c.id === id);
}

export * from "./capability";
export * from "./projection";
