// What the execution-plans benchmark's coordinator processes and its harness load (bundled by scripts/bench/plans.mjs).
export { claimNext, createExecutionPlan } from "../../lib/execution/coordinator";
export { closeStores } from "../../lib/execution/store";
export { closeDatabases } from "../../lib/coordination/database";
export { startPostgres } from "../../tests/support/postgres-server";
