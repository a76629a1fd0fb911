import { randomBytes } from "node:crypto";
import { conflict, invalidInput, notFound, refused } from "../plan/errors";
import type { AskRow, PlanTx, SessionRow } from "../execution/store-rows";
import { durationWords, toSecond, type Actor } from "./sessions";

// Asks: a question an actor puts to a person about an issue, and the person's answer. An ask
// belongs to the asker's session on the issue (its state reads awaiting_input while the ask is
// open). It ends answered, withdrawn by its asker, or closed: its issue reached VERIFY, DONE or
// CANCELLED, or the asker's session ended. Every function here runs inside one store transaction,
// as the sessions' do; times are the store's clock. Coordination state, never a plan record.

export type AskKind = "approve" | "choose" | "answer";
export const ASK_KINDS: readonly AskKind[] = ["approve", "choose", "answer"];
export type AskState = "open" | "answered" | "withdrawn" | "closed";
export const ASK_STATES: readonly AskState[] = ["open", "answered", "withdrawn", "closed"];

/** A person's answer: yes or no (approve), one of the options (choose) or text (answer); a comment may go with any. */
export interface AskAnswer {
  yes?: boolean;
  choice?: string;
  text?: string;
  comment?: string;
}

/** An ask as every surface answers it. */
export interface AskView {
  id: string;
  issue: string;
  asker: string;
  asker_kind: "agent" | "person";
  session: string | null;
  kind: AskKind;
  question: string;
  options: string[];
  state: AskState;
  opened: string;
  /** Seconds since it was opened (until it ended, for an ended one). */
  age_s: number;
  ended_at: string | null;
  ended_by: string | null;
  answer: AskAnswer | null;
  /** Why it is closed or withdrawn, in words; null while open or once answered. */
  reason: string | null;
}

/** Ended asks stay listed this long (the issue's timeline keeps them all). */
export const ASK_ENDED_KEPT_MS = 7 * 24 * 3600 * 1000;

/** The statuses that end an issue's open asks. */
const ENDS_ASKS = new Set(["VERIFY", "DONE", "CANCELLED"]);

export const newAskId = (): string => `a-${randomBytes(6).toString("hex")}`;
const iso = (d: Date): string => d.toISOString();

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** What ends an open ask now, when something does: its issue moved on, or its asker's session ended. */
export function dueClosure(row: AskRow, status: string | undefined, session: SessionRow | undefined): string | undefined {
  if (row.ended !== null) return undefined;
  if (status !== undefined && ENDS_ASKS.has(status)) return `${row.issue} reached ${status}`;
  if (status === undefined) return `${row.issue} is no longer in the plan`;
  if (session && session.ended !== null) return `${row.asker}'s session ${session.session} on ${row.issue} was ${session.ended}${session.ended_by ? ` by ${session.ended_by}` : ""}`;
  return undefined;
}

/** An ask as the surfaces show it, with what ends it now laid over the row (every clone derives the same). */
export function askView(row: AskRow, now: Date, status: string | undefined, session: SessionRow | undefined): AskView {
  const due = dueClosure(row, status, session);
  const ended = row.ended ?? (due ? "closed" : null);
  const endedAt = row.ended_at ?? (due ? iso(now) : null);
  const until = row.ended_at ? Date.parse(row.ended_at) : now.getTime();
  return {
    id: row.ask,
    issue: row.issue,
    asker: row.asker,
    asker_kind: row.asker_kind,
    session: row.session,
    kind: row.kind,
    question: row.question,
    options: parseJson<string[]>(row.options, []),
    state: ended === null ? "open" : ended,
    opened: toSecond(row.opened),
    age_s: Math.max(0, Math.round((until - Date.parse(row.opened)) / 1000)),
    ended_at: endedAt === null ? null : toSecond(endedAt),
    ended_by: row.ended_by,
    answer: row.ended === "answered" ? parseJson<AskAnswer>(row.answer, {}) : null,
    reason: row.ended === "answered" ? null : (row.reason ?? due ?? null),
  };
}

/** The session a row belongs to, read once per transaction. */
async function sessionOf(tx: PlanTx, row: AskRow): Promise<SessionRow | undefined> {
  if (row.session === null) return undefined;
  return (await tx.sessionsOf(row.issue)).find((s) => s.session === row.session);
}

