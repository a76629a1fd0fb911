import { isDeepStrictEqual } from "node:util";
import { resolveConfig, type CockpitConfig } from "../config";
import { lstatSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";
import type { CapabilityContext } from "../capabilities/capability";
import { leasedPlan } from "../coordination/plan-leases";
import { agentsOfUsersFile, kindsOf } from "./security/kinds";
import { ISSUES_DIR, LEDGER_FILE, MILESTONES_DIR, PROJECT_DIR } from "../plan/constants";
import { DerivationMemory, derivePlan } from "../plan/derive";
import { readLedger } from "../repo/ledger";
import { PLAN_EVENTS } from "../plan/events";
import { RecordCache, loadRecords, refreshRecords } from "../repo/load";
import { idProblem } from "../repo/write";
import type { PlanRecords } from "../plan/records";
import type { Plan } from "../plan/shapes";
import { processWide } from "../process-wide";

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
 * then an unchanged plan is answered without a file-system walk. The watchers name the files that
 * changed: only those are looked at again, unless a folder holds links (an edit of a link's target
 * names the target). Writes made by this process mark it too (`noteWrite`), since their events are
 * handled later. Where a folder cannot be watched, every read walks the files.
 */
class ChangeWatch {
  /** Every file must be looked at (not only the named ones). */
  private all = true;
  /** The files the watchers named since the last look. */
  private changed = new Set<string>();
  /** When every file was last looked at. */
  private checkedAt = 0;
  private watchers: FSWatcher[] = [];
  /** Record folders that held a link at the last full look. */
  private linked = new Set<string>();

  /** Who is told of changes (the pages' live updates), debounced; and the poll where nothing can be watched. */
  private listeners = new Set<() => void>();
  private notifyTimer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private version: (() => number) | undefined;

  constructor(private readonly repo: string) {}

  /**
   * Tell `listener` whenever a record changes: the same watchers the reads use, debounced. Where
   * the folders cannot be watched, `version` (the records' version after a look at the files) is
   * polled every second until they can be. Returns the unsubscribe.
   */
  subscribe(listener: () => void, version: () => number): () => void {
    this.listeners.add(listener);
    this.version = version;
    if (this.watchers.length === 0) this.arm();
    if (this.watchers.length === 0) this.startPolling();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        clearInterval(this.poll);
        clearTimeout(this.notifyTimer);
        this.poll = undefined;
      }
    };
  }

  private notify(): void {
    if (this.listeners.size === 0) return;
    clearTimeout(this.notifyTimer);
    this.notifyTimer = setTimeout(() => {
      for (const l of [...this.listeners]) l();
    }, 150);
  }

  private startPolling(): void {
    if (this.poll || this.listeners.size === 0 || !this.version) return;
    const version = this.version;
    let seen = version();
    this.poll = setInterval(() => {
      const now = version();
      if (now !== seen) {
        seen = now;
        this.notify();
      }
      // The look at the files armed the watchers again: they tell from now on.
      if (this.watchers.length > 0) {
        clearInterval(this.poll);
        this.poll = undefined;
      }
    }, 1000);
    this.poll.unref?.();
  }

  /**
   * Whether the records must be looked at again. `asked` is when the answer was asked for: the
   * time bound is measured from then (a move asks before it waits for the plan lock).
   */
  mayHaveChanged(asked: number): boolean {
    return this.fullLookDue(asked) || this.changed.size > 0;
  }

  /** Whether every file must be looked at (not only the ones the watchers named). */
  fullLookDue(asked: number): boolean {
    return this.all || this.watchers.length === 0 || asked - this.checkedAt >= REVALIDATE_MS;
  }

  /**
   * Called right before the files are read: the watchers are armed first (if they are down), so
   * any change from now on, even one during the read, means the files must be read again. Returns
   * the files to look at: undefined for every one, else the set the watchers named.
   */
  reading(now: number, asked: number): ReadonlySet<string> | undefined {
    if (this.watchers.length === 0) this.arm();
    const changed = this.changed;
    let full = this.fullLookDue(asked);
    for (const path of full ? [] : changed) {
      if (this.linked.has(dirname(path)) || lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) full = true;
    }
    this.all = false;
    this.changed = new Set();
    if (!full) return changed;
    this.checkedAt = now;
    this.linked = this.foldersWithLinks();
    return undefined;
  }

  /** This process wrote `path` (a record file), or something it does not name. */
  noteWrite(path?: string): void {
    const folders = [PROJECT_DIR, MILESTONES_DIR, ISSUES_DIR].map((dir) => join(this.repo, dir));
    if (path !== undefined && folders.includes(dirname(path))) this.changed.add(path);
    else this.all = true;
  }

  private foldersWithLinks(): Set<string> {
    const linked = new Set<string>();
    for (const dir of [PROJECT_DIR, MILESTONES_DIR, ISSUES_DIR]) {
      const path = join(this.repo, dir);
      try {
        if (readdirSync(path, { withFileTypes: true }).some((e) => e.isSymbolicLink())) linked.add(path);
      } catch {
        /* no such folder: nothing in it to follow */
      }
    }
    return linked;
  }

  private arm(): void {
    try {
      for (const dir of [PROJECT_DIR, MILESTONES_DIR, ISSUES_DIR]) {
        const folder = join(this.repo, dir);
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (name === null) this.all = true;
          else this.changed.add(`${folder}/${name}`);
          if (name === null || name.endsWith(".yaml") || name === "milestones" || name === "issues") this.notify();
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
    const wasArmed = this.watchers.length > 0;
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.all = true;
    // Pages listening are told by the poll until the watchers are armed again (and now, when a
    // watched folder was replaced: something changed).
    if (this.listeners.size > 0) {
      if (wasArmed) this.notify();
      this.startPolling();
    }
  }
}

interface RepoState {
  cache: RecordCache;
  /** What the derivations of this repository keep for the next one (its own: repositories do not evict each other). */
  memory: DerivationMemory;
  changes: ChangeWatch;
  /** How this repository's plans are derived, for its reads and its moves alike (with its memory). */
  derive: (records: PlanRecords) => Plan;
  records?: PlanRecords;
  plan?: Plan;
  /** The records a move of this process wrote and the plan it derived of them, served while the files hold the same. */
  wrote?: { records: PlanRecords; plan: Plan };
  version: number;
  /** Where this process last left the ledger: the lines after it are other writers' moves. */
  ledger?: LedgerMark;
  /** How many times the files were looked at (for tests and diagnostics), and how many of those looked at every file. */
  walks: number;
  fullWalks: number;
  derivations: number;
}

const states = processWide("served-repositories", () => new Map<string, RepoState>());

/**
 * The plan of a repository as its files are now. Parsed files are kept, keyed by identity, size
 * and modification time; the derived plan is reused only while no file changed.
 */
export function currentPlan(repo: string): Plan {
  return currentState(repo).plan;
}

/**
 * The records and the plan derived from them, as the files are now. `asked` (default now) is when
 * they were asked for; the look at every file that REVALIDATE_MS makes due is due from then.
 */
export function currentState(repo: string, asked?: number): { records: PlanRecords; plan: Plan } {
  const state = stateOf(repo);
  const now = Date.now();
  const records = !state.records || state.changes.mayHaveChanged(asked ?? now) ? readFiles(repo, state, now, asked ?? now) : state.records;
  if (!state.plan || state.version !== state.cache.version) {
    const wrote = state.wrote;
    state.plan = wrote && sameRecords(records, wrote.records) ? wrote.plan : state.derive(records);
    state.version = state.cache.version;
  }
  state.wrote = undefined;
  return { records, plan: state.plan };
}

/**
 * Whether two sets of records hold the same: the same objects, but for records read again from
 * files a move wrote, which must be equal field by field (what the move wrote and derived from is
 * what its files now hold).
 */
function sameRecords(a: PlanRecords, b: PlanRecords): boolean {
  const same = <T>(x: T, y: T) => x === y || isDeepStrictEqual(x, y);
  const sameList = <T>(x: readonly T[], y: readonly T[]) => x === y || (x.length === y.length && x.every((item, i) => same(item, y[i])));
  return same(a.project, b.project) && sameList(a.milestones, b.milestones) && sameList(a.issues, b.issues) && sameList(a.loadFindings, b.loadFindings);
}

/**
 * Look at the files (every one, or those the watchers named) and keep the records; the plan is
 * derived when it is asked for. The records are kept as they were while no file changed (the same
 * objects for the same files).
 */
function readFiles(repo: string, state: RepoState, now: number, asked: number): PlanRecords {
  const only = state.changes.reading(now, asked);
  state.walks++;
  if (!only) {
    state.fullWalks++;
    // Every file is looked at after this mark: only later ledger lines can name a newer write.
    state.ledger = ledgerMark(repo);
  }
  const records = only
    ? ((state.records && refreshRecords(repo, state.cache, state.records, only)) ?? loadRecords(repo, state.cache, (path) => !only.has(path)))
    : loadRecords(repo, state.cache);
  if (!state.records || state.version !== state.cache.version) state.records = records;
  return state.records;
}

interface LedgerMark {
  ino: number;
  size: number;
}

function ledgerMark(repo: string): LedgerMark | undefined {
  const st = statSync(join(repo, LEDGER_FILE), { throwIfNoEntry: false });
  return st ? { ino: st.ino, size: st.size } : undefined;
}

/**
 * The records other writers' moves wrote since `mark`: every Cockpit writer appends one ledger
 * line naming its record, inside the plan lock, after writing it. Undefined when that cannot be
 * told (no mark yet, the ledger replaced or cut, a line that is not a plan event): every file then.
 */
function movedSince(repo: string, mark: LedgerMark | undefined, now: LedgerMark | undefined): string[] | undefined {
  if (!mark || !now) return mark === now ? [] : undefined;
  if (now.ino !== mark.ino || now.size < mark.size) return undefined;
  if (now.size === mark.size) return [];
  // A line that is not JSON (torn) may hide a record's write: every file then.
  const { entries, skipped } = readLedger(repo, mark.size);
  if (skipped > 0) return undefined;
  const ids: string[] = [];
  for (const entry of entries) {
    if (typeof entry.event !== "string" || !Object.hasOwn(PLAN_EVENTS, entry.event)) return undefined;
    if (typeof entry.issue !== "string" || idProblem(entry.issue) !== undefined) return undefined;
    ids.push(entry.issue);
  }
  return ids;
}

/**
 * What a move made by this process uses, inside the plan lock: the served records (file events
 * were handled as the request came in, as for a read) with the records other writers' ledger
 * lines name since this process's last move read again. The lock orders Cockpit's writers, and
 * their lines name exactly what they wrote, so no wait for their file events is needed (nor do
 * those events have to reach this process: a network file system). The file a move wrote is noted.
 */
function moveOptions(repo: string, wrote: () => void): NonNullable<CapabilityContext["moves"]> {
  const state = stateOf(repo);
  let asked: number | undefined;
  return {
    derive: (records) => state.derive(records),
    before: () => {
      // A look at every file that is due is taken now, before the wait, not inside the lock.
      asked = Date.now();
      if (!state.records || state.changes.fullLookDue(asked)) readFiles(repo, state, asked, asked);
    },
    current: async () => {
      const mark = ledgerMark(repo);
      const moved = movedSince(repo, state.ledger, mark);
      if (moved === undefined) state.changes.noteWrite();
      for (const id of moved ?? []) {
        // The line names the record, not its folder (evidence may be a milestone's).
        const isIssue = state.records?.issues.some((r) => r.id === id);
        if (isIssue !== false) state.changes.noteWrite(join(repo, ISSUES_DIR, `${id}.yaml`));
        if (isIssue !== true) state.changes.noteWrite(join(repo, MILESTONES_DIR, `${id}.yaml`));
      }
      state.ledger = mark;
      return currentState(repo, asked);
    },
    written: (path) => {
      state.changes.noteWrite(path);
      state.ledger = ledgerMark(repo);
      wrote();
    },
    derived: (records, plan) => {
      state.wrote = { records, plan };
    },
  };
}

/**
 * Resolves once the event loop has handled the I/O that was ready when it was called: once a whole
 * poll phase has run after the call. One timer is not enough: called after the poll phase of a turn
 * (from an immediate, say), a timer already due fires at the start of the next turn, before its
 * poll phase. The second timer, set while the first fires, is not due until the turn after, so a
 * poll phase lies between the call and the answer whatever phase the call came from. (A test that
 * edits two repositories in turn read one stale answer in 2 to 8 runs under load with one timer.)
 * Not `setImmediate`: Next.js replaces it in its server with one that can run before the poll
 * phase ends. With it, 11 answers in 1,200 that each followed an edit were stale under load; with
 * no wait at all, 1 in 400 on a quiet machine.
 */
export function ioSettled(): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0));
}

