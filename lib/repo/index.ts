// The plan of a repository on disk: the pure core (lib/plan) with the reading of its records
// and the moves that write them.
export * from "../plan";
export * from "./load";
export * from "./transition";

import { derivePlan, type DerivationMemory } from "../plan/derive";
import type { Plan } from "../plan/shapes";
import { loadRecords, type RecordCache } from "./load";
import { loadRecordsWithParseCache } from "./parse-cache";

/**
 * Load a repository's records and derive its plan. A caller that loads the same repository again
 * passes the same cache and memory (see derivePlan); a one-shot caller passes neither.
 */
export function loadPlan(repo: string, cache?: RecordCache, memory?: DerivationMemory): Plan {
  return derivePlan(loadRecords(repo, cache), memory);
}

/** A one-shot command's plan: its records read through the parse cache (./parse-cache.ts). */
export function loadPlanOnce(repo: string): Plan {
  return derivePlan(loadRecordsWithParseCache(repo));
}