/** Write the closure a row is due (so a repeated question opens a new ask, and a late answer is refused by name). */
async function closeIfDue(tx: PlanTx, row: AskRow, status: string | undefined): Promise<AskRow> {
  const due = dueClosure(row, status, await sessionOf(tx, row));
  if (!due) return row;
  const patch = { ended: "closed" as const, ended_at: iso(await tx.clock()), ended_by: null, reason: due };
  await tx.updateAsk(row.ask, patch);
  return { ...row, ...patch };
}

export interface NewAsk {
  issue: string;
  kind: AskKind;
  question: string;
  options: string[];
}

/**
 * Open an ask of `who` on an issue, in `session` when the asker holds one. An open ask with the
 * same issue, kind and question is that ask (`repeated`): nothing new is opened.
 */
export async function openAsk(tx: PlanTx, ask: NewAsk, who: Actor, session: SessionRow | undefined, status: string | undefined): Promise<{ row: AskRow; repeated: boolean }> {
  const same = await tx.openAskLike(ask.issue, ask.kind, ask.question);
  if (same) {
    const now = await closeIfDue(tx, same, status);
    if (now.ended === null) return { row: now, repeated: true };
  }
  const row: AskRow = {
    ask: newAskId(),
    issue: ask.issue,
    session: session?.session ?? null,
    asker: who.actor,
    asker_kind: who.kind,
    kind: ask.kind,
    question: ask.question,
    options: JSON.stringify(ask.options),
    opened: iso(await tx.clock()),
    ended: null,
    ended_at: null,
    ended_by: null,
    answer: null,
    reason: null,
  };
  await tx.insertAsk(row);
  return { row, repeated: false };
}

/** An ask that is not open any more, in words: who ended it and when. */
function endedWords(row: AskRow): string {
  const when = row.ended_at ? ` at ${toSecond(row.ended_at)}` : "";
  if (row.ended === "answered") return `ask ${row.ask} was already answered by ${row.ended_by}${when}`;
  if (row.ended === "withdrawn") return `ask ${row.ask} was withdrawn by ${row.ended_by}${when}`;
  return `ask ${row.ask} is closed${when}: ${row.reason ?? "it ended"}`;
}

/** The answer an ask of this kind takes, checked: refused in words when it does not fit. */
export function checkAnswer(row: Pick<AskRow, "ask" | "kind" | "options">, answer: AskAnswer): AskAnswer {
  const given = (["yes", "choice", "text"] as const).filter((k) => answer[k] !== undefined);
  const comment = answer.comment === undefined ? {} : { comment: answer.comment };
  if (row.kind === "approve") {
    if (given.length !== 1 || answer.yes === undefined) throw invalidInput(`ask ${row.ask} asks for approval: answer yes or no (--yes or --no; yes: true or false), with an optional comment`);
    return { yes: answer.yes, ...comment };
  }
  if (row.kind === "choose") {
    const options = parseJson<string[]>(row.options, []);
    if (given.length !== 1 || answer.choice === undefined) throw invalidInput(`ask ${row.ask} asks to choose: answer one of ${options.map((o) => `'${o}'`).join(", ")} (--choice TEXT; choice)`);
    if (!options.includes(answer.choice)) throw invalidInput(`'${answer.choice}' is not an option of ask ${row.ask}; the options are ${options.map((o) => `'${o}'`).join(", ")}`);
    return { choice: answer.choice, ...comment };
  }
  if (given.length !== 1 || answer.text === undefined || answer.text.trim() === "") throw invalidInput(`ask ${row.ask} asks for an answer in words: give text (--text TEXT; text)`);
  return { text: answer.text, ...comment };
}

/**
 * Answer an open ask. Unknown, withdrawn or closed: not found (naming why); already answered: a
 * conflict naming who answered and when. Only a person answers; an agent never does, its own ask included.
 */
