import { EventEmitter } from "node:events";
import { leaseTtlSeconds, type CockpitConfig } from "../config";
import { notFound, refused } from "../plan/errors";
import type { Plan } from "../plan/shapes";
import { processWide } from "../process-wide";
import { appendLedger, envelope } from "../repo/ledger";
import { locked, stampNow } from "../repo/transition";
import { requireIssue } from "./leases";
import { sessionStore } from "./plan-leases";
import { renew, type Actor } from "./sessions";
import { answerAsk, answerWords, askView, closeAsksOf, listAsks, openAsk, readAsk, withdrawAsk, type AskAnswer, type AskView, type NewAsk } from "./asks";

// Asks as the plan's commands use them (lib/coordination/asks.ts): kept where the sessions are (the
// clone's SQLite store, or the shared PostgreSQL), each one opened, answered or withdrawn also a
// ledger line. A waiter in this process is woken at once; one in another process reads the store
// again every POLL_MS.

/** How often a waiter in another process than the answer's looks at the store again. */
export const POLL_MS = 250;
/** The longest one wait over HTTP or MCP lasts (a client waits again); the command line waits again by itself. */
export const MAX_WAIT_S = 50;

const answered = processWide("ask-answers", () => {
  const e = new EventEmitter();
  e.setMaxListeners(0);
  return e;
});

/** What a live listener hears of an ask: it opened, was answered, withdrawn or closed (the events stream sends it as `ask`). */
export interface AskEvent {
  id: string;
  issue: string;
  state: AskView["state"];
}

const askEvents = processWide("ask-events", () => {
  const e = new EventEmitter();
  e.setMaxListeners(0);
  return e;
});

/** Listen to the asks this process opens and ends; answers the unsubscribe. */
export function subscribeToAsks(listener: (event: AskEvent) => void): () => void {
  askEvents.on("ask", listener);
  return () => askEvents.off("ask", listener);
}

const told = (view: Pick<AskView, "id" | "issue" | "state">) => askEvents.emit("ask", { id: view.id, issue: view.issue, state: view.state } satisfies AskEvent);

const statusesOf = (plan: Plan) => {
  const statuses = new Map(plan.issues.map((i) => [i.id, i.status as string]));
  return (issue: string) => statuses.get(issue);
};

