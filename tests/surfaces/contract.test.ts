import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ExpectStatic, afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCapability } from "@/app/actions";
import { findCapability, httpMethod, httpPath, mcpToolName } from "@/lib/capabilities/index";
import type { ErrorCode } from "@/lib/plan/errors";
import { ISSUES_DIR, loadPlan, loadRecords, planNext, sealOf } from "@/lib/repo";
import { STATUS_OF } from "@/lib/surfaces/http";
import { runGit } from "../support/git";
import { type OpenApiDocument, answersValidator, schemaValidator } from "../support/openapi-check";
import {
  type McpConnection,
  type RunningServer,
  SOURCE_REPO,
  cleanup,
  copyRepo,
  ensureBuild,
  filesUnder,
  hashRepo,
  mcpHttp,
  mcpMemory,
  resetRepo,
  startServer,
} from "./helpers";
import { runCliInProcess } from "../support/cli-in-process";

// One table of cases, run through every surface: HTTP against the production server, MCP linked in
// memory and over streamable HTTP through the SDK's client, the server action called as a function,
// and the command line through its entry function, in process (contract-document.test.ts keeps
// `cockpit mcp` over stdio and the command line as processes). Every surface must give the same answer: the same JSON on success, the
// same error (mapped once per surface) on failure.

// ------------------------------------------------------------------ the table

type Expect = "ok" | ErrorCode;

interface Case {
  name: string;
  capability: string;
  input: Record<string, unknown>;
  expect: Expect;
  /**
   * The command line spells this input with its own options and words, so its message is its own
   * (an unknown option, a missing ID); only its exit code is compared.
   */
  cliCodeOnly?: boolean;
}

const plan = loadPlan(SOURCE_REPO);
const records = loadRecords(SOURCE_REPO);
const pick = <T,>(what: string, value: T | undefined): T => {
  if (value === undefined) throw new Error(`the repository ${SOURCE_REPO} has no ${what}; the contract table needs one`);
  return value;
};

const ACTIVE = pick("milestone", plan.project.active_milestone || plan.milestones[0]?.id);
const READY = pick("READY issue (plan.next)", planNext(plan).issue);
const BLOCKED = pick("BLOCKED issue", plan.issues.find((i) => i.status === "BLOCKED"));
const WITH_DEPS = pick("issue with dependencies", plan.issues.find((i) => i.depends_on.length > 0 && i.status !== "CANCELLED"));
const SECOND_WAVE = plan.waves.length > 1 ? plan.waves[1].wave : plan.waves[0]?.wave ?? 0;
const READY_MILESTONE = pick("milestone with a READY issue", plan.issues.find((i) => i.status === "READY" && i.milestone !== ACTIVE)?.milestone ?? READY.milestone);
const STUCK_MILESTONE = pick(
  "milestone with issues and none READY",
  plan.milestones.find((m) => plan.issues.some((i) => i.milestone === m.id) && !plan.issues.some((i) => i.milestone === m.id && i.status === "READY"))?.id,
);
const EVIDENCE_ISSUE = pick("issue with a missing evidence token", records.issues.find((r) => r.evidence_required.some((t) => !r.covers.includes(t))));
const EVIDENCE_TOKEN = EVIDENCE_ISSUE.evidence_required.find((t) => !EVIDENCE_ISSUE.covers.includes(t))!;
const EVIDENCE_MILESTONE = records.milestones.find((r) => r.evidence_required.some((t) => !r.covers.includes(t)));

const QUERY_CASES: Case[] = [
  { name: "model", capability: "plan.model", input: {}, expect: "ok" },
  { name: "status", capability: "plan.status", input: {}, expect: "ok" },
  { name: "status of one milestone", capability: "plan.status", input: { milestone: ACTIVE }, expect: "ok" },
  { name: "status of an unknown milestone", capability: "plan.status", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "status with an unknown field", capability: "plan.status", input: { colour: "red" }, expect: "invalid_input", cliCodeOnly: true },
  { name: "the inbox of one issue", capability: "plan.inbox", input: { issue: READY.id }, expect: "ok" },
  { name: "the activity of a fresh copy", capability: "plan.activity", input: { limit: 10 }, expect: "ok" },
  { name: "a wait on an unknown ask", capability: "plan.wait", input: { id: "a-000000000000", timeout: 0 }, expect: "not_found" },
  { name: "issues", capability: "plan.issues", input: {}, expect: "ok" },
  { name: "issues READY", capability: "plan.issues", input: { status: "READY" }, expect: "ok" },
  { name: "issues BLOCKED", capability: "plan.issues", input: { status: "BLOCKED" }, expect: "ok" },
  { name: "issues of one milestone", capability: "plan.issues", input: { milestone: ACTIVE }, expect: "ok" },
  { name: "issues of one wave", capability: "plan.issues", input: { wave: SECOND_WAVE }, expect: "ok" },
  { name: "issues by milestone, status and wave", capability: "plan.issues", input: { milestone: READY.milestone, status: "READY", wave: READY.wave }, expect: "ok" },
  { name: "issues of an unknown milestone", capability: "plan.issues", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "issues of an invalid status", capability: "plan.issues", input: { status: "bogus" }, expect: "invalid_input" },
  { name: "waves", capability: "plan.waves", input: {}, expect: "ok" },
  { name: "waves of one milestone", capability: "plan.waves", input: { milestone: ACTIVE }, expect: "ok" },
  { name: "waves of an unknown milestone", capability: "plan.waves", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "next", capability: "plan.next", input: {}, expect: "ok" },
  { name: "next in a milestone", capability: "plan.next", input: { milestone: READY_MILESTONE }, expect: "ok" },
  { name: "next in a milestone with nothing ready", capability: "plan.next", input: { milestone: STUCK_MILESTONE }, expect: "ok" },
  // The one read that widens instead of refusing an unknown milestone, and says so (widened: true).
  { name: "next in an unknown milestone (widened)", capability: "plan.next", input: { milestone: "no-such-milestone" }, expect: "ok" },
  { name: "roadmap", capability: "plan.roadmap", input: {}, expect: "ok" },
  { name: "critical path", capability: "plan.critical_path", input: {}, expect: "ok" },
  { name: "critical path of one milestone", capability: "plan.critical_path", input: { milestone: ACTIVE }, expect: "ok" },
  { name: "critical path of an unknown milestone", capability: "plan.critical_path", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "critical path with an unknown field", capability: "plan.critical_path", input: { colour: "red" }, expect: "invalid_input", cliCodeOnly: true },
  { name: "validate", capability: "plan.validate", input: {}, expect: "ok" },
  { name: "record of a milestone", capability: "plan.record", input: { id: ACTIVE }, expect: "ok" },
  { name: "record of an issue", capability: "plan.record", input: { id: WITH_DEPS.id }, expect: "ok" },
  { name: "record of nothing (an id no record has)", capability: "plan.record", input: { id: "no-such-record" }, expect: "not_found" },
  { name: "record of nothing (no id)", capability: "plan.record", input: {}, expect: "invalid_input", cliCodeOnly: true },
  // Inputs the declaration refuses and the command line can spell exactly as the others send them.
  { name: "record of an empty id", capability: "plan.record", input: { id: "" }, expect: "invalid_input" },
  { name: "status of a milestone id over 200 characters", capability: "plan.status", input: { milestone: "m".repeat(201) }, expect: "invalid_input" },
];

