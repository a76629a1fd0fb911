// The plan of a repository on disk: the pure core (lib/plan) with the reading of its records
// and the moves that write them.
export * from "../plan";
export * from "./load";
export * from "./transition";

import { derivePlan, type DerivationMemory } from "../plan/derive";
import type { Plan } from "../plan/shapes";
import { loadRecords, type RecordCache } from "./load";

/**
 * Load a repository's records and derive its plan. A caller that loads the same repository again
 * passes the same cache and memory (see derivePlan); a one-shot caller passes neither.
 */
export function loadPlan(repo: string, cache?: RecordCache, memory?: DerivationMemory): Plan {
  return derivePlan(loadRecords(repo, cache), memory);
}
