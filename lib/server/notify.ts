import { createHmac } from "node:crypto";
import { notifySettings, resolveConfig, type CockpitConfig, type NotifySettings } from "../config";
import { currentPlan } from "./state";
import { planCode } from "../code/answer";
import { asksOf } from "../coordination/plan-asks";
import { agentSessions, sessionStore } from "../coordination/plan-leases";
import type { ExecutionStore, OutboxRow } from "../execution/store-rows";
import { ownersOf } from "../people/facts";
import type { Plan } from "../plan/shapes";

// Telling people (docs/inbox.md#webhooks): what happened to the plan and its actors, POSTed as one
// JSON event per receiver. What happened is read from the plan and the store as they are now, each
// thing under a key that names it once (ask.opened:a-…, issue.ready:BK-016); the store keeps every
// key with its receiver in an outbox, so an event is queued once, survives a restart, is delivered
// once however many servers share the database, and what was already so when notifying began (a
// receiver's first look) is kept as a baseline and never sent.


/** How long an event is retried before it is given up. */
export const RETRY_FOR_MS = 3600_000;
/** The longest pause between two tries. */
const MAX_BACKOFF_MS = 5 * 60_000;
/** A receiver that has not answered in this long has timed out (retried). */
const TIMEOUT_MS = 10_000;
/** While a server sends a row, the others leave it this long. */
const CLAIM_MS = 60_000;

/** One thing that happened: its key (the delivery id), its kind, a line a chat can post, and the facts. */
export interface NotifyEvent {
  key: string;
  event: string;
  text: string;
  facts: Record<string, unknown>;
}

/** Everything that happened to the plan and its actors as far as it can be seen now, each under its one key. */
export async function detectEvents(repo: string, plan: Plan, config: CockpitConfig | undefined, escalateAfterS: number): Promise<NotifyEvent[]> {
  const out: NotifyEvent[] = [];
  const project = plan.project.name || "plan";
  const getPlan = () => plan;
  for (const a of await asksOf(repo, getPlan, config, { ended: true })) {
    const facts = { ask: a.id, issue: a.issue, asker: a.asker, kind: a.kind, question: a.question, options: a.options };
    out.push({ key: `ask.opened:${a.id}`, event: "ask.opened", text: `${project}: ${a.asker} asks on ${a.issue}: ${a.question}`, facts });
    if (a.state === "answered") {
      out.push({ key: `ask.answered:${a.id}`, event: "ask.answered", text: `${project}: ${a.ended_by} answered ${a.asker} on ${a.issue}`, facts: { ...facts, answered_by: a.ended_by, answer: a.answer } });
    }
    if (a.state === "open" && a.age_s >= escalateAfterS) {
      out.push({ key: `ask.escalated:${a.id}`, event: "ask.escalated", text: `${project}: ${a.asker}'s question on ${a.issue} has waited ${Math.round(a.age_s / 3600)} h for a person: ${a.question}`, facts: { ...facts, age_s: a.age_s } });
    }
  }
  for (const s of await agentSessions(repo, getPlan, config)) {
    if (s.state !== "stale" && s.state !== "expired") continue;
    const facts = { session: s.session, actor: s.actor, issue: s.issue, state: s.state, reason: s.reason, last_seen: s.last_seen, expires: s.expires };
    const key = s.state === "stale" ? `session.stale:${s.session}:${s.last_seen}` : `session.expired:${s.session}:${s.expires}`;
    out.push({ key, event: `session.${s.state}`, text: `${project}: ${s.actor}'s session on ${s.issue} is ${s.state}: ${s.reason}`, facts });
  }
  const owners = ownersOf(repo, plan);
  for (const i of plan.issues) {
    if (i.status === "READY" && i.depends_on.length > 0) {
      out.push({ key: `issue.ready:${i.id}`, event: "issue.ready", text: `${project}: ${i.id} is READY: ${i.depends_on.join(", ")} finished (${i.title})`, facts: { issue: i.id, title: i.title, depends_on: i.depends_on, owner: owners.get(i.id) || null } });
    }
    const owner = owners.get(i.id) ?? "";
    if (owner !== "") out.push({ key: `issue.owner:${i.id}:${owner}`, event: "issue.owner", text: `${project}: ${i.id} is now ${owner}'s (${i.title})`, facts: { issue: i.id, title: i.title, owner } });
  }
  for (const m of plan.milestones) {
    if (m.status === "DONE") out.push({ key: `milestone.done:${m.id}`, event: "milestone.done", text: `${project}: milestone ${m.id} is DONE (${m.title})`, facts: { milestone: m.id, title: m.title } });
  }
  try {
    for (const f of (await planCode(repo, getPlan, {})).findings) {
      out.push({ key: `code.finding:${f.code}:${f.subject}`, event: "code.finding", text: `${project}: ${f.level} ${f.code}: ${f.message}`, facts: { level: f.level, code: f.code, subject: f.subject, message: f.message } });
    }
  } catch {
    // No git to read: no code finding to tell.
  }
  return out;
}

/**
 * Queue what is new for each receiver. A receiver the outbox has never seen gets a baseline: what
 * is so already is kept as seen (delivered_at "baseline") and not sent. Answers the rows queued to send.
 */
