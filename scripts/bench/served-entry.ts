// What the transitions bench loads to move issues as the server does: the registry, the served
// repository's context and the invocation every surface goes through.
export { findCapability } from "../../lib/capabilities/index";
export { DerivationMemory, derivePlan } from "../../lib/plan/derive";
export { REVALIDATE_MS, contextFor, currentState } from "../../lib/server/state";
export { invoke } from "../../lib/surfaces/invoke";
export { RecordCache, loadRecords } from "../../lib/repo/load";
export { claim } from "../../lib/repo/transition";
export { fullWalksOf } from "../../lib/server/state";
