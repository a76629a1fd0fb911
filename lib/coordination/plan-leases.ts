import { leaseTtlSeconds, staleAfterSeconds, type CockpitConfig } from "../config";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { processWide } from "../process-wide";
import { refused } from "../plan/errors";
import { loadPlan } from "../repo";
import type { Move } from "../plan/seal";
import type { WriteOptions } from "../repo/transition";
import type { Plan, PlanIssue } from "../plan/shapes";
import { requireState } from "../repo/state-path";
import { isClientSessionName } from "../repo/identity";
import type { ExecutionStore, PlanTx, SessionRow } from "../execution/store-rows";
import { STORE_FILE, STORE_STATE, openExistingSqliteStore, openSqliteStore } from "../execution/store-sqlite";
import { openPostgresStore } from "../execution/store-postgres";
import { databaseUrl, redactUrl } from "./database";
import { projectKey, type Lease } from "./leases";
import { endSession, guardIssue, handoffSession, listSessions, liveSessions, openSession, reclaimable, renew, toSecond, type Actor, type AgentSession, type Opened } from "./sessions";
import { handoffOf, type Handoff } from "./handoff";
import { closeAsksOf } from "./asks";

// Sessions as the plan's commands use them (lib/coordination/sessions.ts): `start` and `claim`
// open one inside the plan lock before the record is written; `verify`, `done`, evidence and
// release are refused to anyone but the holder while its lease is live; VERIFY or DONE ends the
// session. They live in the clone's SQLite store (.ai/local/state/cockpit.db) by default, and in
// the shared PostgreSQL when one is configured: coordination state, never plan records.

/** Where the sessions are: the database when one is configured, else the clone's SQLite file (made when `create`). */
export async function sessionStore(repo: string, plan: () => Plan, config: CockpitConfig | undefined, create: boolean): Promise<ExecutionStore | undefined> {
  const url = databaseUrl(config);
  if (url) return openPostgresStore(url, repo, projectKey(plan()));
  // A read never makes the store, nor asks git about a store that is not there.
  if (!create && !existsSync(join(repo, STORE_FILE))) return undefined;
  await requireState(repo, STORE_STATE);
  return create ? openSqliteStore(repo) : openExistingSqliteStore(repo);
}

/** A clone's own file knows every start of the clone: a session on an issue its files show unstarted is a stray. */
const shared = (config?: CockpitConfig) => databaseUrl(config) !== undefined;

/** Who acts, with their kind: an agent by the surface's word (a users file, an MCP client's session name), or by opening with claim. */
export function actorOf(by: string | undefined, kind: Actor["kind"] | undefined, claiming = false, session?: string): Actor {
  const actor = by ?? "unknown";
  return { actor, kind: kind ?? (claiming || isClientSessionName(actor) ? "agent" : "person"), ...(session !== undefined ? { session } : {}) };
}

/** What a start or a claim opened, for its answer; `previous`: the session a reclaim took the issue from. */
export interface OpenedBy {
  opened?: Opened;
  previous?: SessionRow;
  /** The candidates a claim passed over, and why (`claim --any` takes them). */
  skipped?: { id: string; reason: string }[];
}

/** Why a claim passes an issue over, or undefined when it may take it; and whether it comes first (the claimer's own). */
export type ClaimPolicy = (issue: PlanIssue, agents: ReadonlySet<string>) => { skip?: string; own?: boolean };

/**
 * The session hooks of the moves: `start` opens a session (refused when another one holds the
 * issue), `verify` and `done` are refused to anyone but the holder, and `choose` opens a session on
 * the first READY candidate nobody holds. `reclaim` takes over the first ACTIVE candidate whose
 * lease has expired. `out.opened` is what was opened.
 */
