import type { CapabilityContext } from "../capabilities/capability";
import { derivePlan } from "../plan/derive";
import { RecordCache, loadRecords } from "../plan/load";
import type { Plan } from "../plan/shapes";

interface RepoState {
  cache: RecordCache;
  plan?: Plan;
  version: number;
}

const states = new Map<string, RepoState>();

/**
 * The plan of a repository as its files are now. Parsed files are kept, keyed by identity, size
 * and modification time; the derived plan is reused only while no file changed.
 */
export function currentPlan(repo: string): Plan {
  let state = states.get(repo);
  if (!state) {
    state = { cache: new RecordCache(), version: -1 };
    states.set(repo, state);
  }
  const records = loadRecords(repo, state.cache);
  if (state.plan && state.version === state.cache.version) return state.plan;
  state.plan = derivePlan(records);
  state.version = state.cache.version;
  return state.plan;
}

export function contextFor(repo: string, by?: string): CapabilityContext {
  return { repo, by, plan: () => currentPlan(repo) };
}