/** The records and the plan as the files are now, once pending file events are handled. */
export async function settledState(repo: string): Promise<{ records: PlanRecords; plan: Plan }> {
  await ioSettled();
  return currentState(repo);
}

/**
 * Tell `listener` whenever a record of `repo` changes (the pages' live updates), through the same
 * watchers the served state reads by. Returns the unsubscribe.
 */
export function subscribeToChanges(repo: string, listener: () => void): () => void {
  const state = stateOf(repo);
  return state.changes.subscribe(listener, () => {
    currentState(repo);
    return state.cache.version;
  });
}

/** This process wrote to the repository's records: the next read looks at the files. */
export function noteWrite(repo: string): void {
  stateOf(repo).changes.noteWrite();
}

/** How many times a repository's files were looked at by this process. */
export function walksOf(repo: string): number {
  return stateOf(repo).walks;
}

/** How many of those looks were at every file (not only those the watchers named). */
export function fullWalksOf(repo: string): number {
  return stateOf(repo).fullWalks;
}

/** How many plans this process derived of a repository's records (reads and moves). */
export function derivationsOf(repo: string): number {
  return stateOf(repo).derivations;
}

function stateOf(repo: string): RepoState {
  let state = states.get(repo);
  if (!state) {
    const memory = new DerivationMemory();
    const made: RepoState = {
      cache: new RecordCache(),
      memory,
      changes: new ChangeWatch(repo),
      derive: (records) => {
        made.derivations++;
        return derivePlan(records, memory);
      },
      version: -1,
      walks: 0,
      fullWalks: 0,
      derivations: 0,
    };
    state = made;
    states.set(repo, state);
  }
  return state;
}

/** The context of one call on a served clone; `config` is what the surface was started with (default: the environment's). */
export function contextFor(repo: string, by?: string, config: CockpitConfig = resolveConfig()): CapabilityContext {
  // A move that says which file it wrote spares the next read a look at every file.
  let reported = false;
  const { plan, prepare } = leasedPlan(repo, () => currentPlan(repo), config);
  return {
    repo,
    by,
    // A users file's agent, or an MCP client's session name, is an agent (docs/agents.md).
    ...(by !== undefined ? { kind: kindsOf([by]).get(by) } : {}),
    knownAgents: () => agentsOfUsersFile(),
    config,
    cache: stateOf(repo).cache,
    plan,
    prepare,
    moves: moveOptions(repo, () => (reported = true)),
    wrote: () => {
      if (!reported) noteWrite(repo);
      reported = false;
    },
  };
}