// ------------------------------------------------------------------ time: a history under each copy

/**
 * Each surface's copy becomes a git repository with two commits at fixed times (so every copy has
 * the same shas): first the plan without its last issue and with one ACTIVE issue not yet started,
 * then the plan as it is. The command cases' reset removes the history again.
 */
const ACTIVE_ISSUE = plan.issues.find((i) => i.status === "ACTIVE");
const LAST_ISSUE = plan.issues[plan.issues.length - 1];
const FIRST_COMMIT_AT = "2026-11-20T10:00:00Z";
const SECOND_COMMIT_AT = "2026-11-25T10:00:00Z";

function giveHistory(dir: string): void {
  const env = { GIT_AUTHOR_NAME: "Contract", GIT_AUTHOR_EMAIL: "contract@example.com", GIT_COMMITTER_NAME: "Contract", GIT_COMMITTER_EMAIL: "contract@example.com" };
  const git = (args: string[], when?: string) => void runGit(dir, ["-c", "commit.gpgsign=false", ...args], { env: when ? { ...env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when } : env });
  const issueFile = (id: string) => join(dir, ISSUES_DIR, `${id}.yaml`);
  const last = readFileSync(issueFile(LAST_ISSUE.id));
  const active = ACTIVE_ISSUE ? readFileSync(issueFile(ACTIVE_ISSUE.id), "utf8") : undefined;
  rmSync(issueFile(LAST_ISSUE.id));
  if (ACTIVE_ISSUE && active) writeFileSync(issueFile(ACTIVE_ISSUE.id), active.replace(/^started_(at|event):.*\n/gm, ""));
  git(["init", "-q", "-b", "main"]);
  git(["add", "-A"]);
  git(["commit", "-q", "-m", "the plan, early"], FIRST_COMMIT_AT);
  writeFileSync(issueFile(LAST_ISSUE.id), last);
  if (ACTIVE_ISSUE && active) writeFileSync(issueFile(ACTIVE_ISSUE.id), active);
  git(["add", "-A"]);
  git(["commit", "-q", "-m", "the plan, later"], SECOND_COMMIT_AT);
}

const CHANGED_ISSUE = ACTIVE_ISSUE ?? LAST_ISSUE;