export function leaseWriteOptions(
  repo: string,
  plan: () => Plan,
  config: CockpitConfig | undefined,
  who: Actor,
  out: OpenedBy = {},
  options: { force?: boolean; policy?: ClaimPolicy } = {},
): Pick<WriteOptions, "beforeWrite" | "choose" | "reclaim"> {
  const override = "a person may pass --force --reason TEXT (force and reason over HTTP and MCP)";
  // The claim's policy: the claimer's own issues first, those it must leave out named in `out.skipped`.
  const ordered = async (tx: PlanTx, candidates: PlanIssue[]): Promise<PlanIssue[]> => {
    if (!options.policy) return candidates;
    const agents = new Set((await tx.sessions("")).filter((r) => r.kind === "agent").map((r) => r.actor));
    const own: PlanIssue[] = [];
    const rest: PlanIssue[] = [];
    for (const c of candidates) {
      const verdict = options.policy(c, agents);
      if (verdict.skip) {
        out.skipped ??= [];
        if (!out.skipped.some((s) => s.id === c.id)) out.skipped.push({ id: c.id, reason: verdict.skip });
      } else (verdict.own ? own : rest).push(c);
    }
    return [...own, ...rest];
  };
  const ttl = leaseTtlSeconds(config);
  // Only an opening makes the store: a guard or a reclaim with no store has no session to find.
  const store = (create = true) => sessionStore(repo, plan, config, create);
  return {
    beforeWrite: async (issue, move) => {
      // A claim opened its session when it chose the issue.
      if (move === "start" && out.opened?.session.issue === issue.id) return;
      const s = await store(move === "start");
      if (move === "start") out.opened = await s!.write((tx) => openSession(tx, issue.id, who, ttl, { stray: !shared(config) }));
      else await s?.write((tx) => guardIssue(tx, issue.id, who, { ...options, override }));
    },
    choose: async (all) => {
      const s = await store();
      return s!.write(async (tx) => {
        const candidates = await ordered(tx, all);
        for (const c of candidates) {
          const current = await tx.liveSession(c.id);
          if (current && Date.parse(current.expires) > (await tx.clock()).getTime() && shared(config)) continue;
          out.opened = await openSession(tx, c.id, who, ttl, { stray: !shared(config) });
          return c;
        }
        if (out.skipped?.length && candidates.length === 0) {
          const why = out.skipped.map((s) => `${s.id} (${s.reason})`).join(", ");
          throw refused(`no READY issue is left for ${who.actor}: ${why}; claim --any (any: true) takes them`);
        }
        return undefined;
      });
    },
    reclaim: async (all) => {
      const s = await store(false);
      if (!s) return undefined;
      return s.write(async (tx) => {
        const candidates = await ordered(tx, all);
        for (const c of candidates) {
          const previous = await reclaimable(tx, c.id);
          if (!previous) continue;
          out.previous = previous;
          out.opened = await openSession(tx, c.id, who, ttl);
          return c;
        }
        return undefined;
      });
    },
  };
}

/**
 * A move refused after its session was opened (a record that could not be written, a ledger line
 * that could not be appended): the session goes, and the one a reclaim took over is open again, so
 * the refusal leaves the sessions as they were. A start whose record was written keeps its session
 * (the issue is ACTIVE: it has a holder). A store that cannot be used is reported: the session then
 * ends at its expiry.
 */
export async function undoOpened(repo: string, plan: () => Plan, out: OpenedBy, config?: CockpitConfig): Promise<void> {
  const opened = out.opened;
  if (!opened) return;
  const started = !opened.reclaimed && !out.previous && loadPlan(repo).issues.find((i) => i.id === opened.session.issue)?.status === "ACTIVE";
  if (started) return;
  try {
    const s = await sessionStore(repo, plan, config, false);
    await s?.write(async (tx) => {
      await tx.deleteSession(opened.session.session);
      // A reclaimed session is open again (a released one stays released).
      if (opened.reclaimed) await tx.updateSession(opened.reclaimed.session, { ended: null, ended_at: null, ended_by: null });
    });
  } catch (error) {
    console.error(`[cockpit] the session on ${opened.session.issue} of a refused move was not removed (${error instanceof Error ? error.message : String(error)}); it ends at its expiry`);
  }
  out.opened = undefined;
  out.previous = undefined;
}

/** Refuse a write on an issue another session holds (or that was reclaimed from `who`); renew `who`'s own. */
export async function guardWrite(repo: string, plan: () => Plan, issue: string, who: Actor, config?: CockpitConfig, options: { force?: boolean } = {}): Promise<void> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) return;
  await s.write((tx) => guardIssue(tx, issue, who, options));
}

/**
 * After a move: VERIFY or DONE ends the issue's session and closes its open asks; evidence renews the holder's. The record
 * is already written, so a store that cannot be used is reported, not thrown: the session then
 * ends at its expiry (and reads as finished, its issue being VERIFY or DONE).
 */
export async function afterIssueWrite(repo: string, plan: () => Plan, issue: string, move: Move | "evidence", who: Actor, config?: CockpitConfig): Promise<void> {
  try {
    const s = await sessionStore(repo, plan, config, false);
    if (!s) return;
    await s.write(async (tx) => {
      if (move === "verify" || move === "done") {
        await endSession(tx, issue, "finished", who.actor);
        await closeAsksOf(tx, issue, `${issue} reached ${move === "verify" ? "VERIFY" : "DONE"}`);
      }
      else {
        const current = await tx.liveSession(issue);
        if (current && current.actor === who.actor) await renew(tx, current, leaseTtlSeconds(config));
      }
    });
  } catch (error) {
    console.error(`[cockpit] the session on ${issue} was not updated (${error instanceof Error ? error.message : String(error)}); it ends at its expiry`);
  }
}

/** A heartbeat from an actor who holds no session on the issue (or a clone with no store yet). */
const noSession = (issue: string) => refused(`no session of yours holds ${issue}: a heartbeat renews the session a claim or a start opened (cockpit plan claim, cockpit plan start ${issue})`);

/** A heartbeat: renew `who`'s session on the issue and keep the note; refused when `who` holds none. */
export async function heartbeat(repo: string, plan: () => Plan, issue: string, who: Actor, note: string | undefined, config?: CockpitConfig): Promise<SessionRow> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) throw noSession(issue);
  return s.write(async (tx) => {
    const mine = await guardIssue(tx, issue, who);
    if (!mine) {
      throw noSession(issue);
    }
    return renew(tx, mine, leaseTtlSeconds(config), note);
  });
}

