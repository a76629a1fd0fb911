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
  /** How many times the plan was derived (for tests and diagnostics). */
  derivations: number;
}

const states = new Map<string, RepoState>();

/**
 * The plan of a repository as its files are now. Every call looks at the files (a directory
 * listing and a stat of each record): a file-system watcher was tried as a shortcut, and under
 * load its events arrived after requests that followed the edit, so answers went stale. Parsed
 * files and the records built from them are kept, keyed by identity, size and times (and, for a
 * file modified in the last 2 s, its bytes); the derived plan is reused while nothing changed.
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
    state.derivations++;
  }
  return { records: state.records, plan: state.plan };
}

/** How many times this process derived a repository's plan. */
export function derivationsOf(repo: string): number {
  return stateOf(repo).derivations;
}

function stateOf(repo: string): RepoState {
  let state = states.get(repo);
  if (!state) {
    state = { cache: new RecordCache(), version: -1, derivations: 0 };
    states.set(repo, state);
  }
  return state;
}

export function contextFor(repo: string, by?: string): CapabilityContext {
  return { repo, by, cache: stateOf(repo).cache, plan: () => currentPlan(repo) };
}