const TIME_CASES: Case[] = [
  { name: "model at HEAD~1", capability: "plan.model", input: { at: "HEAD~1" }, expect: "ok" },
  { name: "status at a date", capability: "plan.status", input: { at: "2026-11-22" }, expect: "ok" },
  { name: "issues READY at an ISO time", capability: "plan.issues", input: { status: "READY", at: "2026-11-21T00:00:00Z" }, expect: "ok" },
  { name: "waves at HEAD~1", capability: "plan.waves", input: { at: "HEAD~1" }, expect: "ok" },
  { name: "next at main", capability: "plan.next", input: { at: "main" }, expect: "ok" },
  { name: "roadmap before the first commit (the empty plan)", capability: "plan.roadmap", input: { at: "2020-01-01" }, expect: "ok" },
  { name: "validate at HEAD", capability: "plan.validate", input: { at: "HEAD" }, expect: "ok" },
  { name: "record at HEAD~1", capability: "plan.record", input: { id: WITH_DEPS.id, at: "HEAD~1" }, expect: "ok" },
  { name: "record at HEAD~1 of an issue added later", capability: "plan.record", input: { id: LAST_ISSUE.id, at: "HEAD~1" }, expect: "not_found" },
  { name: "model at an unknown revision", capability: "plan.model", input: { at: "no-such-revision" }, expect: "invalid_input" },
  { name: "status at a date that does not exist", capability: "plan.status", input: { at: "2026-02-30" }, expect: "invalid_input" },
  { name: "changes since HEAD~1 (until the files now)", capability: "plan.changes", input: { since: "HEAD~1" }, expect: "ok" },
  { name: "changes since a date until HEAD in one milestone", capability: "plan.changes", input: { since: "2026-11-21", until: "HEAD", milestone: CHANGED_ISSUE.milestone }, expect: "ok" },
  { name: "changes since before the first commit", capability: "plan.changes", input: { since: "2020-01-01", until: "HEAD" }, expect: "ok" },
  { name: "changes since an unknown revision", capability: "plan.changes", input: { since: "no-such-revision" }, expect: "invalid_input" },
  { name: "changes without since", capability: "plan.changes", input: {}, expect: "invalid_input", cliCodeOnly: true },
  { name: "changes in an unknown milestone", capability: "plan.changes", input: { since: "HEAD~1", milestone: "no-such-milestone" }, expect: "not_found" },
  // The command line words its own option ("--limit must be 0 or more, not '-1'").
  { name: "history with a negative limit", capability: "plan.history", input: { id: CHANGED_ISSUE.id, limit: -1 }, expect: "invalid_input", cliCodeOnly: true },
  { name: "history of an issue", capability: "plan.history", input: { id: CHANGED_ISSUE.id }, expect: "ok" },
  { name: "history of an issue, limit 1", capability: "plan.history", input: { id: CHANGED_ISSUE.id, limit: 1 }, expect: "ok" },
  { name: "history of a milestone", capability: "plan.history", input: { id: ACTIVE }, expect: "ok" },
  { name: "history of nothing", capability: "plan.history", input: { id: "no-such-record" }, expect: "not_found" },
  { name: "burn-up of a milestone over a fixed week", capability: "plan.burnup", input: { milestone: CHANGED_ISSUE.milestone, since: "2026-11-19", until: "2026-11-26" }, expect: "ok" },
  { name: "burn-up of a milestone to today", capability: "plan.burnup", input: { milestone: ACTIVE }, expect: "ok" },
  { name: "burn-up of an unknown milestone", capability: "plan.burnup", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "burn-up with since after until", capability: "plan.burnup", input: { milestone: ACTIVE, since: "2026-11-26", until: "2026-11-19" }, expect: "invalid_input" },
  { name: "forecast of a milestone, seeded", capability: "plan.forecast", input: { milestone: CHANGED_ISSUE.milestone, seed: 3 }, expect: "ok" },
  { name: "forecast of the active milestone", capability: "plan.forecast", input: { milestone: ACTIVE }, expect: "ok" },
  { name: "forecast of an unknown milestone", capability: "plan.forecast", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "sync status of a clone not followed (off)", capability: "plan.sync_status", input: {}, expect: "ok" },
  { name: "sync status with an unknown field", capability: "plan.sync_status", input: { remote: "origin" }, expect: "invalid_input", cliCodeOnly: true },
  // This history is the plan's only (every commit changes .ai/ alone): nothing is code, nothing links.
  { name: "code of an issue", capability: "plan.code", input: { id: CHANGED_ISSUE.id }, expect: "ok" },
  { name: "code of every issue, with the stale days", capability: "plan.code", input: { stale_days: 1 }, expect: "ok" },
  { name: "code on a named default branch", capability: "plan.code", input: { id: WITH_DEPS.id, default_branch: "main" }, expect: "ok" },
  { name: "code of nothing", capability: "plan.code", input: { id: "no-such-record" }, expect: "not_found" },
  { name: "code on an unknown default branch", capability: "plan.code", input: { default_branch: "no-such-branch" }, expect: "invalid_input" },
  { name: "standup since HEAD~1 (until the files now)", capability: "plan.standup", input: { since: "HEAD~1" }, expect: "ok" },
  { name: "standup since a date until HEAD, stuck after 1 day", capability: "plan.standup", input: { since: "2026-11-21", until: "HEAD", stuck: 1 }, expect: "ok" },
  { name: "standup since an unknown revision", capability: "plan.standup", input: { since: "no-such-revision" }, expect: "invalid_input" },
  { name: "digest since HEAD~1 (until the files now)", capability: "plan.digest", input: { since: "HEAD~1" }, expect: "ok" },
  { name: "digest of one person since a date", capability: "plan.digest", input: { since: "2026-11-21", person: "nobody-here" }, expect: "ok" },
];

