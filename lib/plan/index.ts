// The derivation core: records in, derived plan out.
export * from "./constants";
export * from "./derive";
export * from "./load";
export * from "./next-issue";
export * from "./queries";
export * from "./records";
export * from "./roadmap";
export * from "./scope";
export * from "./seal";
export type * from "./shapes";
export * from "./text";
export * from "./transition";

import { derivePlan, type DerivationMemory } from "./derive";
import { loadRecords, type RecordCache } from "./load";
import type { Plan } from "./shapes";

/**
 * Load a repository's records and derive its plan. A caller that loads the same repository again
 * passes the same cache and memory (see derivePlan); a one-shot caller passes neither.
 */
export function loadPlan(repo: string, cache?: RecordCache, memory?: DerivationMemory): Plan {
  return derivePlan(loadRecords(repo, cache), memory);
}
