import { randomBytes } from "node:crypto";
import { refused } from "../plan/errors";
import type { AskRow, PlanTx, SessionRow } from "../execution/store-rows";

// Sessions: who holds an issue. `claim` and `start` open a session of the actor on the issue, with
// a lease that lives `ttl` seconds from the last word heard (a heartbeat, evidence); the session's
// epoch grows each time the issue changes hands. Only the holder moves its issue while the lease is
// live; an expired lease is reclaimed by the next claim, and the old holder's later writes are
// refused (fenced). Every function here runs inside one store transaction (SQLite BEGIN IMMEDIATE
// or a PostgreSQL project lock), so two live holders of one issue never exist, and the store's
// unique index on the sessions not ended says so too. Times are the store's clock.

export type SessionKind = "agent" | "person";
export type SessionState = "active" | "awaiting_input" | "stale" | "expired" | "released" | "finished" | "reclaimed";
export const SESSION_STATES: readonly SessionState[] = ["active", "awaiting_input", "stale", "expired", "released", "finished", "reclaimed"];

/** Who acts on an issue, as a session names them. */
export interface Actor {
  actor: string;
  kind: SessionKind;
  /** The session the write says it is of (the id its claim or start answered): fenced by it, not by the name alone. */
  session?: string;
}

/** Ended sessions stay listed this long. */
export const ENDED_KEPT_MS = 24 * 3600 * 1000;

export const newSessionId = (): string => `s-${randomBytes(6).toString("hex")}`;
const iso = (d: Date): string => d.toISOString();
const plusSeconds = (d: Date, s: number): Date => new Date(d.getTime() + s * 1000);
/** A time as the answers show it: UTC, second precision. */
export const toSecond = (t: string): string => t.slice(0, 19) + "Z";