const COMMAND_CASES: Case[] = [
  { name: "a refused start", capability: "plan.transition", input: { issue: BLOCKED.id, transition: "start" }, expect: "refused" },
  { name: "a successful start", capability: "plan.transition", input: { issue: READY.id, transition: "start" }, expect: "ok" },
  { name: "a refused verify", capability: "plan.transition", input: { issue: READY.id, transition: "verify" }, expect: "refused" },
  { name: "a start of an unknown issue", capability: "plan.transition", input: { issue: "NO-SUCH-1", transition: "start" }, expect: "not_found" },
  {
    name: "an evidence record",
    capability: "plan.evidence",
    input: { record: EVIDENCE_ISSUE.id, covers: EVIDENCE_TOKEN, type: "test", command: "npm test -- --run race", result: "12 passed" },
    expect: "ok",
  },
  ...(EVIDENCE_MILESTONE
    ? [
        {
          name: "an evidence record on a milestone",
          capability: "plan.evidence",
          input: {
            record: EVIDENCE_MILESTONE.id,
            covers: EVIDENCE_MILESTONE.evidence_required.find((t) => !EVIDENCE_MILESTONE.covers.includes(t))!,
            type: "artifact",
            artifact: "reports/review.pdf",
          },
          expect: "ok" as const,
        },
      ]
    : []),
  {
    name: "a refused evidence (a token the record does not require)",
    capability: "plan.evidence",
    input: { record: EVIDENCE_ISSUE.id, covers: "not-a-required-token", type: "test", command: "npm test" },
    expect: "refused",
  },
  { name: "evidence on an unknown record", capability: "plan.evidence", input: { record: "NO-SUCH-1", covers: "x", type: "test", command: "true" }, expect: "not_found" },
  { name: "a claim", capability: "plan.claim", input: {}, expect: "ok" },
  { name: "a claim in one milestone", capability: "plan.claim", input: { milestone: READY_MILESTONE }, expect: "ok" },
  { name: "a refused claim (nothing ready in the milestone)", capability: "plan.claim", input: { milestone: STUCK_MILESTONE }, expect: "refused" },
  { name: "a claim in an unknown milestone", capability: "plan.claim", input: { milestone: "no-such-milestone" }, expect: "not_found" },
  { name: "a release of an issue no session holds", capability: "plan.release", input: { issue: READY.id }, expect: "ok" },
  { name: "a heartbeat on an issue no session of the caller holds", capability: "plan.heartbeat", input: { issue: BLOCKED.id, note: "here" }, expect: "refused" },
  { name: "an ask on an unknown issue", capability: "plan.ask", input: { issue: "NO-SUCH-1", question: "May I?" }, expect: "not_found" },
  { name: "an ask with an empty question", capability: "plan.ask", input: { issue: READY.id, question: "" }, expect: "invalid_input" },
  { name: "an answer to an unknown ask", capability: "plan.answer", input: { id: "a-000000000000", yes: true }, expect: "not_found" },
  { name: "a withdrawal of an unknown ask", capability: "plan.withdraw", input: { id: "a-000000000000" }, expect: "not_found" },
  // Inputs the declaration refuses and the command line can spell exactly as the others send them.
  {
    name: "evidence with an empty command",
    capability: "plan.evidence",
    input: { record: EVIDENCE_ISSUE.id, covers: EVIDENCE_TOKEN, type: "test", command: "" },
    expect: "invalid_input",
  },
  { name: "a claim in a milestone with an empty id", capability: "plan.claim", input: { milestone: "" }, expect: "invalid_input" },
  // Neither command nor artifact: the server refuses it, and so does the document's oneOf.
  { name: "evidence without command or artifact", capability: "plan.evidence", input: { record: EVIDENCE_ISSUE.id, covers: EVIDENCE_TOKEN, type: "test" }, expect: "invalid_input" },
  // plan.edit and plan.create: every answer carries the preview of the derived change.
  { name: "an edit, dry run", capability: "plan.edit", input: { id: BLOCKED.id, set: { cancelled: true }, dry_run: true }, expect: "ok" },
  {
    name: "an edit of fields and lists",
    capability: "plan.edit",
    input: { id: READY.id, set: { priority: "p0", owner: "lead: night shift" }, add: { scope: ["docs/new"] } },
    expect: "ok",
  },
  { name: "an unset", capability: "plan.edit", input: { id: WITH_DEPS.id, unset: ["owner"], remove: { depends_on: [WITH_DEPS.depends_on[0]] } }, expect: "ok" },
  { name: "an edit of a milestone", capability: "plan.edit", input: { id: ACTIVE, set: { priority: "p2" } }, expect: "ok" },
  { name: "an edit that adds a FAIL finding is refused", capability: "plan.edit", input: { id: READY.id, add: { depends_on: ["NO-SUCH-1"] } }, expect: "refused" },
  {
    name: "an edit that adds a FAIL finding, allowed",
    capability: "plan.edit",
    input: { id: READY.id, add: { depends_on: ["NO-SUCH-1"] }, allow_findings: true },
    expect: "ok",
  },
  { name: "an edit of an unknown field", capability: "plan.edit", input: { id: READY.id, set: { colour: "red" } }, expect: "invalid_input" },
  { name: "an edit of a stamp", capability: "plan.edit", input: { id: READY.id, set: { started_at: "2026-10-20T10:00:00Z" } }, expect: "invalid_input" },
  { name: "an edit of an unknown record", capability: "plan.edit", input: { id: "NO-SUCH-1", set: { title: "x" } }, expect: "not_found" },
  { name: "an edit of an id with a path separator", capability: "plan.edit", input: { id: "../x", set: { title: "x" } }, expect: "invalid_input" },
  // Values are text: a control character, or a newline outside prose, is refused naming the field.
  { name: "an edit with an escape character in the title", capability: "plan.edit", input: { id: READY.id, set: { title: "Red \u001b[31m alert" } }, expect: "invalid_input" },
  {
    name: "an edit with a newline in a one-line field",
    capability: "plan.edit",
    input: { id: READY.id, set: { owner: "bob\nSigned-off-by: Mallory <mallory@evil.invalid>" } },
    expect: "invalid_input",
  },
  {
    name: "a new issue with a DEL in its title",
    capability: "plan.create",
    input: { kind: "issue", milestone: ACTIVE, title: "Deleted\u007f", add: { acceptance_criteria: ["it works"], validation: ["npm test"] } },
    expect: "invalid_input",
  },
  {
    name: "evidence with a newline in its command",
    capability: "plan.evidence",
    input: { record: EVIDENCE_ISSUE.id, covers: EVIDENCE_TOKEN, type: "test", command: "npm test\nSigned-off-by: Mallory <mallory@evil.invalid>" },
    expect: "invalid_input",
  },
  {
    name: "a new issue",
    capability: "plan.create",
    input: { kind: "issue", milestone: ACTIVE, title: "A new issue", add: { acceptance_criteria: ["it works"], validation: ["npm test"], evidence_required: ["proof"] } },
    expect: "ok",
  },
  { name: "a new issue, dry run", capability: "plan.create", input: { kind: "issue", milestone: ACTIVE, title: "Placeholder", dry_run: true }, expect: "ok" },
  { name: "a new issue without acceptance or validation is refused", capability: "plan.create", input: { kind: "issue", milestone: ACTIVE, title: "Placeholder" }, expect: "refused" },
  { name: "a new issue in an unknown milestone", capability: "plan.create", input: { kind: "issue", milestone: "no-such-milestone", title: "x" }, expect: "invalid_input" },
  { name: "an undo of a line no move wrote", capability: "plan.undo", input: { ledger_id: 999 }, expect: "not_found" },
  { name: "an undo of line 0", capability: "plan.undo", input: { ledger_id: 0 }, expect: "invalid_input", cliCodeOnly: true },
  // The copies are no git work trees: a commit is refused, saying why (tests/plan/commit.test.ts commits).
  { name: "a commit outside a git work tree", capability: "plan.commit", input: { dry_run: true }, expect: "refused" },
];

// ------------------------------------------------------------------ the surfaces

type Surface = "http" | "mcp-memory" | "mcp-http" | "action" | "cli";
const SURFACES: readonly Surface[] = ["action", "http", "mcp-memory", "mcp-http", "cli"];

/** What a surface answered, brought to one shape. `code` is absent where the surface does not carry it (MCP). */
type Outcome = { ok: true; value: unknown } | { ok: false; code?: ErrorCode | "unauthorized"; message: string };

const CODE_OF_STATUS = Object.fromEntries(Object.entries(STATUS_OF).map(([code, status]) => [status, code as ErrorCode]));
const CODE_OF_EXIT: Record<number, ErrorCode> = { 2: "invalid_input", 12: "not_found", 15: "refused", 13: "internal" };