/** End the issue's session: `who`'s own, or with `force` whoever's. Answers the session ended, if any. */
export async function releaseSession(repo: string, plan: () => Plan, issue: string, who: Actor, options: { force?: boolean; note?: string }, config?: CockpitConfig): Promise<SessionRow | undefined> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) return undefined;
  return s.write(async (tx) => {
    await guardIssue(tx, issue, who, { force: options.force, override: "a person may pass --force" });
    return endSession(tx, issue, "released", who.actor, options.note);
  });
}

/** What the issue's last holder left the next one (docs/agents.md), when its last session ended unfinished. */
export async function issueHandoff(repo: string, plan: () => Plan, issue: string, config?: CockpitConfig): Promise<Handoff | undefined> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) return undefined;
  const row = await s.read((tx) => handoffSession(tx, issue));
  return row ? handoffOf(repo, plan(), row) : undefined;
}

/** Every session with its state (plan.agents); empty when the clone has no store yet. */
export async function agentSessions(repo: string, plan: () => Plan, config?: CockpitConfig): Promise<AgentSession[]> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) return [];
  const statuses = new Map(plan().issues.map((i) => [i.id, i.status]));
  return s.read((tx) => listSessions(tx, staleAfterSeconds(config), (id) => statuses.get(id), !shared(config)));
}

const warned = processWide("lease-warnings", () => new Set<string>());

/**
 * The live leases for a read, or undefined: no store yet, or one that cannot be reached (then
 * reads answer from the files alone, and the first failure is logged).
 */
export async function leasesForRead(repo: string, plan: () => Plan, config?: CockpitConfig): Promise<Map<string, Lease> | undefined> {
  try {
    const s = await sessionStore(repo, plan, config, false);
    if (!s) return undefined;
    const rows = await s.read((tx) => liveSessions(tx));
    // A clone's own store knows every start of the clone: a session on an issue its files do not
    // show ACTIVE holds nothing (a start undone, a record put back by hand). A shared one's may be
    // another clone's start, not pulled yet.
    const active = shared(config) ? undefined : new Set(plan().issues.filter((i) => i.status === "ACTIVE").map((i) => i.id));
    return new Map([...rows].filter(([issue]) => !active || active.has(issue)).map(([issue, r]) => [issue, { holder: r.actor, since: toSecond(r.since), expires: toSecond(r.expires) }]));
  } catch (error) {
    const url = databaseUrl(config);
    const key = url ? redactUrl(url) : repo;
    if (!warned.has(key)) {
      warned.add(key);
      console.error(`[cockpit] ${error instanceof Error ? error.message : String(error)}; answering from the files alone`);
    }
    return undefined;
  }
}

/** The plan with `lease` on each issue a live session holds: an overlay on the derivation, never a write. */
export function overlayLeases(plan: Plan, leases: ReadonlyMap<string, Lease>): Plan {
  if (leases.size === 0) return plan;
  let touched = false;
  const issues = plan.issues.map((issue): PlanIssue => {
    const lease = leases.get(issue.id);
    if (!lease) return issue;
    touched = true;
    return { ...issue, lease };
  });
  return touched ? { ...plan, issues } : plan;
}

/** A plan getter with the leases laid over it, and the `prepare` that fetches them. */
export function leasedPlan(repo: string, derived: () => Plan, config?: CockpitConfig): { plan: () => Plan; prepare: () => Promise<void> } {
  let leases: Map<string, Lease> | undefined;
  return {
    plan: () => (leases ? overlayLeases(derived(), leases) : derived()),
    prepare: async () => {
      // Without a store there are no leases, and the plan is not derived here: a query that
      // derives it while git reads (plan.code) keeps that overlap.
      if (!shared(config) && !existsSync(join(repo, STORE_FILE))) return;
      leases = await leasesForRead(repo, derived, config);
    },
  };
}

/**
 * Starts undone (a following server's command the remote decided against, or plan.undo): their
 * sessions go, as the starts did. The issue is free at once for another clone, and a session that
 * never held a start is no abandoned work a claim would take over (a released one would be). A
 * store that cannot be used is reported, not thrown: the undo is already done.
 */
export async function releaseUndoneStarts(repo: string, plan: () => Plan, issues: readonly string[], config?: CockpitConfig): Promise<void> {
  if (issues.length === 0) return;
  try {
    const s = await sessionStore(repo, plan, config, false);
    if (!s) return;
    await s.write(async (tx) => {
      for (const issue of issues) {
        const current = await tx.liveSession(issue);
        if (current) await tx.deleteSession(current.session);
      }
    });
  } catch (error) {
    console.error(`[cockpit] the sessions on ${issues.join(", ")} were not released after their starts were undone (${error instanceof Error ? error.message : String(error)}); they end at their expiry`);
  }
}

export { projectKey };