export async function enqueue(store: ExecutionStore, settings: Pick<NotifySettings, "urls">, events: NotifyEvent[], now = new Date()): Promise<OutboxRow[]> {
  const at = now.toISOString();
  return store.write(async (tx) => {
    const queued: OutboxRow[] = [];
    for (const url of settings.urls) {
      const baseline = !(await tx.outboxKnows(url));
      const known = await tx.outboxKeys(url);
      const rows = events
        .filter((e) => !known.has(e.key))
        .map(
          (e): OutboxRow => ({
            key: e.key,
            url,
            event: e.event,
            body: JSON.stringify({ event: e.event, delivery: e.key, at, text: e.text, ...e.facts }),
            created: at,
            attempts: 0,
            next_at: at,
            delivered_at: baseline ? "baseline" : null,
            failed: null,
          }),
        );
      // A receiver with nothing to see yet still gets its mark, so its first event is sent.
      if (baseline && rows.length === 0) rows.push({ key: "baseline", url, event: "baseline", body: "{}", created: at, attempts: 0, next_at: at, delivered_at: "baseline", failed: null });
      const added = await tx.addToOutbox(rows);
      if (!baseline) queued.push(...added);
    }
    return queued;
  });
}

/** The signature header's value: HMAC-SHA256 of the body with the secret, in hex. */
export const signatureOf = (secret: string, body: string): string => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** What one try did: delivered, refused for good (4xx), or to be tried again. */
type Try = { ok: true } | { ok: false; final: boolean; why: string };

async function post(row: OutboxRow, secret: string | undefined): Promise<Try> {
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "cockpit-notify", "x-cockpit-event": row.event, "x-cockpit-delivery": row.key };
  if (secret) headers["x-cockpit-signature-256"] = signatureOf(secret, row.body);
  try {
    const response = await fetch(row.url, { method: "POST", headers, body: row.body, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true };
    const final = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
    return { ok: false, final, why: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, final: false, why: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) };
  }
}

/** The receivers whose refusal was already logged: a 4xx is said once per URL and event. */
const logged = new Set<string>();

/**
 * Send what is due: each row is claimed first (the others leave it a minute), then POSTed; a 2xx
 * delivers it, a 4xx gives it up (logged once), anything else tries again later (1 s, 2 s, 4 s …
 * at most 5 min apart) until it is an hour old. Answers how many were delivered.
 */
export async function deliverDue(store: ExecutionStore, settings: Pick<NotifySettings, "secret">, now = () => new Date()): Promise<number> {
  const due = await store.write(async (tx) => {
    const at = now();
    const rows = await tx.outboxDue(at.toISOString(), 50);
    for (const row of rows) await tx.updateOutbox(row.key, row.url, { next_at: new Date(at.getTime() + CLAIM_MS).toISOString() });
    return rows;
  });
  let delivered = 0;
  for (const row of due) {
    const tried = await post(row, settings.secret);
    const at = now();
    if (tried.ok) {
      delivered++;
      await store.write((tx) => tx.updateOutbox(row.key, row.url, { delivered_at: at.toISOString(), attempts: row.attempts + 1 }));
      continue;
    }
    const old = at.getTime() - Date.parse(row.created) >= RETRY_FOR_MS;
    if (tried.final || old) {
      const why = tried.final ? `${tried.why}: the receiver refused it` : `${tried.why}: given up after an hour of tries`;
      await store.write((tx) => tx.updateOutbox(row.key, row.url, { failed: why, attempts: row.attempts + 1 }));
      const once = `${row.url} ${row.event} ${tried.why}`;
      if (!logged.has(once)) {
        logged.add(once);
        console.error(`[cockpit] notify ${row.url}: ${row.event} ${why}`);
      }
      continue;
    }
    const pause = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** row.attempts);
    await store.write((tx) => tx.updateOutbox(row.key, row.url, { attempts: row.attempts + 1, next_at: new Date(at.getTime() + pause).toISOString() }));
  }
  return delivered;
}

/** One look at the plan and one round of sending, for one repository. Never throws: a failure is logged. */
export async function notifyOnce(repo: string, plan: () => Plan, settings: NotifySettings, config?: CockpitConfig): Promise<void> {
  try {
    const store = (await sessionStore(repo, plan, config, true))!;
    await enqueue(store, settings, await detectEvents(repo, plan(), config, settings.escalateAfterS));
    await deliverDue(store, settings);
  } catch (error) {
    console.error(`[cockpit] notify: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Look and send every `intervalMs` until stopped; one round at a time. Answers the stop. */
export function notifyEvery(repo: string, plan: () => Plan, settings: NotifySettings, config?: CockpitConfig): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    if (stopped) return;
    await notifyOnce(repo, plan, settings, config);
    if (!stopped) timer = setTimeout(() => void round(), settings.intervalMs);
    timer?.unref();
  };
  void round();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** The serving process's notifier (instrumentation.ts): the served repository, the environment's settings and configuration. */
export function startNotifying(): void {
  const settings = notifySettings();
  const repo = process.env.COCKPIT_REPO;
  if (!settings || !repo) return;
  const config = resolveConfig();
  notifyEvery(repo, () => currentPlan(repo), settings, config);
}
