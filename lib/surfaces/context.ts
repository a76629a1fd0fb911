import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import type { CapabilityContext } from "../capabilities/capability";
import { leasedPlan } from "../coordination/plan-leases";
import { ISSUES_DIR, MILESTONES_DIR, PROJECT_DIR } from "../plan/constants";
import { derivePlan } from "../plan/derive";
import { RecordCache, loadRecords } from "../plan/load";
import type { PlanRecords } from "../plan/records";
import type { Plan } from "../plan/shapes";

/**
 * How long a long-running surface serves a plan on its watchers' word alone (no event since the
 * last look at the files) before it looks again anyway: a bound on staleness where a file system
 * does not report changes (a network mount).
 */
export const REVALIDATE_MS = 2000;

/**
 * Whether a repository's records may have changed since they were last read. The three record
 * folders are watched (inotify on Linux): a change made before a request was sent has queued its
 * event before the request arrives, but the event may be handled after the request's own callback
 * in the same turn of the event loop. So a surface first lets that turn finish (`ioSettled`), and
 * then an unchanged plan is answered without a file-system walk. Writes made by this process mark
 * it too (`noteWrite`), since their events are handled later. Where a folder cannot be watched,
 * every read walks the files.
 */
class ChangeWatch {
  private dirty = true;
  private checkedAt = 0;
  private watchers: FSWatcher[] = [];

  constructor(private readonly repo: string) {}

  /** Whether the records must be looked at again. */
  mayHaveChanged(now: number): boolean {
    return this.dirty || this.watchers.length === 0 || now - this.checkedAt >= REVALIDATE_MS;
  }

  /**
   * Called right before the files are read: the watchers are armed first (if they are down), so
   * any change from now on, even one during the read, means the files must be read again.
   */
  reading(now: number): void {
    if (this.watchers.length === 0) this.arm();
    this.dirty = false;
    this.checkedAt = now;
  }

  noteWrite(): void {
    this.dirty = true;
  }

  private arm(): void {
    try {
      for (const dir of [PROJECT_DIR, MILESTONES_DIR, ISSUES_DIR]) {
        const watcher = watch(join(this.repo, dir), { persistent: false }, (_event, name) => {
          this.dirty = true;
          // A record folder replaced or removed: its watcher watches nothing any more.
          if (dir === PROJECT_DIR && (name === null || name === "milestones" || name === "issues")) this.disarm();
        });
        watcher.on("error", () => this.disarm());
        this.watchers.push(watcher);
      }
    } catch {
      // A folder missing (or no watches left): every read walks the files until arming succeeds.
      this.disarm();
    }
  }

  private disarm(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.dirty = true;
  }
}

interface RepoState {
  cache: RecordCache;
  changes: ChangeWatch;
  records?: PlanRecords;
  plan?: Plan;
  version: number;
  /** How many times the files were looked at (for tests and diagnostics). */
  walks: number;
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
  const now = Date.now();
  if (state.plan && state.records && !state.changes.mayHaveChanged(now)) {
    return { records: state.records, plan: state.plan };
  }
  state.changes.reading(now);
  state.walks++;
  const records = loadRecords(repo, state.cache);
  if (!state.plan || !state.records || state.version !== state.cache.version) {
    state.records = records;
    state.plan = derivePlan(records);
    state.version = state.cache.version;
  }
  return { records: state.records, plan: state.plan };
}

/**
 * Resolves once the event loop has handled the I/O that was ready when it was called: a timer
 * fires only after the poll phase in progress has run every callback of its batch, so file events
 * queued before a request arrived are then known. (Not `setImmediate`: Next.js replaces it in its
 * server with one that can run before that poll phase ends. With it, 11 answers in 1,200 that each
 * followed an edit were stale under load; with no wait at all, 1 in 400 on a quiet machine.)
 */
export function ioSettled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The records and the plan as the files are now, once pending file events are handled. */
export async function settledState(repo: string): Promise<{ records: PlanRecords; plan: Plan }> {
  await ioSettled();
  return currentState(repo);
}

/** This process wrote to the repository's records: the next read looks at the files. */
export function noteWrite(repo: string): void {
  stateOf(repo).changes.noteWrite();
}

/** How many times a repository's files were looked at by this process. */
export function walksOf(repo: string): number {
  return stateOf(repo).walks;
}

function stateOf(repo: string): RepoState {
  let state = states.get(repo);
  if (!state) {
    state = { cache: new RecordCache(), changes: new ChangeWatch(repo), version: -1, walks: 0 };
    states.set(repo, state);
  }
  return state;
}

export function contextFor(repo: string, by?: string): CapabilityContext {
  const { plan, prepare } = leasedPlan(() => currentPlan(repo));
  return {
    repo,
    by,
    cache: stateOf(repo).cache,
    plan,
    prepare,
    wrote: () => noteWrite(repo),
  };
}
