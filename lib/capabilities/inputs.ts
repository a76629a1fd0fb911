import { z } from "zod";
import { ISSUE_STATUSES } from "../plan/constants";

// Input shapes shared by several capabilities. Strict objects: a misspelt field is refused, never
// silently dropped.

const id = (what: string) =>
  z
    .string()
    .min(1, `${what} is an id, not empty`)
    .max(200, `${what} is at most 200 characters`)
    .describe(`${what} id, as its file is named`);

export const EmptyInput = z.strictObject({});

/** A command's idempotency key: the same key again answers the first outcome and writes nothing. */
export const IdempotencyKeyField = z
  .string()
  .min(1, "idempotency_key is not empty")
  .max(200, "idempotency_key is at most 200 characters")
  .describe("Any unique text per intended move (a UUID): a retry with the same key answers the first outcome and writes nothing.");

/** A revision of the plan (`at`): what every read capability accepts to answer from the past. */
export const RevisionField = z
  .string()
  .min(1, "at is a revision, not empty")
  .max(200, "at is at most 200 characters")
  .describe("Answer from this git revision (sha, branch, tag, HEAD~3) or date/ISO time; absent: the files as they are now.");

export const AtInput = z.strictObject({ at: RevisionField.optional() });

export const MilestoneFilterInput = z.strictObject({
  milestone: z.string().max(200).optional().describe("Only this milestone (next: start here, then widen)."),
  at: RevisionField.optional(),
});

export const IssueFilterInput = z.strictObject({
  milestone: z.string().max(200).optional().describe("Only issues of this milestone."),
  // An enum, so the document refuses what the server refuses (a made-up status is 400 either way).
  status: z
    .enum(ISSUE_STATUSES, { error: `status must be one of ${ISSUE_STATUSES.join(", ")}` })
    .optional()
    .describe(`Only issues in this derived status: ${ISSUE_STATUSES.join(", ")}.`),
  wave: z.number().int().min(0, "wave must be 0 or more").max(4294967295, "wave is at most 4294967295").optional().describe("Only issues in this wave."),
  limit: z.number().int().min(0, "limit must be 0 or more").max(4294967295, "limit is at most 4294967295").optional().describe("At most this many issues, the first in order; total still counts every match."),
  at: RevisionField.optional(),
});

export const RecordInput = z.strictObject({ id: id("A milestone or issue"), at: RevisionField.optional() });

/** The session a write says it is of: fenced by it (docs/agents.md). */
const sessionField = z
  .string()
  .regex(/^s-[0-9a-f]{12}$/, "session is the id a claim or a start answered (s- and 12 hex digits)")
  .optional()
  .describe("The session your claim or start answered: refused once the issue is held by a later session (fencing).");

export const TransitionInput = z.strictObject({
  issue: id("The issue"),
  transition: z.enum(["start", "verify", "done"]).describe("start, verify or done."),
  force: z.boolean().optional().describe("verify or done an issue another actor's session holds (a person, with reason; never an agent)."),
  reason: z.string().min(1).max(500, "reason is at most 500 characters").optional().describe("Why force: kept in the ledger line."),
  session: sessionField,
  idempotency_key: IdempotencyKeyField.optional(),
});

export const EvidenceInput = z
  .strictObject({
    record: id("The issue or milestone"),
    covers: z.string().min(1).max(200).describe("The required evidence token this proves."),
    type: z.enum(["test", "build", "ci", "artifact", "manual"]),
    command: z.string().min(1).max(10_000).optional().describe("The command that proves it."),
    artifact: z.string().min(1).max(10_000).optional().describe("The artifact it produced."),
    result: z.string().max(10_000).optional().describe("What the command or artifact showed."),
    session: sessionField,
    idempotency_key: IdempotencyKeyField.optional(),
  })
  .refine((v) => v.command !== undefined || v.artifact !== undefined, {
    message: "give command or artifact: narrative is not evidence",
  })
  .refine((v) => !(v.command !== undefined && v.artifact !== undefined), {
    message: "give command or artifact, not both",
  })
  .meta({ oneOf: [{ required: ["command"] }, { required: ["artifact"] }] });

export const ClaimInput = z.strictObject({
  issue: z.string().min(1, "issue is an id, not empty").max(200, "issue is at most 200 characters").optional().describe("This issue only: start it if READY, take it over if ACTIVE with its lease ended."),
  reason: z.string().min(1).max(500, "reason is at most 500 characters").optional().describe("Why, for a take-over: kept in the ledger line and as the new session's note."),
  milestone: z.string().min(1).max(200).optional().describe("Only issues of this milestone (no widening)."),
  no_reclaim: z.boolean().optional().describe("Skip abandoned ACTIVE issues (expired leases); take READY work only."),
  any: z.boolean().optional().describe("Also take issues another agent owns, or that commits already work on (work_without_start)."),
  idempotency_key: IdempotencyKeyField.optional(),
});

/** A session's word: one line, bounded. */
const noteField = z.string().max(2000, "note is at most 2000 characters").describe("What the session is doing or leaves for the next one.");