/** A duration in words: 40 s, 7 min, 3 h, 2 days. */
export function durationWords(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

const live = (row: SessionRow, now: Date): boolean => row.ended === null && Date.parse(row.expires) > now.getTime();

/**
 * The open ask a session waits on, if any (lib/coordination/asks.ts): while a person has the
 * question, the session holds its issue past its lease (the person answers, or releases it).
 */
async function awaitedAsk(tx: PlanTx, row: SessionRow, now: Date): Promise<AskRow | undefined> {
  if (row.ended !== null) return undefined;
  return (await tx.asks(iso(now), row.issue)).find((a) => a.ended === null && a.session === row.session);
}

/** Whether a session holds its issue now: its lease is live, or it waits on a person's answer. */
const holds = async (tx: PlanTx, row: SessionRow, now: Date): Promise<boolean> => live(row, now) || (await awaitedAsk(tx, row, now)) !== undefined;

/** The refusal of a move on an issue another session holds: who, since when, last heard from. */
export function heldBy(row: SessionRow, now: Date, override?: string): string {
  const heard = durationWords(now.getTime() - Date.parse(row.last_seen));
  return `${row.issue} is held by ${row.actor} (session ${row.session}, epoch ${row.epoch}) since ${toSecond(row.since)}, last heard from ${heard} ago; its lease ends at ${toSecond(row.expires)}: take another issue, or ask ${row.actor}${override ? `; ${override}` : ""}`;
}

/** The refusal of a write by a session the issue was taken from (fencing). */
export function fencedOut(mine: SessionRow): string {
  return `${mine.issue} was reclaimed by ${mine.ended_by ?? "another session"} at ${toSecond(mine.ended_at ?? mine.expires)}; your session ${mine.session} (epoch ${mine.epoch}) ended: claim another issue`;
}

export interface Opened {
  session: SessionRow;
  /** The session whose expired lease this one took over. */
  reclaimed?: SessionRow;
}

/**
 * Open a session of `who` on `issue`. A live lease of another session refuses; an expired one, or
 * a session left on an issue the files no longer show started (`stray`: a claim killed between
 * the lease and the record), is ended first. `ttl` is in seconds.
 */
export async function openSession(tx: PlanTx, issue: string, who: Actor, ttl: number, options: { stray?: boolean } = {}): Promise<Opened> {
  const now = await tx.clock();
  const current = await tx.liveSession(issue);
  let reclaimed: SessionRow | undefined;
  if (current) {
    if (!options.stray && (await holds(tx, current, now))) throw refused(heldBy(current, now));
    const ended = options.stray && live(current, now) ? "released" : "reclaimed";
    await tx.updateSession(current.session, { ended, ended_at: iso(now), ended_by: who.actor });
    reclaimed = { ...current, ended, ended_at: iso(now), ended_by: who.actor };
  }
  const last = (await tx.sessionsOf(issue))[0];
  const session: SessionRow = {
    session: newSessionId(),
    issue,
    actor: who.actor,
    kind: who.kind,
    epoch: (last?.epoch ?? 0) + 1,
    since: iso(now),
    last_seen: iso(now),
    expires: iso(plusSeconds(now, ttl)),
    note: null,
    ended: null,
    ended_at: null,
    ended_by: null,
  };
  await tx.insertSession(session);
  return reclaimed?.ended === "reclaimed" ? { session, reclaimed } : { session };
}

/**
 * The session a claim may take over on an ACTIVE issue: the issue's, not ended, its lease over; or,
 * when none is open, its last one if it was released (given back with its work unfinished).
 */
export async function reclaimable(tx: PlanTx, issue: string): Promise<SessionRow | undefined> {
  const current = await tx.liveSession(issue);
  if (current) return (await holds(tx, current, await tx.clock())) ? undefined : current;
  const last = (await tx.sessionsOf(issue))[0];
  return last?.ended === "released" ? last : undefined;
}

/**
 * The session whose last word the next holder should read: the issue's latest one that is not
 * live, when it was released, reclaimed or left to expire (not one whose issue moved on).
 */
export async function handoffSession(tx: PlanTx, issue: string): Promise<SessionRow | undefined> {
  const now = await tx.clock();
  for (const row of await tx.sessionsOf(issue)) {
    if (row.ended === null && live(row, now)) continue; // the holder now
    return row.ended === "finished" ? undefined : row;
  }
  return undefined;
}

/**
 * Whether `who` may write on `issue` now: refused when another session holds its live lease, or
 * when the issue was reclaimed from `who`'s own last session (a late write of a fenced holder); a
 * write that names its session (`who.session`) is refused unless that session is the issue's
 * live one, or ended with no session after it. `force` (a person's override) passes these. Answers `who`'s session on the issue, if it holds one.
 */
export async function guardIssue(tx: PlanTx, issue: string, who: Actor, options: { force?: boolean; override?: string } = {}): Promise<SessionRow | undefined> {
  const now = await tx.clock();
  const current = await tx.liveSession(issue);
  if (current && current.actor === who.actor && (who.session === undefined || who.session === current.session)) return current;
  if (options.force) {
    // An agent never overrides: one the surface names so, or one that opened a session with claim.
    if (who.kind === "agent" || (await tx.sessions("")).some((s) => s.actor === who.actor && s.kind === "agent")) {
      throw refused(`${who.actor} is an agent (it claimed work), and an agent never overrides another's session: ask a person, or wait for the lease to end (cockpit plan agents)`);
    }
    return undefined;
  }
  const sessions = await tx.sessionsOf(issue);
  if (who.session !== undefined) {
    // A write that names its session is fenced by it: one the issue was taken from, or any but the
    // issue's live one, is refused even when the same actor holds the issue again (a restarted agent).
    const named = sessions.find((s) => s.session === who.session);
    if (!named) throw refused(`session ${who.session} never held ${issue}: pass the session your claim or start of ${issue} answered (cockpit plan agents lists them)`);
    if (named.actor !== who.actor) throw refused(`session ${who.session} on ${issue} is ${named.actor}'s, not ${who.actor}'s`);
    if (named.ended === "reclaimed") throw refused(fencedOut(named));
    if (current) throw refused(superseded(named, current)); // the same session returned above
  }
  const mine = sessions.find((s) => s.actor === who.actor);
  if (mine?.ended === "reclaimed") throw refused(fencedOut(mine));
  if (current && (await holds(tx, current, now))) throw refused(heldBy(current, now, who.kind === "person" ? options.override : undefined));
  return undefined;
}

/** The refusal of a write of a session that ended, while a later one (its actor's again, or another's) holds the issue. */
function superseded(mine: SessionRow, current: SessionRow): string {
  return `your session ${mine.session} (epoch ${mine.epoch}) on ${mine.issue} ended${mine.ended ? ` (${mine.ended} at ${toSecond(mine.ended_at ?? mine.expires)})` : ""}; the issue is held now by session ${current.session} (epoch ${current.epoch}) of ${current.actor}: claim another issue`;
}

/** Renew a session's lease (and keep `note` as its latest word, when given). */
export async function renew(tx: PlanTx, row: SessionRow, ttl: number, note?: string): Promise<SessionRow> {
  const now = await tx.clock();
  const patch = { last_seen: iso(now), expires: iso(plusSeconds(now, ttl)), ...(note !== undefined ? { note } : {}) };
  await tx.updateSession(row.session, patch);
  return { ...row, ...patch };
}

/** End the issue's session that is not ended, if any: its issue reached VERIFY or DONE, or it was released. */
export async function endSession(tx: PlanTx, issue: string, ended: "released" | "finished", by: string, note?: string): Promise<SessionRow | undefined> {
  const current = await tx.liveSession(issue);
  if (!current) return undefined;
  const patch = { ended, ended_at: iso(await tx.clock()), ended_by: by, ...(note !== undefined ? { note } : {}) };
  await tx.updateSession(current.session, patch);
  return { ...current, ...patch };
}

/** A session as `plan.agents` answers it: its state, and the reason in words. */
export interface AgentSession {
  session: string;
  actor: string;
  kind: SessionKind;
  issue: string;
  state: SessionState;
  reason: string;
  epoch: number;
  since: string;
  last_seen: string;
  expires: string;
  note: string | null;
}

/**
 * A session's state now. `statusOf` is the issue's derived status: a session whose issue the
 * files show in VERIFY or DONE is finished even before its end was written (a process killed
 * after its move).
 */
export function sessionState(
  row: SessionRow,
  now: Date,
  staleAfterS: number,
  statusOf: (issue: string) => string | undefined,
  local = false,
  asking?: Pick<AskRow, "ask" | "question" | "opened">,
): { state: SessionState; reason: string } {
  const note = row.note ? `: "${row.note}"` : "";
  if (row.ended === "reclaimed") return { state: "reclaimed", reason: `reclaimed by ${row.ended_by} at ${toSecond(row.ended_at!)} after its lease ended` };
  if (row.ended === "released") return { state: "released", reason: `released by ${row.ended_by} at ${toSecond(row.ended_at!)}${note}` };
  if (row.ended === "finished") return { state: "finished", reason: `${row.issue} moved on by ${row.ended_by} at ${toSecond(row.ended_at!)}` };
  const status = statusOf(row.issue);
  if (status === "VERIFY" || status === "DONE") return { state: "finished", reason: `${row.issue} is ${status}` };
  // A clone's own store knows every start of the clone: one its files do not show holds nothing.
  if (local && status !== undefined && status !== "ACTIVE") return { state: "released", reason: `${row.issue} is ${status} in the files: its start was undone or put back` };
  const silent = now.getTime() - Date.parse(row.last_seen);
  if (asking) {
    const question = asking.question.length > 120 ? `${asking.question.slice(0, 119)}…` : asking.question;
    return { state: "awaiting_input", reason: `asked "${question}" (ask ${asking.ask}) ${durationWords(now.getTime() - Date.parse(asking.opened))} ago: a person answers it in the inbox` };
  }
  if (Date.parse(row.expires) <= now.getTime()) {
    const open = status === "ACTIVE" ? `; ${row.issue} is ACTIVE: open to reclaim` : "";
    return { state: "expired", reason: `no word for ${durationWords(silent)}; the lease ended at ${toSecond(row.expires)}${open}` };
  }
  if (silent > staleAfterS * 1000) return { state: "stale", reason: `no heartbeat for ${durationWords(silent)}; the lease ends at ${toSecond(row.expires)}` };
  return { state: "active", reason: `heard from ${durationWords(silent)} ago${note}` };
}

/** Every session not ended, then those ended within a day, with their states; newest first in each. */
export async function listSessions(tx: PlanTx, staleAfterS: number, statusOf: (issue: string) => string | undefined, local = false): Promise<AgentSession[]> {
  const now = await tx.clock();
  const rows = await tx.sessions(iso(new Date(now.getTime() - ENDED_KEPT_MS)));
  const asking = new Map<string, AskRow>();
  for (const a of await tx.asks(iso(now))) if (a.ended === null && a.session !== null && !asking.has(a.session)) asking.set(a.session, a);
  const ended = (s: AgentSession) => (s.state === "released" || s.state === "finished" || s.state === "reclaimed" ? 1 : 0);
  return rows
    .map((row): AgentSession => ({
      session: row.session,
      actor: row.actor,
      kind: row.kind,
      issue: row.issue,
      ...sessionState(row, now, staleAfterS, statusOf, local, row.ended === null ? asking.get(row.session) : undefined),
      epoch: row.epoch,
      since: toSecond(row.since),
      last_seen: toSecond(row.last_seen),
      expires: toSecond(row.expires),
      note: row.note,
    }))
    .reverse()
    .sort((a, b) => ended(a) - ended(b));
}

/** The live leases (not ended, not expired) by issue: what reads lay over the plan. */
export async function liveSessions(tx: PlanTx): Promise<Map<string, SessionRow>> {
  const now = await tx.clock();
  const rows = await tx.sessions(iso(now));
  const awaiting = new Set((await tx.asks(iso(now))).filter((a) => a.ended === null && a.session !== null).map((a) => a.session));
  return new Map(rows.filter((r) => live(r, now) || (r.ended === null && awaiting.has(r.session))).map((r) => [r.issue, r]));
}
