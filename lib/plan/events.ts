import { ownValue } from "./own";

// The event vocabulary the ledger accepts from Cockpit: each plan event and the payload keys it
// must carry beyond the envelope (ts, event, head, branch, by). A line that does not fit is refused
// before anything is written.
export const PLAN_EVENTS: Readonly<Record<string, readonly string[]>> = {
  plan_start: ["issue"],
  plan_verify: ["issue"],
  plan_done: ["issue"],
  plan_evidence: ["issue", "covers", "type"],
  /** Pre-seal stamps admitted by `cockpit plan adopt` (listed in `unsealed_stamps`). */
  plan_adopt: ["issue", "stamps"],
  /** A record created or edited by plan.create / plan.edit; `changes` lists them in words. */
  plan_record_created: ["record", "kind", "changes"],
  plan_record_edited: ["record", "kind", "changes"],
  /** A move or an edit undone by plan.undo: `undoes` is its ledger line's number, `undone` its event. */
  plan_undo: ["record", "undoes", "undone"],
  /** A record created by plan.import: the source (`<format>:<path>`) and the source's own id; `stamps` lists the sealed stamps it brought. */
  plan_imported: ["record", "kind", "source", "source_id"],
  /** An ACTIVE issue whose lease expired, taken over by a claim (the record is not stamped again): whose session it was, and the new epoch. */
  plan_reclaim: ["issue", "previous", "previous_session", "epoch"],
  /** An ask opened on an issue (lib/coordination/asks.ts): its id, kind and the start of its question. */
  plan_ask: ["issue", "ask", "kind", "question"],
  /** An ask answered by a person: the answer in words. */
  plan_answer: ["issue", "ask", "answer"],
  /** An ask withdrawn by its asker. */
  plan_ask_ended: ["issue", "ask", "ended"],
};

/** Lines about coordination (sessions, asks), not about a record's bytes: a commit's message leaves them out. */
export const COORDINATION_EVENTS: ReadonlySet<string> = new Set(["plan_reclaim", "plan_ask", "plan_answer", "plan_ask_ended"]);

export const ENVELOPE_KEYS = ["ts", "event", "head", "branch", "by", "session"] as const;

/** Why a ledger line may not be written, or undefined when it may. */
export function eventProblem(event: string, payload: Readonly<Record<string, string>>): string | undefined {
  const required = ownValue(PLAN_EVENTS, event);
  if (!required) {
    return `unregistered event '${event}'; declare it in lib/plan/events.ts or use one of: ${Object.keys(PLAN_EVENTS).join(", ")}`;
  }
  for (const k of required) {
    if (!Object.hasOwn(payload, k)) return `event '${event}' is missing the required field '${k}'`;
  }
  for (const k of Object.keys(payload)) {
    if ((ENVELOPE_KEYS as readonly string[]).includes(k)) return `event '${event}' repeats the envelope key '${k}' in its payload`;
  }
  return undefined;
}
