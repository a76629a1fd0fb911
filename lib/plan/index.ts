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

import { derivePlan } from "./derive";
import { loadRecords, type RecordCache } from "./load";
import type { Plan } from "./shapes";

/** Load a repository's records and derive its plan. */
export function loadPlan(repo: string, cache?: RecordCache): Plan {
  return derivePlan(loadRecords(repo, cache));
}