let server: RunningServer;
/** A second server, over its own repository, for MCP over HTTP: every surface has its own copy. */
let mcpServer: RunningServer;
let inMemory: McpConnection;
let mcpOverHttp: McpConnection;
/** A third server, with COCKPIT_TOKEN set, over its own repository. */
const TOKEN = "s3cret-token-for-the-contract-test";
let guarded: RunningServer;
let tokenRepo: string;
const repos = {} as Record<Surface, string>;
/** Every answer is held to the document the server serves (ajv), and every MCP answer to its tool's outputSchema. */
let checkAnswer: ReturnType<typeof answersValidator>;
const checkSchema = schemaValidator();
const outputSchemas = new Map<string, Record<string, unknown>>();

/** What the document says of an answer, as notes (an empty list: it agrees). */
function documentNotes(c: Case, status: number, body: unknown): string[] {
  const cap = findCapability(c.capability)!;
  return checkAnswer(httpPath(cap), httpMethod(cap), status, body).map((p) => `${c.name}: ${p}`);
}
/** Problems a surface showed besides its answer (a wrong status for the code, stderr on success…). */
type Notes = string[];

async function viaHttp(c: Case, sideNotes: Notes): Promise<Outcome> {
  const cap = findCapability(c.capability)!;
  let response: Response;
  if (httpMethod(cap) === "GET") {
    const query = new URLSearchParams(Object.entries(c.input).map(([k, v]) => [k, String(v)])).toString();
    response = await fetch(`${server.url}${httpPath(cap)}${query ? `?${query}` : ""}`);
  } else {
    response = await fetch(`${server.url}${httpPath(cap)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(c.input),
    });
  }
  const body = (await response.json()) as { error?: { code: ErrorCode; message: string } };
  sideNotes.push(...documentNotes(c, response.status, body));
  if (response.status === 200) return { ok: true, value: body };
  const code = body.error?.code ?? "internal";
  if (CODE_OF_STATUS[response.status] !== code) sideNotes.push(`${c.name}: HTTP ${response.status} carries code ${code}`);
  return { ok: false, code, message: body.error?.message ?? "" };
}

async function viaMcp(connection: McpConnection, c: Case, sideNotes: Notes): Promise<Outcome> {
  const result = (await connection.client.callTool({ name: mcpToolName(findCapability(c.capability)!), arguments: c.input })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: unknown;
  };
  const text = result.content.map((p) => p.text).join("");
  if (result.isError) return { ok: false, message: text };
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) {
    sideNotes.push(`${c.name}: MCP text content is not the structured content`);
  }
  const tool = mcpToolName(findCapability(c.capability)!);
  const schema = outputSchemas.get(tool);
  if (!schema) sideNotes.push(`${c.name}: tools/list gives ${tool} no outputSchema`);
  else sideNotes.push(...checkSchema(tool, schema, result.structuredContent).map((p) => `${c.name}: ${p}`));
  return { ok: true, value: result.structuredContent };
}

async function viaAction(c: Case): Promise<Outcome> {
  process.env.COCKPIT_REPO = repos.action;
  const r = await runCapability(c.capability, c.input);
  return r.ok ? { ok: true, value: r.value } : { ok: false, code: r.error.code, message: r.error.message };
}

/** The server action's and the command line's answers are the HTTP answers' shapes: held to the same document. */
async function viaChecked(surface: "action" | "cli", c: Case, notes: Notes): Promise<Outcome> {
  const outcome = surface === "action" ? await viaAction(c) : await viaCli(c, notes);
  if (outcome.ok) notes.push(...documentNotes(c, 200, outcome.value).map((n) => `${surface}: ${n}`));
  else if (outcome.code) notes.push(...documentNotes(c, STATUS_OF[outcome.code as ErrorCode] ?? 500, { error: { code: outcome.code, message: outcome.message } }).map((n) => `${surface}: ${n}`));
  return outcome;
}

/** The verb and arguments `cockpit plan` takes for a case. */
function cliWords(c: Case): string[] {
  const input = c.input as Record<string, string | number | undefined>;
  const options = (keys: string[]) => keys.filter((k) => input[k] !== undefined).flatMap((k) => [`--${k}`, String(input[k])]);
  switch (c.capability) {
    case "plan.record":
      return ["record", ...(input.id !== undefined ? [String(input.id)] : []), ...options(["at"])];
    case "plan.history":
      return ["history", String(input.id), ...options(["limit"])];
    case "plan.code":
      return ["code", ...(input.id !== undefined ? [String(input.id)] : []), ...(input.default_branch !== undefined ? ["--default-branch", String(input.default_branch)] : []), ...(input.stale_days !== undefined ? ["--stale-days", String(input.stale_days)] : [])];
    case "plan.standup":
      return ["standup", ...options(["since", "until", "stuck"])];
    case "plan.transition":
      return [String(input.transition), String(input.issue)];
    case "plan.critical_path":
      return ["critical-path", ...options(Object.keys(input))];
    case "plan.sync_status":
      return ["sync-status", ...options(Object.keys(input))];
    case "plan.evidence":
      return ["evidence", String(input.record), ...options(["covers", "type", "command", "artifact", "result"])];
    case "plan.release":
      return ["release", String(input.issue), ...(input.force ? ["--force"] : []), ...options(["note"])];
    case "plan.heartbeat":
      return ["heartbeat", String(input.issue), ...options(["note"])];
    case "plan.ask":
      return ["ask", String(input.issue), ...options(["question", "kind"])];
    case "plan.answer":
      return ["answer", String(input.id), ...((input as Record<string, unknown>).yes === true ? ["--yes"] : (input as Record<string, unknown>).yes === false ? ["--no"] : []), ...options(["choice", "text", "comment"])];
    case "plan.withdraw":
      return ["withdraw", String(input.id), ...options(["reason"])];
    case "plan.wait":
      return ["wait", String(input.id), ...options(["timeout"])];
    case "plan.edit":
    case "plan.create":
      return editWords(c);
    case "plan.undo":
      return ["undo", String(input.ledger_id)];
    case "plan.commit":
      return ["commit", ...(input.dry_run ? ["--dry-run"] : []), ...options(["message"])];
    default:
      return [c.capability.split(".")[1], ...options(Object.keys(input))];
  }
}

/** `cockpit plan edit ID …` or `cockpit plan new KIND …` for an edit or a creation. */
function editWords(c: Case): string[] {
  const input = c.input as Record<string, unknown>;
  const words = c.capability === "plan.edit" ? ["edit", String(input.id)] : ["new", String(input.kind), "--title", String(input.title)];
  if (input.milestone !== undefined) words.push("--milestone", String(input.milestone));
  for (const [k, v] of Object.entries((input.set ?? {}) as Record<string, unknown>)) words.push("--set", `${k}=${String(v)}`);
  for (const k of (input.unset ?? []) as string[]) words.push("--unset", k);
  for (const op of ["add", "remove"]) {
    for (const [k, vs] of Object.entries((input[op] ?? {}) as Record<string, string[]>)) for (const v of vs) words.push(`--${op}`, `${k}=${v}`);
  }
  if (input.dry_run) words.push("--dry-run");
  if (input.allow_findings) words.push("--allow-findings");
  return words;
}

async function viaCli(c: Case, sideNotes: Notes): Promise<Outcome> {
  const words = cliWords(c);
  const r = await runCliInProcess(["plan", ...words, "--repo", repos.cli, "--json"]);
  const success = r.code === 0 || (c.capability === "plan.validate" && r.code === 10);
  if (success) {
    if (r.stderr !== "") sideNotes.push(`${c.name}: cockpit plan wrote to stderr on success: ${r.stderr}`);
    const value = JSON.parse(r.stdout) as { valid?: boolean };
    if (c.capability === "plan.validate" && r.code !== (value.valid ? 0 : 10)) sideNotes.push(`${c.name}: validate exited ${r.code} with valid=${value.valid}`);
    return { ok: true, value };
  }
  // Under --json a refusal is HTTP's error body on stdout, and nothing on stderr; the exit code says its kind.
  if (r.stderr !== "") sideNotes.push(`${c.name}: cockpit plan --json wrote to stderr on failure: ${r.stderr}`);
  let body: { error?: { code?: string; message?: string } } = {};
  try {
    body = JSON.parse(r.stdout) as typeof body;
  } catch {
    sideNotes.push(`${c.name}: a refusal under --json is not JSON on stdout: ${r.stdout}`);
  }
  const code = (body.error?.code ?? CODE_OF_EXIT[r.code] ?? "internal") as ErrorCode;
  const exitKind = code === "conflict" ? "refused" : code;
  if (CODE_OF_EXIT[r.code] !== exitKind) sideNotes.push(`${c.name}: exit ${r.code} does not match the error code ${code}`);
  // The command line names a field as its option (--allow-findings), JSON as the field (allow_findings):
  // compared in JSON's spelling, once it is seen that the option's is the one given.
  const message = body.error?.message ?? r.stdout;
  if (/\ballow_findings\b/.test(message)) sideNotes.push(`${c.name}: the command line names allow_findings, not --allow-findings: ${message}`);
  return { ok: false, code, message: message.replace(/--([a-z]+(?:-[a-z]+)+)\b/g, (_m, option: string) => option.replaceAll("-", "_")) };
}

async function via(surface: Surface, c: Case, notes: Notes): Promise<Outcome> {
  switch (surface) {
    case "http":
      return viaHttp(c, notes);
    case "mcp-memory":
      return viaMcp(inMemory, c, notes);
    case "mcp-http":
      return viaMcp(mcpOverHttp, c, notes);
    case "action":
      return viaChecked("action", c, notes);
    case "cli":
      return viaChecked("cli", c, notes);
  }
}

// ------------------------------------------------------------------ comparison

/** A command's answer carries the moment it ran; the rest is the same from every surface. */
function masked(value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  // An edit's version is the hash of a text that holds the moment (updated_at); a command's `at` is its moment.
  const versioned = "preview" in value && "version" in value ? { version: "<version>" } : {};
  const at = "at" in value && typeof value.at === "string" ? { at: "<at>" } : {};
  // A claim's session is a fresh id on every surface (its epoch and the rest are compared).
  const session = "session" in value && typeof value.session === "string" ? { session: "<session>" } : {};
  return { ...(value as object), ...at, ...versioned, ...session };
}

interface View {
  ok: boolean;
  /** The output as one JSON text, field order included. */
  json?: string;
  code?: string;
  message?: string;
}

function view(o: Outcome): View {
  if (o.ok) return { ok: true, json: JSON.stringify(masked(o.value)) };
  return { ok: false, code: o.code ?? "(not carried)", message: o.message };
}

/** What every surface must answer, given the reference (the server action, the registry's plain call). */
function expectedViews(c: Case, reference: Outcome): Record<Surface, View> {
  const ref = view(reference);
  const out = {} as Record<Surface, View>;
  for (const s of SURFACES) {
    if (ref.ok) out[s] = ref;
    else if (s === "mcp-memory" || s === "mcp-http") out[s] = { ok: false, code: "(not carried)", message: ref.message };
    else out[s] = ref;
  }
  return out;
}

function compare(expect: ExpectStatic, c: Case, outcomes: Record<Surface, Outcome>): void {
  const reference = outcomes.action;
  expect(reference.ok ? "ok" : reference.code, `${c.name}: the registry's own answer`).toBe(c.expect);
  const actual = Object.fromEntries(SURFACES.map((s) => [s, view(outcomes[s])])) as Record<Surface, View>;
  const expected = expectedViews(c, reference);
  if (c.cliCodeOnly && !actual.cli.ok) actual.cli = { ...actual.cli, message: expected.cli.message };
  // Large outputs: name the first differing character rather than diffing two 100 KB texts.
  for (const s of SURFACES) {
    const a = actual[s].json;
    const e = expected[s].json;
    if (a !== undefined && e !== undefined && a !== e) {
      let i = 0;
      while (i < a.length && a[i] === e[i]) i++;
      actual[s] = { ...actual[s], json: `differs at ${i}: …${a.slice(Math.max(0, i - 80), i + 80)}…` };
      expected[s] = { ...expected[s], json: `…${e.slice(Math.max(0, i - 80), i + 80)}…` };
    }
  }
  expect(actual).toEqual(expected);
}

/** A repository's files with one command's moment (and the seal made of it) masked. */
function effect(repo: string, outcome: Outcome): Record<string, string> {
  const out: Record<string, string> = {};
  const value = outcome.ok ? (outcome.value as { at?: string; event?: string; issue?: string }) : undefined;
  for (const f of filesUnder(repo)) {
    // The sessions' store is SQLite's binary file, its rows each surface's own ids and moments:
    // what it holds is the sessions' own tests' (tests/coordination/sessions.test.ts), not byte for byte.
    if (/(^|\/)\.ai\/local\/state\/cockpit\.db(-wal|-shm)?$/.test(f)) continue;
    let text = readFileSync(join(repo, f), "utf8");
    if (value?.at) {
      if (value.event && value.issue) text = text.split(sealOf(value.event, value.issue, value.at)).join("<seal>");
      text = text.split(value.at).join("<at>");
    }
    // Who acts is each surface's own (docs/agents.md: a client's name, a header, git's identity):
    // masked here, and never the program's name.
    text = text.replace(/"by":"((?:[^"\\]|\\.)*)"/g, (_, by: string) => {
      expect(by, `${f} signs a move with the program's name`).not.toMatch(/^cockpit\//);
      return '"by":"<by>"';
    });
    out[f] = text;
  }
  return out;
}