export const HeartbeatInput = z.strictObject({
  issue: id("The issue"),
  note: noteField.optional(),
  session: sessionField,
});

export const AgentsInput = z.strictObject({});

/** A revision a time capability needs (`since`): refused by name when missing. */
const requiredRevision = (name: string, what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required: ${what}` : `${name} is a revision or a date`) })
    .min(1, `${name} is a revision, not empty`)
    .max(200, `${name} is at most 200 characters`)
    .describe(what);

const milestoneId = z.string().min(1, "milestone is an id, not empty").max(200, "milestone is at most 200 characters");

export const ChangesInput = z.strictObject({
  since: requiredRevision("since", "The revision or date to compare from (sha, branch, tag, HEAD~1, 2026-11-30)."),
  until: RevisionField.optional().describe("The revision or date to compare to; absent: the files as they are now."),
  milestone: milestoneId.optional().describe("Only the issues, milestones and findings of this milestone."),
});

export const HistoryInput = z.strictObject({
  id: id("A milestone or issue"),
  limit: z.number().int().min(0, "limit must be 0 or more").max(1000, "limit is at most 1000").optional().describe("At most this many entries (default 50; 0 answers none, and whether any were left out)."),
});

const requiredMilestone = z
  .string({ error: (issue) => (issue.input === undefined ? "milestone is required: the milestone's id" : "milestone is an id") })
  .min(1, "milestone is an id, not empty")
  .max(200, "milestone is at most 200 characters")
  .describe("The milestone's id.");

const day = (name: string, what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} is a date, YYYY-MM-DD (as 2026-11-30)`)
    .describe(what);

export const BurnupInput = z.strictObject({
  milestone: requiredMilestone,
  since: day("since", "The first day (default: the day the milestone's file first appears).").optional(),
  until: day("until", "The last day (default: today).").optional(),
});

export const ForecastInput = z.strictObject({
  milestone: requiredMilestone,
  seed: z.number().int().min(0, "seed must be 0 or more").max(4294967295, "seed is at most 4294967295").optional().describe("The simulation's seed (default 1): the same seed gives the same dates."),
});

export const ReleaseInput = z.strictObject({
  issue: id("The issue"),
  force: z.boolean().optional().describe("End the session whoever holds it (a person clearing a crashed agent; an agent may not)."),
  note: noteField.optional(),
  session: sessionField,
});

export const CodeInput = z.strictObject({
  id: id("The issue").optional().describe("The issue, as its file is named; absent: every issue with a link."),
  default_branch: z
    .string()
    .min(1, "default_branch is a branch name, not empty")
    .max(200, "default_branch is at most 200 characters")
    .optional()
    .describe("The branch merges are measured on (main, origin/main); absent: the server's --default-branch, else origin/HEAD's branch, else HEAD's."),
  stale_days: z.number().int().min(0, "stale_days must be 0 or more").max(3650, "stale_days is at most 3650").optional().describe("Days without a stamp or a commit before an ACTIVE issue is stalled (default 3)."),
});

/** Text a person reads: bounded, no control character but newline and tab. */
const askText = (name: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} is text`) })
    .min(1, `${name} is not empty`)
    .max(max, `${name} is at most ${max} characters`);

export const AskInput = z.strictObject({
  issue: id("The issue"),
  question: askText("question", 4000).describe("What a person should decide or tell."),
  kind: z.enum(["approve", "choose", "answer"], { error: "kind must be one of approve, choose, answer" }).optional().describe("approve (yes/no), choose (one of options) or answer (free text, the default)."),
  options: z.array(askText("an option", 200)).max(20, "at most 20 options").optional().describe("The choices of a choose ask (2 to 20)."),
});

export const AnswerInput = z.strictObject({
  id: z.string().min(1, "id is an ask's id (a-…), not empty").max(100, "id is at most 100 characters").describe("The ask's id (a-…)."),
  yes: z.boolean().optional().describe("The answer to an approve ask."),
  choice: z.string().max(200, "choice is at most 200 characters").optional().describe("The answer to a choose ask: one of its options."),
  text: askText("text", 4000).optional().describe("The answer to an answer ask."),
  comment: askText("comment", 4000).optional().describe("A comment with the answer."),
});

export const WithdrawInput = z.strictObject({
  id: z.string().min(1, "id is an ask's id (a-…), not empty").max(100, "id is at most 100 characters").describe("The ask's id (a-…)."),
  reason: askText("reason", 500).optional().describe("Why it is withdrawn."),
});

export const WaitInput = z.strictObject({
  id: z.string().min(1, "id is an ask's id (a-…), not empty").max(100, "id is at most 100 characters").describe("The ask's id (a-…)."),
  timeout: z.number().min(0, "timeout must be 0 or more").max(86400, "timeout is at most 86400").optional().describe("Seconds to wait at most (bounded by the server's max_wait_s)."),
});

export const InboxInput = z.strictObject({
  issue: z.string().min(1).max(200).optional().describe("Only the asks of this issue, every one of them (open or ended)."),
});
