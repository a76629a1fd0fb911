import { z } from "zod";
import { CodeFindingSchema } from "../code/shapes";
import { EvidenceResultSchema, TransitionResultSchema } from "../repo/move-shapes";
import { HandoffSchema } from "../coordination/handoff";

// Outputs of the writing capabilities (the read outputs are the plan's own shapes). A move's and an
// evidence entry's answers are declared by the moves themselves (lib/repo/move-shapes.ts).

export { EvidenceResultSchema, TransitionResultSchema };

/** The session a claim opened (docs/agents.md): its id, its epoch, and whose expired lease it took over. */
export const ClaimSessionFields = {
  session: z.string().optional().describe("The session the claim opened: heartbeats and moves of this actor on the issue renew it."),
  epoch: z.number().int().optional().describe("Grows each time the issue changes hands; a write of an older epoch is refused."),
  reclaimed_from: z.object({ actor: z.string(), session: z.string(), epoch: z.number().int() }).optional().describe("The abandoned session (its lease expired, or released) this claim took over."),
  handoff: HandoffSchema.optional(),
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })).optional().describe("Issues the claim passed over, and why; --any (any: true) takes them."),
};

/** A claim's move, with the code findings of the issue it took (commits already working on it), and its session. */
export const ClaimResultSchema = TransitionResultSchema.extend({ code_findings: z.array(CodeFindingSchema), ...ClaimSessionFields });

export const ReleaseResultSchema = z.object({
  issue: z.string(),
  /** Whether a session was ended (false: nobody held the issue). */
  released: z.boolean(),
  /** Whose session it was. */
  holder: z.string().optional(),
  session: z.string().optional(),
});

const SessionStateSchema = z.enum(["active", "awaiting_input", "stale", "expired", "released", "finished", "reclaimed"]);

export const AgentSessionSchema = z.object({
  session: z.string(),
  actor: z.string(),
  kind: z.enum(["agent", "person"]),
  issue: z.string(),
  state: SessionStateSchema,
  reason: z.string(),
  epoch: z.number().int(),
  since: z.string(),
  last_seen: z.string(),
  expires: z.string(),
  note: z.string().nullable(),
});

export const AgentsResultSchema = z.object({
  sessions: z.array(AgentSessionSchema),
  stale_after_s: z.number().int(),
  lease_ttl_s: z.number().int(),
});

export const HeartbeatResultSchema = z.object({
  issue: z.string(),
  session: z.string(),
  epoch: z.number().int(),
  last_seen: z.string(),
  expires: z.string(),
  note: z.string().nullable(),
});

/** An answer to an ask: yes or no, one of its options, or text; a comment may go with any. */
export const AskAnswerSchema = z.object({
  yes: z.boolean().optional(),
  choice: z.string().optional(),
  text: z.string().optional(),
  comment: z.string().optional(),
});

/** An ask (docs/inbox.md): a question put to a person about an issue, and its answer once given. */
export const AskSchema = z.object({
  id: z.string(),
  issue: z.string(),
  asker: z.string(),
  asker_kind: z.enum(["agent", "person"]),
  session: z.string().nullable(),
  kind: z.enum(["approve", "choose", "answer"]),
  question: z.string(),
  options: z.array(z.string()),
  state: z.enum(["open", "answered", "withdrawn", "closed"]),
  opened: z.string(),
  age_s: z.number().int(),
  ended_at: z.string().nullable(),
  ended_by: z.string().nullable(),
  answer: AskAnswerSchema.nullable(),
  reason: z.string().nullable(),
});

export const AskResultSchema = AskSchema.extend({
  repeated: z.boolean().describe("True when an open ask with the same issue, kind and question was answered instead of a new one."),
});

export const WaitResultSchema = AskSchema.extend({
  timed_out: z.boolean().describe("True when the wait ended with the ask still open: wait again."),
  max_wait_s: z.number().int().describe("The longest one wait lasts here."),
});

export const InboxResultSchema = z.object({
  asks: z.array(AskSchema).describe("Open asks, oldest first (with an issue: every ask of it)."),
  sessions: z.array(AgentSessionSchema).describe("Sessions a person should look at: stale, expired (release or reclaim)."),
  verify: z.array(z.object({ id: z.string(), title: z.string(), verified_at: z.string(), waiting_s: z.number().int() })).describe("Issues in VERIFY for longer than a day, longest first."),
  code_findings: z.array(CodeFindingSchema).describe("What the code says against the plan (work without a start, merged but not done)."),
  count: z.number().int().describe("How many things need a person: every entry above."),
});
