import type { CapabilityContext } from "../capabilities/capability";
import { derivePlan } from "../plan/derive";
import { RecordCache, loadRecords } from "../plan/load";
import type { PlanRecords } from "../plan/records";
import type { Plan } from "../plan/shapes";

interface RepoState {
  cache: RecordCache;
  records?: PlanRecords;
  plan?: Plan;
  version: number;
}

const states = new Map<string, RepoState>();

/**
 * The plan of a repository as its files are now. Parsed files are kept, keyed by identity, size
 * and modification time; the derived plan is reused only while no file changed.
 */
export function currentPlan(repo: string): Plan {
  return currentState(repo).plan;
}

/** The records and the plan derived from them, as the files are now. */
export function currentState(repo: string): { records: PlanRecords; plan: Plan } {
  const state = stateOf(repo);
  const records = loadRecords(repo, state.cache);
  if (!state.plan || !state.records || state.version !== state.cache.version) {
    state.records = records;
    state.plan = derivePlan(records);
    state.version = state.cache.version;
  }
  return { records: state.records, plan: state.plan };
}

function stateOf(repo: string): RepoState {
  let state = states.get(repo);
  if (!state) {
    state = { cache: new RecordCache(), version: -1 };
    states.set(repo, state);
  }
  return state;
}

export function contextFor(repo: string, by?: string): CapabilityContext {
  return { repo, by, cache: stateOf(repo).cache, plan: () => currentPlan(repo) };
}