export async function answerAsk(tx: PlanTx, id: string, who: Actor, answer: AskAnswer, status: (issue: string) => string | undefined): Promise<AskRow> {
  const found = await tx.askById(id);
  if (!found) throw notFound(`no ask '${id}'; cockpit plan inbox lists the open ones`);
  const agent = who.kind === "agent" || (await tx.sessions("")).some((s) => s.actor === who.actor && s.kind === "agent");
  if (agent) throw refused(`${who.actor} is an agent, and an agent never answers an ask (its own included): a person answers it, in the inbox (/inbox) or with cockpit plan answer`);
  const row = await closeIfDue(tx, found, status(found.issue));
  if (row.ended === "answered") throw conflict(endedWords(row), { ask: row.ask, answered_by: row.ended_by, answered_at: row.ended_at ? toSecond(row.ended_at) : null });
  if (row.ended !== null) throw notFound(endedWords(row));
  const checked = checkAnswer(row, answer);
  const patch = { ended: "answered" as const, ended_at: iso(await tx.clock()), ended_by: who.actor, answer: JSON.stringify(checked) };
  await tx.updateAsk(row.ask, patch);
  return { ...row, ...patch };
}

/** Withdraw an open ask: its asker alone may. */
export async function withdrawAsk(tx: PlanTx, id: string, who: Actor, status: (issue: string) => string | undefined, reason?: string): Promise<AskRow> {
  const found = await tx.askById(id);
  if (!found) throw notFound(`no ask '${id}'; cockpit plan inbox lists the open ones`);
  if (found.asker !== who.actor) throw refused(`ask ${id} is ${found.asker}'s; only its asker withdraws it (a person answers it instead)`);
  const row = await closeIfDue(tx, found, status(found.issue));
  if (row.ended === "answered") throw conflict(endedWords(row), { ask: row.ask });
  if (row.ended !== null) throw notFound(endedWords(row));
  const patch = { ended: "withdrawn" as const, ended_at: iso(await tx.clock()), ended_by: who.actor, reason: reason ?? `withdrawn by ${who.actor}` };
  await tx.updateAsk(row.ask, patch);
  return { ...row, ...patch };
}

/** Close every open ask of an issue that moved on (VERIFY, DONE, CANCELLED). Answers those closed. */
export async function closeAsksOf(tx: PlanTx, issue: string, reason: string): Promise<AskRow[]> {
  const now = iso(await tx.clock());
  const closed: AskRow[] = [];
  for (const row of await tx.asks(now, issue)) {
    if (row.ended !== null) continue;
    const patch = { ended: "closed" as const, ended_at: now, ended_by: null, reason };
    await tx.updateAsk(row.ask, patch);
    closed.push({ ...row, ...patch });
  }
  return closed;
}

/** One ask as it is now, with what ends it laid over. */
export async function readAsk(tx: PlanTx, id: string, status: (issue: string) => string | undefined): Promise<AskView> {
  const row = await tx.askById(id);
  if (!row) throw notFound(`no ask '${id}'; cockpit plan inbox lists the open ones`);
  return askView(row, await tx.clock(), status(row.issue), await sessionOf(tx, row));
}

/** The asks: open ones, oldest first; with `ended`, those ended within a week too (of one issue: all of them). */
export async function listAsks(tx: PlanTx, status: (issue: string) => string | undefined, options: { issue?: string; ended?: boolean } = {}): Promise<AskView[]> {
  const now = await tx.clock();
  const since = options.issue !== undefined ? "" : options.ended ? iso(new Date(now.getTime() - ASK_ENDED_KEPT_MS)) : iso(now);
  const rows = await tx.asks(since, options.issue);
  const sessions = new Map<string, SessionRow>();
  for (const s of await tx.sessions("")) sessions.set(s.session, s);
  const views = rows.map((row) => askView(row, now, status(row.issue), row.session ? sessions.get(row.session) : undefined));
  return options.ended || options.issue !== undefined ? views : views.filter((v) => v.state === "open");
}

/** An answer in words: yes / no / the choice / the text, and the comment. */
export function answerWords(answer: AskAnswer | null): string {
  if (!answer) return "";
  const main = answer.yes !== undefined ? (answer.yes ? "yes" : "no") : (answer.choice ?? answer.text ?? "");
  return answer.comment ? `${main} (${answer.comment})` : main;
}

/** An ask's age in words. */
export const ageWords = (view: Pick<AskView, "age_s">): string => durationWords(view.age_s * 1000);
