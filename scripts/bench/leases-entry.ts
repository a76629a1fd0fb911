// What the leases benchmark's writer processes and its harness load (bundled by scripts/bench/leases.mjs).
export { claim } from "../../lib/repo/transition";
export { RecordCache, loadRecords } from "../../lib/repo/load";
export { loadPlan } from "../../lib/repo/index";
export { leaseWriteOptions } from "../../lib/coordination/plan-leases";
export { closeDatabases } from "../../lib/coordination/database";
export { startPostgres } from "../../tests/support/postgres-server";
