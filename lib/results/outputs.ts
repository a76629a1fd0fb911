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

const SessionStateSchema = z.enum(["active", "stale", "expired", "released", "finished", "reclaimed"]);

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