// ------------------------------------------------------------------ lifecycle

beforeAll(async () => {
  for (const s of SURFACES) {
    repos[s] = copyRepo(`cockpit-contract-${s}-`);
    giveHistory(repos[s]);
  }
  tokenRepo = copyRepo("cockpit-contract-token-");
  const dist = await ensureBuild();
  [server, mcpServer, guarded, inMemory] = await Promise.all([
    startServer(dist, repos.http),
    startServer(dist, repos["mcp-http"]),
    startServer(dist, tokenRepo, { COCKPIT_TOKEN: TOKEN }),
    mcpMemory(repos["mcp-memory"]),
  ]);
  mcpOverHttp = await mcpHttp(mcpServer.url);
  checkAnswer = answersValidator((await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument);
  for (const tool of (await inMemory.client.listTools()).tools) if (tool.outputSchema) outputSchemas.set(tool.name, tool.outputSchema as Record<string, unknown>);
}, 300_000);

afterAll(async () => {
  await inMemory?.close();
  await mcpOverHttp?.close();
  await Promise.all([server?.stop(), mcpServer?.stop(), guarded?.stop()]);
  cleanup();
});

// Queries change nothing, so the cases run at once.
describe.concurrent("every query capability answers the same on every surface", () => {
  it.for(QUERY_CASES)("$name", async (c, { expect }) => {
    const notes: Notes = [];
    const results = await Promise.all(SURFACES.map((s) => via(s, c, notes)));
    const outcomes = Object.fromEntries(SURFACES.map((s, i) => [s, results[i]])) as Record<Surface, Outcome>;
    compare(expect, c, outcomes);
    expect(notes).toEqual([]);
  });
});

// Queries of the past, on the same git history under every copy.
describe.concurrent("every time capability (and every read at a revision) answers the same on every surface", () => {
  it.for(TIME_CASES)("$name", async (c, { expect }) => {
    const notes: Notes = [];
    const results = await Promise.all(SURFACES.map((s) => via(s, c, notes)));
    const outcomes = Object.fromEntries(SURFACES.map((s, i) => [s, results[i]])) as Record<Surface, Outcome>;
    compare(expect, c, outcomes);
    expect(notes).toEqual([]);
  });
});

describe("every command answers the same on every surface, each from the same fresh repository", () => {
  it.each(COMMAND_CASES.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const notes: Notes = [];
    const outcomes = {} as Record<Surface, Outcome>;
    const effects = {} as Record<Surface, Record<string, string>>;
    // Each surface has its own copy, put back in the source's state: they start from the same
    // state and run side by side.
    await Promise.all(
      SURFACES.map(async (s) => {
        resetRepo(repos[s]);
        const before = hashRepo(repos[s]);
        outcomes[s] = await via(s, c, notes);
        effects[s] = effect(repos[s], outcomes[s]);
        if (!outcomes[s].ok) expect(hashRepo(repos[s]), `${s}: a ${c.expect} command wrote`).toBe(before);
      }),
    );
    compare(expect, c, outcomes);
    // The same move leaves the same files behind, whichever surface made it (the moment masked).
    for (const s of SURFACES) expect(effects[s], `${s} left different files than the server action`).toEqual(effects.action);
    expect(notes).toEqual([]);
  });
});