/** A ledger line of an ask's life, under the plan lock (the ledger's lines are numbered in order). */
async function ledgerLine(repo: string, by: string, event: "plan_ask" | "plan_answer" | "plan_ask_ended", payload: Record<string, string>): Promise<void> {
  try {
    await locked(repo, { by }, async () => {
      appendLedger(repo, { ...(await envelope(repo, stampNow(), by)), event, payload });
    });
  } catch (error) {
    // The ask is kept (the store is its truth); the ledger's line is what is missing.
    console.error(`[cockpit] the ledger line ${event} of ask ${payload.ask} was not written (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** One line of text, bounded: the ledger keeps the start of a long question. */
const short = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text).replace(/\s+/g, " ");

/**
 * Ask a person about an issue, as `who`; the same open question again answers that ask (`repeated`).
 * Refused on an issue that moved on (VERIFY, DONE, CANCELLED): nothing is left to decide there.
 */
export async function ask(repo: string, plan: () => Plan, config: CockpitConfig | undefined, who: Actor, input: NewAsk): Promise<{ view: AskView; repeated: boolean }> {
  const issue = requireIssue(plan(), input.issue);
  if (issue.status === "VERIFY" || issue.status === "DONE" || issue.status === "CANCELLED") {
    throw refused(`${issue.id} is ${issue.status}: its work is over, and an ask on it would close at once; ask on an issue that is READY, BLOCKED or ACTIVE`);
  }
  const s = (await sessionStore(repo, plan, config, true))!;
  const status = statusesOf(plan());
  const out = await s.write(async (tx) => {
    const current = await tx.liveSession(issue.id);
    const mine = current && current.actor === who.actor ? current : undefined;
    // An actor that opened a session with a claim is an agent, as the sessions say (docs/agents.md).
    const agent = who.kind === "agent" || mine?.kind === "agent" || (await tx.sessions("")).some((r) => r.actor === who.actor && r.kind === "agent");
    const opened = await openAsk(tx, input, { ...who, kind: agent ? "agent" : "person" }, mine, status(issue.id));
    // Asking is a word from the session: its lease runs from now.
    const session = mine && !opened.repeated ? await renew(tx, mine, leaseTtlSeconds(config)) : mine;
    return { view: askView(opened.row, await tx.clock(), status(issue.id), session), repeated: opened.repeated };
  });
  if (!out.repeated) told(out.view);
  if (!out.repeated) await ledgerLine(repo, who.actor, "plan_ask", { issue: issue.id, ask: out.view.id, kind: out.view.kind, question: short(out.view.question) });
  return out;
}

/** Answer an open ask, as a person; the waiters are woken. */
export async function answer(repo: string, plan: () => Plan, config: CockpitConfig | undefined, who: Actor, id: string, given: AskAnswer): Promise<AskView> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) throw notFound(`no ask '${id}'; cockpit plan inbox lists the open ones`);
  const status = statusesOf(plan());
  const view = await s.write(async (tx) => {
    const row = await answerAsk(tx, id, who, given, status);
    // The asker waited on a person: its lease runs from the answer.
    const session = row.session ? (await tx.sessionsOf(row.issue)).find((r) => r.session === row.session) : undefined;
    if (session && session.ended === null) await renew(tx, session, leaseTtlSeconds(config));
    return askView(row, await tx.clock(), status(row.issue), session);
  });
  answered.emit(id);
  told(view);
  await ledgerLine(repo, who.actor, "plan_answer", { issue: view.issue, ask: id, answer: short(answerWords(view.answer)) });
  return view;
}

/** Withdraw an open ask, as its asker; the waiters are woken. */
export async function withdraw(repo: string, plan: () => Plan, config: CockpitConfig | undefined, who: Actor, id: string, reason?: string): Promise<AskView> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) throw notFound(`no ask '${id}'; cockpit plan inbox lists the open ones`);
  const status = statusesOf(plan());
  const view = await s.write(async (tx) => {
    const row = await withdrawAsk(tx, id, who, status, reason);
    return askView(row, await tx.clock(), status(row.issue), undefined);
  });
  answered.emit(id);
  told(view);
  await ledgerLine(repo, who.actor, "plan_ask_ended", { issue: view.issue, ask: id, ended: "withdrawn" });
  return view;
}

/** Close the open asks of an issue that reached VERIFY, DONE or CANCELLED (after its move: reported, never thrown). */
export async function closeIssueAsks(repo: string, plan: () => Plan, config: CockpitConfig | undefined, issue: string, status: string): Promise<void> {
  try {
    const s = await sessionStore(repo, plan, config, false);
    if (!s) return;
    const closed = await s.write((tx) => closeAsksOf(tx, issue, `${issue} reached ${status}`));
    for (const row of closed) {
      answered.emit(row.ask);
      told({ id: row.ask, issue: row.issue, state: "closed" });
    }
  } catch (error) {
    console.error(`[cockpit] the asks on ${issue} were not closed (${error instanceof Error ? error.message : String(error)}); they read as closed`);
  }
}

/** The asks (open ones, or with `ended` those of the last week; of one issue: every one). Empty without a store. */
export async function asksOf(repo: string, plan: () => Plan, config: CockpitConfig | undefined, options: { issue?: string; ended?: boolean } = {}): Promise<AskView[]> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) return [];
  const status = statusesOf(plan());
  return s.read((tx) => listAsks(tx, status, options));
}

/**
 * Wait until an ask is no longer open, or `timeoutS` passes: answers the ask as it is then. A
 * waiter in this process is woken by the answer at once; the store is read again every POLL_MS
 * for an answer given elsewhere (another process, another server on the same database).
 */
export async function waitForAsk(repo: string, plan: () => Plan, config: CockpitConfig | undefined, id: string, timeoutS: number, signal?: AbortSignal): Promise<{ view: AskView; timed_out: boolean }> {
  const s = await sessionStore(repo, plan, config, false);
  if (!s) throw notFound(`no ask '${id}'; cockpit plan inbox lists the open ones`);
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const view = await s.read((tx) => readAsk(tx, id, statusesOf(plan())));
    if (view.state !== "open") return { view, timed_out: false };
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return { view, timed_out: true };
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        answered.off(id, done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(POLL_MS, left));
      answered.on(id, done);
      signal?.addEventListener("abort", done);
    });
  }
}