describe("the resource, the token, the origin and a changing repository", () => {
  it("the resource cockpit://plan is GET /api/v1/plan, in memory and over HTTP", async () => {
    for (const s of SURFACES) resetRepo(repos[s]);
    const body = await (await fetch(`${server.url}/api/v1/plan`)).text();
    expect(await (await fetch(`${mcpServer.url}/api/v1/plan`)).text()).toBe(body);
    for (const connection of [inMemory, mcpOverHttp]) {
      const listed = await connection.client.listResources();
      expect(listed.resources.map((r) => r.uri)).toContain("cockpit://plan");
      const read = await connection.client.readResource({ uri: "cockpit://plan" });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0].mimeType).toBe("application/json");
      expect(JSON.stringify(JSON.parse((read.contents[0] as { text: string }).text))).toBe(JSON.stringify(JSON.parse(body)));
    }
  });

  describe("with COCKPIT_TOKEN set", () => {

    const claim = (headers: Record<string, string>) =>
      fetch(`${guarded.url}/api/v1/plan/claim`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });

    it.each([
      ["no Authorization header", {}],
      ["a wrong token", { authorization: "Bearer not-the-token" }],
      ["the token without 'Bearer '", { authorization: TOKEN }],
      ["the token as Basic", { authorization: `Basic ${TOKEN}` }],
      ["the token with a suffix", { authorization: `Bearer ${TOKEN}x` }],
    ] as const)("a command with %s is 401 and writes nothing", async (_, headers) => {
      const before = hashRepo(tokenRepo);
      const r = await claim(headers);
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("unauthorized");
      expect(body.error.message).not.toBe("");
      expect(checkAnswer("/api/v1/plan/claim", "POST", 401, body)).toEqual([]);
      expect(hashRepo(tokenRepo)).toBe(before);
    });

    it("a query needs no token", async () => {
      const r = await fetch(`${guarded.url}/api/v1/plan/next`);
      expect(r.status).toBe(200);
    });

    it("MCP over HTTP reads without the token on loopback, a command tool needs it, and works with it", async () => {
      const anonymous = await mcpHttp(guarded.url);
      try {
        const read = (await anonymous.client.callTool({ name: "plan_next", arguments: {} })) as { isError?: boolean };
        expect(read.isError).toBeFalsy();
        const before = hashRepo(tokenRepo);
        await expect(anonymous.client.callTool({ name: "plan_claim", arguments: {} })).rejects.toThrow(/unauthorized.*Authorization: Bearer/);
        expect(hashRepo(tokenRepo)).toBe(before);
      } finally {
        await anonymous.close();
      }
      const withToken = await mcpHttp(guarded.url, { authorization: `Bearer ${TOKEN}` });
      try {
        const r = (await withToken.client.callTool({ name: "plan_next", arguments: {} })) as { isError?: boolean };
        expect(r.isError).toBeFalsy();
      } finally {
        await withToken.close();
      }
    });

    it("a command with the right token succeeds", async () => {
      const r = await claim({ authorization: `Bearer ${TOKEN}` });
      expect(r.status).toBe(200);
      const body = (await r.json()) as { issue: string; transition: string };
      expect(body.transition).toBe("start");
      expect(body.issue).toBe(READY.id);
    });
  });

  describe("the Origin header", () => {
    it("a command from http://evil.example is 403 and writes nothing", async () => {
      resetRepo(repos.http);
      const before = hashRepo(repos.http);
      for (const c of COMMAND_CASES.filter((k) => k.expect === "ok")) {
        const r = await fetch(`${server.url}${httpPath(findCapability(c.capability)!)}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: "http://evil.example" },
          body: JSON.stringify(c.input),
        });
        expect(r.status, c.name).toBe(403);
        const body = (await r.json()) as { error: { code: string; message: string } };
        expect(checkAnswer(httpPath(findCapability(c.capability)!), "POST", 403, body)).toEqual([]);
        expect(body.error.code).toBe("forbidden");
        expect(body.error.message).not.toBe("");
      }
      expect(hashRepo(repos.http)).toBe(before);
    });

    it("MCP over HTTP from http://evil.example is 403", async () => {
      await expect(mcpHttp(server.url, { origin: "http://evil.example" })).rejects.toThrow(/forbidden/);
    });

    it("a command without an Origin is allowed, and so is one from the server's own origin", async () => {
      resetRepo(repos.http);
      const post = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/v1/plan/claim`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
      const without = await post({});
      expect(without.status).toBe(200);
      expect(((await without.json()) as { issue: string }).issue).toBe(READY.id);
      const own = await post({ origin: server.url });
      expect([200, 422]).toContain(own.status);
    });

    it("a query from another origin is answered (it changes nothing)", async () => {
      const r = await fetch(`${server.url}/api/v1/plan/status`, { headers: { origin: "http://evil.example" } });
      expect(r.status).toBe(200);
    });
  });

  describe("a record touched on disk between two requests", () => {
    it("is reflected in the next answer, even with its size and modification time unchanged", async () => {
      resetRepo(repos.http);
      resetRepo(repos["mcp-memory"]);
      const id = WITH_DEPS.id;
      const ask = async () => ((await (await fetch(`${server.url}/api/v1/plan/record?id=${encodeURIComponent(id)}`)).json()) as { issue: { title: string } }).issue.title;
      const askStdio = async () =>
        ((await inMemory.client.callTool({ name: "plan_record", arguments: { id } })) as unknown as { structuredContent: { issue: { title: string } } }).structuredContent.issue
          .title;
      const first = await ask();
      expect(await askStdio()).toBe(first);
      for (const repo of [repos.http, repos["mcp-memory"]]) {
        const file = join(repo, ISSUES_DIR, `${id}.yaml`);
        const st = statSync(file);
        const text = readFileSync(file, "utf8");
        const title = text.match(/^title: (.*)$/m)![1];
        // Same length, same mtime: only the content (and the change time) differ.
        const changed = title.replace(/[A-Za-z]/, (ch) => (ch === "Z" ? "Y" : "Z"));
        expect(changed.length).toBe(title.length);
        writeFileSync(file, text.replace(`title: ${title}`, `title: ${changed}`));
        utimesSync(file, st.atime, st.mtime);
      }
      const second = await ask();
      expect(second).not.toBe(first);
      expect(await askStdio()).toBe(second);
    });

    it("a new issue file appears in the next answer, and a removed one disappears", async () => {
      resetRepo(repos.http);
      const total = async () => ((await (await fetch(`${server.url}/api/v1/plan/issues`)).json()) as { total: number }).total;
      const n = await total();
      const source = join(repos.http, ISSUES_DIR, `${WITH_DEPS.id}.yaml`);
      const copy = join(repos.http, ISSUES_DIR, "ZZ-NEW-1.yaml");
      writeFileSync(copy, readFileSync(source, "utf8").replace(/^id: .*$/m, "id: ZZ-NEW-1"));
      expect(await total()).toBe(n + 1);
      const r = await fetch(`${server.url}/api/v1/plan/record?id=ZZ-NEW-1`);
      expect(r.status).toBe(200);
      resetRepo(repos.http);
      expect(await total()).toBe(n);
      expect((await fetch(`${server.url}/api/v1/plan/record?id=ZZ-NEW-1`)).status).toBe(404);
    });
  });
});
