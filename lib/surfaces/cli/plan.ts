import { resolve } from "node:path";
import { planBurnupCapability } from "../../capabilities/plan-burnup";
import { planChangesCapability } from "../../capabilities/plan-changes";
import { planClaimCapability } from "../../capabilities/plan-claim";
import { planCodeCapability } from "../../capabilities/plan-code";
import { planCommitCapability } from "../../capabilities/plan-commit";
import { planSyncStatusCapability } from "../../capabilities/plan-sync-status";
import { planCreateCapability } from "../../capabilities/plan-create";
import { planCriticalPathCapability } from "../../capabilities/plan-critical-path";
import { planEditCapability } from "../../capabilities/plan-edit";
import { planEvidenceCapability } from "../../capabilities/plan-evidence";
import { planForecastCapability } from "../../capabilities/plan-forecast";
import { planHistoryCapability } from "../../capabilities/plan-history";
import { planImportCapability } from "../../capabilities/plan-import";
import { planIssuesCapability } from "../../capabilities/plan-issues";
import { planModelCapability } from "../../capabilities/plan-model";
import { planNextCapability } from "../../capabilities/plan-next";
import { planRecordCapability } from "../../capabilities/plan-record";
import { planReleaseCapability } from "../../capabilities/plan-release";
import { planRoadmapCapability } from "../../capabilities/plan-roadmap";
import { planStandupCapability } from "../../capabilities/plan-standup";
import { planStatusCapability } from "../../capabilities/plan-status";
import { renderStandup } from "./standup-text";
import { planTransitionCapability } from "../../capabilities/plan-transition";
import { planValidateCapability } from "../../capabilities/plan-validate";
import { planWavesCapability } from "../../capabilities/plan-waves";
import type { AnyCapability, Capability } from "../../capabilities/capability";
import { CapabilityError } from "../../plan/errors";
import { toDot, toMermaid } from "../../graph/export";
import { ISSUE_STATUSES } from "../../plan/constants";
import { loadPlan } from "../../repo";
import type { Move } from "../../plan/seal";
import type {
  Plan,
  PlanCriticalPath,
  PlanIssueList,
  PlanNextIssue,
  PlanRecord,
  PlanRoadmap,
  PlanStatusReport,
  PlanValidation,
  PlanWaveReport,
} from "../../plan/shapes";
import { adoptLegacyStamps, type AdoptResult, type EvidenceResult, type TransitionResult } from "../../repo/transition";
import type { ReleaseResultSchema } from "../../results/outputs";
import type { z } from "zod";
import { COCKPIT_VERSION } from "../../version";
import { UsageError, parseArgs, type OptionKind, type ParsedArgs, type VerbDoc } from "./args";
import { createInput, editInput, renderCommit, renderRecordWrite } from "./edit";
import { importInput, renderImport } from "./import";
import type { ImportResult } from "../../import/shapes";
import type { CommitResult } from "../../repo/commit";
import type { RecordWriteResult } from "../../repo/plan-edit";
import { currentVersion } from "../../repo/plan-edit";
import {
  renderCriticalPath,
  renderIssues,
  renderModel,
  renderNext,
  renderRecord,
  renderRoadmap,
  renderStatus,
  renderValidation,
  renderWaves,
  table,
} from "./text";
import { EXIT, EXIT_FOR_ERROR } from "../exit-codes";
import { leasedPlan } from "../../coordination/plan-leases";
import { closeDatabases, DATABASE_ENV } from "../../coordination/database";
import { invoke } from "../invoke";
import { RevisionField } from "../../capabilities/inputs";
import { planAt } from "../../history/plan-at";
import type { Revision } from "../../history/revision";
import type { Forecast, PlanBurnup, PlanChanges, PlanHistory } from "../../plan/history-shapes";
import { renderBurnup, renderChanges, renderForecast, renderHistory } from "./time-text";
import { renderCode } from "./code-text";
import type { IssueCode, PlanCode } from "../../code/shapes";
import type { Io } from "./io";
import { runUsersCommand } from "./users";
import type { UndoResult } from "../../repo/undo";
import { planUndoCapability } from "../../capabilities/plan-undo";
import { escapeFields, escapeForTerminal } from "./terminal-text";
import { fitLines, terminalWidth } from "./terminal-width";
import { nearest } from "./nearest";
import { roadmapOrder } from "../../plan/roadmap";

export { EXIT };

type ReleaseResult = z.infer<typeof ReleaseResultSchema>;


export type { Io };

interface Outcome {
  value: unknown;
  /** The answer for a person; rendered only when no --json was asked for. */
  text(): string;
  exit?: number;
}

interface Verb {
  summary: string;
  options: Record<string, OptionKind>;
  /** Whether the verb takes one ID after it. */
  takesId?: boolean;
  /** Its positional words, when not none or one ID. */
  usage?: string;
  /** Its text is data (a graph's Mermaid or DOT): printed as it is, never wrapped to the width. */
  raw?: boolean;
  run(repo: string, args: ParsedArgs): Outcome | Promise<Outcome>;
}

const COMMON = { repo: "value", json: "flag", database: "value" } as const;
/** The options of a read: the common ones and `--at REV`. */
const READ = { ...COMMON, at: "value" } as const;

/** Options given on the command line, as input fields (absent options are absent fields). */
function fields(args: ParsedArgs, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [option, field] of Object.entries(names)) {
    const v = args.options.get(option);
    if (v !== undefined) out[field] = v;
  }
  return out;
}

/**
 * A verb that projects one capability: its input is built from the command line, validated and
 * answered by the registry exactly as over HTTP and MCP; a failure maps to the exit codes.
 */
/**
 * A verb that runs one capability: the declaration itself is passed, so `text` and `exit` get its
 * output type and no verb names it by hand.
 */
function capabilityVerb<I extends z.ZodType, O extends z.ZodType>(
  capability: Capability<I, O>,
  spec: Omit<Verb, "run"> & { input(args: ParsedArgs): Record<string, unknown>; text(value: z.infer<O>, args: ParsedArgs, plan: () => Plan): string; exit?(value: z.infer<O>): number },
): Verb {
  return {
    ...spec,
    async run(repo, args) {
      let plan: Plan | undefined;
      const planNow = () => (plan ??= loadPlan(repo));
      const ctx = { repo, ...leasedPlan(planNow) };
      const result = await invoke(capability, ctx, spec.input(args));
      if (!result.ok) throw new CapabilityError(result.error.code, result.error.message);
      const shown = () => escapeFields(result.value);
      return { value: result.value, text: () => withRevisionLine(shown(), spec.text(shown(), args, planNow)), exit: spec.exit?.(result.value) };
    },
  };
}

const NEW_VERB: Verb = {
  summary: "create an issue (--milestone M --title T) or a milestone (--title T), with the preview",
  options: { ...COMMON, id: "value", title: "value", milestone: "value", set: "values", add: "values", "dry-run": "flag", "allow-findings": "flag" },
  usage: "issue|milestone --title T [--milestone M] [--id ID] [--set FIELD=VALUE]… [--add FIELD=VALUE]… [--dry-run] [--allow-findings]",
  run: (repo, args) => {
    if (args.words.length !== 1 || (args.words[0] !== "issue" && args.words[0] !== "milestone")) {
      throw new UsageError("cockpit plan new takes what to create: issue or milestone");
    }
    return capabilityVerb(planCreateCapability, {
      summary: "",
      options: {},
      input: createInput,
      text: (v) => renderRecordWrite(v),
    }).run(repo, args);
  },
};

const VERBS: Record<string, Verb> = {
  model: capabilityVerb(planModelCapability, {
    summary: "the whole derived plan",
    options: { ...READ },
    input: (a) => fields(a, { at: "at" }),
    text: (v) => renderModel(v),
  }),
  status: capabilityVerb(planStatusCapability, {
    summary: "every milestone's progress, the active milestone and the next issue",
    options: { ...READ, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone", at: "at" }),
    // In roadmap order, as the overview lists them (the JSON keeps the plan's order); at a revision, that plan's.
    text: (v, a, plan) => renderStatus(v, (v as { at?: unknown }).at ? undefined : roadmapOrder(plan()).map((m) => m.id)),
  }),
  issues: capabilityVerb(planIssuesCapability, {
    summary: "issues, filtered by milestone, status or wave (--limit N: the first N)",
    options: { ...READ, milestone: "value", status: "value", wave: "value", limit: "value" },
    input: (a) => {
      const wave = a.options.get("wave");
      limitOf(a);
      return { ...fields(a, { milestone: "milestone", status: "status", at: "at" }), ...(wave !== undefined ? { wave: parseWave(wave) } : {}) };
    },
    text: (v, a) => renderIssues(v, limitOf(a)),
  }),
  waves: capabilityVerb(planWavesCapability, {
    summary: "what may run at the same time, and the scope overlaps that serialise it (--limit N: N issues a wave)",
    options: { ...READ, milestone: "value", limit: "value" },
    input: (a) => {
      limitOf(a);
      return fields(a, { milestone: "milestone", at: "at" });
    },
    text: (v, a) => renderWaves(v, limitOf(a)),
  }),
  next: capabilityVerb(planNextCapability, {
    summary: "the one issue to take now",
    options: { ...READ, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone", at: "at" }),
    text: (v) => withCodeFindings(renderNext(v), v),
  }),
  roadmap: capabilityVerb(planRoadmapCapability, {
    summary: "the milestones in derived order, with now and next",
    options: { ...READ },
    input: (a) => fields(a, { at: "at" }),
    text: (v) => renderRoadmap(v),
  }),
  "critical-path": capabilityVerb(planCriticalPathCapability, {
    summary: "the longest chain of unfinished issues (ending in --milestone M), first to do first",
    options: { ...READ, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone", at: "at" }),
    text: (v) => renderCriticalPath(v),
  }),
  validate: capabilityVerb(planValidateCapability, {
    summary: "every finding; exits 10 when one is a failure",
    options: { ...READ },
    input: (a) => fields(a, { at: "at" }),
    text: (v) => renderValidation(v),
    exit: (v) => (v.valid ? EXIT.ok : EXIT.contract),
  }),
  record: {
    summary: "one milestone or issue, with everything derived about it (--at REV: at a revision; --version: its version only)",
    options: { ...READ, version: "flag" },
    takesId: true,
    run: async (repo, args) => {
      if (args.options.has("version")) {
        if (args.options.has("at")) throw new UsageError("--version is the record's version now; it does not go with --at");
        const version = currentVersion(repo, args.words[0]) ?? "";
        return { value: { id: args.words[0], version }, text: () => version };
      }
      return capabilityVerb(planRecordCapability, {
        summary: "",
        options: {},
        input: (a) => ({ id: a.words[0], ...fields(a, { at: "at" }) }),
        text: (v) => renderRecord(v),
      }).run(repo, args);
    },
  },
  changes: capabilityVerb(planChangesCapability, {
    summary: "what changed since a revision (--since REV [--until REV] [--milestone M])",
    options: { ...COMMON, since: "value", until: "value", milestone: "value" },
    input: (a) => {
      if (!a.options.has("since")) throw new UsageError("--since is required: the revision or date to compare from (HEAD~1, 2026-11-30, a branch)");
      return fields(a, { since: "since", until: "until", milestone: "milestone" });
    },
    text: (v) => renderChanges(v),
  }),
  history: capabilityVerb(planHistoryCapability, {
    summary: "the commits that changed one record, newest first, with its status after each (--limit N)",
    options: { ...COMMON, limit: "value" },
    takesId: true,
    input: (a) => {
      const limit = a.options.get("limit");
      return { id: a.words[0], ...(limit !== undefined ? { limit: parseCount("--limit", limit) } : {}) };
    },
    text: (v) => renderHistory(v),
  }),
  burnup: capabilityVerb(planBurnupCapability, {
    summary: "a milestone's scope, started and done per day (--milestone M [--since DATE] [--until DATE])",
    options: { ...COMMON, milestone: "value", since: "value", until: "value" },
    input: (a) => {
      if (!a.options.has("milestone")) throw new UsageError("--milestone is required: the milestone to chart");
      return fields(a, { milestone: "milestone", since: "since", until: "until" });
    },
    text: (v) => renderBurnup(v),
  }),
  forecast: capabilityVerb(planForecastCapability, {
    summary: "50/85/95 % completion dates of a milestone, Monte Carlo (--milestone M [--seed S])",
    options: { ...COMMON, milestone: "value", seed: "value" },
    input: (a) => {
      if (!a.options.has("milestone")) throw new UsageError("--milestone is required: the milestone to forecast");
      const seed = a.options.get("seed");
      return { ...fields(a, { milestone: "milestone" }), ...(seed !== undefined ? { seed: parseCount("--seed", seed) } : {}) };
    },
    text: (v) => renderForecast(v),
  }),
  code: capabilityVerb(planCodeCapability, {
    summary: "the branches and commits linked to an issue, where it merged, and the code findings; without ID, every linked issue",
    options: { ...COMMON, "default-branch": "value", "stale-days": "value" },
    usage: "[ID] [--default-branch B] [--stale-days N]",
    input: (a) => {
      if (a.words.length > 1) throw new UsageError(`cockpit plan code takes at most one ID, but was given ${a.words.length}`);
      const stale = a.options.get("stale-days");
      return {
        ...(a.words.length === 1 ? { id: a.words[0] } : {}),
        ...fields(a, { "default-branch": "default_branch" }),
        ...(stale !== undefined ? { stale_days: parseCount("--stale-days", stale) } : {}),
      };
    },
    text: (v) => renderCode(v),
  }),
  standup: capabilityVerb(planStandupCapability, {
    summary: "the standup person by person: done, started, landed in the window; VERIFY, ACTIVE, BLOCKED now (--since REV [--until REV] [--stuck N])",
    options: { ...COMMON, since: "value", until: "value", stuck: "value" },
    input: (a) => {
      const stuck = a.options.get("stuck");
      return { ...fields(a, { since: "since", until: "until" }), ...(stuck !== undefined ? { stuck: parseCount("--stuck", stuck) } : {}) };
    },
    text: (v) => renderStandup(v),
  }),
  graph: {
    summary: "the waves graph as Mermaid or Graphviz DOT (--format mermaid|dot)",
    options: { repo: "value", format: "value", milestone: "value", at: "value" },
    raw: true,
    run: async (repo, args) => {
      const at = args.options.get("at");
      const plan = at === undefined ? loadPlan(repo) : await readAt(repo, at);
      const format = args.options.get("format") ?? "mermaid";
      if (format !== "mermaid" && format !== "dot") throw new UsageError(`--format is mermaid or dot, not '${format}'`);
      const m = args.options.get("milestone");
      const issues = m === undefined ? plan.issues : plan.issues.filter((i) => i.milestone === m);
      const text = format === "dot" ? toDot(plan, issues) : toMermaid(plan, issues);
      return { value: text, text: () => text };
    },
  },
  transition: {
    summary: "move an issue (the same as start, verify and done)",
    options: { ...COMMON },
    usage: "ID start|verify|done",
    run: (repo, args) => {
      if (args.words.length !== 2) throw new UsageError("cockpit plan transition takes an ID and a move (start, verify or done)");
      return capabilityVerb(planTransitionCapability, {
        summary: "",
        options: {},
        input: () => ({ issue: args.words[0], transition: args.words[1] }),
        text: (v) => renderTransition(v),
      }).run(repo, args);
    },
  },
  start: moveVerb("start", "start a READY issue (stamps started_at)"),
  verify: moveVerb("verify", "mark an ACTIVE issue as implemented, evidence outstanding"),
  done: moveVerb("done", "finish an ACTIVE or VERIFY issue whose evidence is complete"),
  evidence: capabilityVerb(planEvidenceCapability, {
    summary: "record evidence on an issue or a milestone",
    options: { ...COMMON, covers: "value", type: "value", command: "value", artifact: "value", result: "value" },
    takesId: true,
    input: (a) => {
      for (const required of ["covers", "type"]) {
        if (!a.options.has(required)) throw new UsageError(`--${required} is required`);
      }
      return { record: a.words[0], ...fields(a, { covers: "covers", type: "type", command: "command", artifact: "artifact", result: "result" }) };
    },
    text: (v) => {
      const r = v;
      const covered = r.evidence_need - r.evidence_missing.length;
      const left = r.evidence_missing.length ? `; still missing: ${r.evidence_missing.join(", ")}` : "";
      return `plan: ${r.record} evidence recorded for ${r.covers} (${covered} of ${r.evidence_need} required token(s) covered${left})`;
    },
  }),
  claim: capabilityVerb(planClaimCapability, {
    summary: "start the next ready issue (of one milestone with --milestone) in one locked step",
    options: { ...COMMON, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone" }),
    text: (v) => withCodeFindings(renderTransition(v), v),
  }),
  release: capabilityVerb(planReleaseCapability, {
    summary: "end this clone's lease on an issue (--force: whoever holds it); needs a database",
    options: { ...COMMON, force: "flag" },
    takesId: true,
    input: (a) => ({ issue: a.words[0], ...(a.options.has("force") ? { force: true } : {}) }),
    text: (v) => {
      const r = v;
      return r.released ? `plan: ${r.issue} released (it was held by ${r.holder})` : `plan: ${r.issue} was not leased; nothing to release`;
    },
  }),
  new: NEW_VERB,
  create: { ...NEW_VERB, summary: "the same as new" },
  edit: capabilityVerb(planEditCapability, {
    summary: "change a milestone's or an issue's fields, with the preview of what it changes",
    options: {
      ...COMMON,
      set: "values",
      unset: "values",
      add: "values",
      remove: "values",
      "if-version": "value",
      "dry-run": "flag",
      "allow-findings": "flag",
    },
    takesId: true,
    input: editInput,
    text: (v) => renderRecordWrite(v),
  }),
  undo: capabilityVerb(planUndoCapability, {
    summary: "put a record back as it was before one of your moves or edits (its ledger id, from the move's answer)",
    options: { ...COMMON },
    usage: "LEDGER_ID",
    input: (a) => {
      if (a.words.length !== 1) throw new UsageError("cockpit plan undo takes one ledger id (the number a move's answer gave)");
      return { ledger_id: parseCount("LEDGER_ID", a.words[0]) };
    },
    text: (v) => {
      const r = v;
      return `plan: undid ledger line ${r.undoes} (${r.undone}): ${r.record} ${r.from || "(none)"} → ${r.to || "(removed)"}; logged as line ${r.ledger_id}`;
    },
  }),
  import: capabilityVerb(planImportCapability, {
    summary: "import a plan from beads, Backlog.md, Task Master or GitHub Issues (--dry-run: the answer, nothing written)",
    options: { ...COMMON, prefix: "value", dependencies: "value", "dry-run": "flag" },
    usage: "beads|backlog|taskmaster|github SOURCE [--prefix P] [--dependencies FILE] [--dry-run]",
    input: importInput,
    text: (v) => renderImport(v),
  }),
  "sync-status": capabilityVerb(planSyncStatusCapability, {
    summary: "how a served clone follows its remote (cockpit serve --follow): the state, what is behind, ahead and waiting",
    options: { ...COMMON },
    input: () => ({}),
    text: (v) =>
      `${v.state}${v.remote ? ` (${v.remote}/${v.branch})` : ""}: ${v.message}\nlast fetch: ${v.last_fetch_at ?? "never"}${v.last_fetch_ok === false ? " (failed)" : ""}\nbehind ${v.behind}, ahead ${v.ahead}, waiting ${v.waiting}\n`,
  }),
  commit: capabilityVerb(planCommitCapability, {
    summary: "commit the changed records (only their folder) with the moves and edits behind them, and push",
    options: { ...COMMON, message: "value", "no-push": "flag", "pull-rebase": "flag", "dry-run": "flag" },
    input: (a) => ({
      ...fields(a, { message: "message" }),
      ...(a.options.has("no-push") ? { push: false } : {}),
      ...(a.options.has("pull-rebase") ? { pull_rebase: true } : {}),
      ...(a.options.has("dry-run") ? { dry_run: true } : {}),
    }),
    text: (v) => renderCommit(v),
    exit: (v) => (v.push && v.push!.status !== "pushed" ? EXIT.refused : EXIT.ok),
  }),
  adopt: {
    summary: "admit a plan written before seals: list its pre-seal stamps in unsealed_stamps",
    options: { ...COMMON, "dry-run": "flag" },
    run: async (repo, args) => {
      const r = await adoptLegacyStamps(repo, { dryRun: args.options.has("dry-run") });
      return { value: r, text: () => renderAdoption(escapeFields(r)) };
    },
  },
};

/** The plan at a revision for a verb outside the registry (graph), refused as every read refuses. */
async function readAt(repo: string, at: string): Promise<Plan> {
  const parsed = RevisionField.safeParse(at);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? "--at needs a revision");
  return (await planAt(repo, at)).plan;
}

/** A read answered from a revision says so on its first line. */
function withRevisionLine(value: unknown, text: string): string {
  const at = (value as { at?: Revision } | null)?.at;
  if (!at || typeof at !== "object") return text;
  return `at ${at.rev}: ${at.commit === null ? "before the first commit (the empty plan)" : `${at.commit} (${at.committed_at})`}\n${text}`;
}

function moveVerb(move: Move, summary: string): Verb {
  return capabilityVerb(planTransitionCapability, {
    summary,
    options: { ...COMMON },
    takesId: true,
    input: (a) => ({ issue: a.words[0], transition: move }),
    text: (v) => renderTransition(v),
  });
}

/** The code findings an answer carries about the issue it names, one warning line each. */
function withCodeFindings(text: string, value: unknown): string {
  const findings = (value as { code_findings?: { level: string; code: string; message: string }[] }).code_findings ?? [];
  const warnings = (value as { warnings?: { code: string; message: string }[] }).warnings ?? [];
  return [text, ...findings.map((f) => `${f.level} ${f.code}: ${f.message}`), ...warnings.map((w) => `WARN ${w.code}: ${w.message}`)].join("\n");
}

function renderTransition(r: TransitionResult): string {
  const undo = r.ledger_id !== undefined ? `\nundo: cockpit plan undo ${r.ledger_id}` : "";
  return `plan: ${r.issue} ${r.from} → ${r.to} (${r.field} ${r.at})\nnext ready issue: ${r.next_ready ?? "none"}${undo}`;
}

function renderAdoption(r: AdoptResult): string {
  if (r.records === 0) return "adopt: every pre-seal stamp is already sealed or listed; nothing to do";
  const verb = r.dry_run ? "would list" : "listed";
  return [
    ...r.adopted.map((a) => `${a.issue}: ${verb} ${a.stamps.join(", ")}`),
    `adopt: ${verb} ${r.stamps} stamp(s) in ${r.records} record(s)`,
  ].join("\n");
}

function parseCount(option: string, text: string): number {
  if (/^-[0-9]+$/.test(text)) throw new UsageError(`${option} must be 0 or more, not '${text}'`);
  if (!/^[0-9]{1,10}$/.test(text)) throw new UsageError(`${option} takes a whole number, not '${text}'`);
  return Number(text);
}

/** `--limit N` of a listing: how many it shows (the rest are counted); undefined: all. */
function limitOf(a: ParsedArgs): number | undefined {
  const limit = a.options.get("limit");
  return limit === undefined ? undefined : parseCount("--limit", limit);
}

function parseWave(text: string): number {
  if (/^-[0-9]+$/.test(text)) throw new UsageError(`--wave must be 0 or more, not '${text}'`);
  if (!/^[0-9]+$/.test(text) || Number(text) > 4294967295) {
    throw new UsageError(`--wave takes a wave number (0, 1, 2, …), not '${text}'`);
  }
  return Number(text);
}

/** The plan verbs as data, in the order `usage()` lists them (and docs/cli.md, made by `npm run docs`). */
export function planVerbs(): VerbDoc[] {
  return Object.entries(VERBS).map(([verb, d]) => ({ verb, args: d.usage ?? (d.takesId ? "ID" : ""), summary: d.summary, options: d.options }));
}

export function usage(width = terminalWidth()): string {
  const verbs = planVerbs().map((v) => [`  cockpit plan ${v.verb}${v.args ? ` ${v.args}` : ""}`, v.summary]);
  // The verb's words keep at most a third of the line; its summary wraps in the rest.
  const left = Math.min(Math.max(...verbs.map(([a]) => a.length)), Math.floor(width / 3));
  return fitLines([
    "usage: cockpit plan <verb> [--repo DIR] [--json] [options] [ID]",
    "",
    table(verbs.map(([a, b]) => [a.length > left ? a : a.padEnd(left), b]), undefined, width),
    "",
    "--repo defaults to the current folder; --json prints the capability's output as one JSON document.",
    "--at REV answers a read from a git revision (sha, branch, tag, HEAD~3) or a date/ISO time, read from git's objects.",
    `--database URL (or ${DATABASE_ENV}) coordinates clones through a shared PostgreSQL: leases on issues, and the execution plans (cockpit plans).`,
    `statuses: ${ISSUE_STATUSES.join(", ")}`,
    "exit codes: 0 ok, 2 usage or invalid input, 10 validate found a failure, 12 no such record, 15 refused",
  ].join("\n"), width);
}

/** Run `cockpit plan <verb> …` and return the exit code. */
export async function runPlanCommand(argv: readonly string[], terminal: Io, cwd = process.cwd()): Promise<number> {
  // Messages name record text (an id, a title): on stderr, and in every answer but --json, escaped.
  const io: Io = { out: (text) => terminal.out(escapeForTerminal(text)), err: (text) => terminal.err(escapeForTerminal(text)) };
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
    io.out(usage());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  const spec = VERBS[verb];
  if (!spec) {
    const near = nearest(verb, Object.keys(VERBS));
    io.err(`cockpit plan: unknown verb '${verb}'; ${near ? `did you mean ${near}? ` : ""}the verbs are ${Object.keys(VERBS).join(", ")}`);
    return EXIT.usage;
  }
  try {
    const args = parseArgs(rest, spec.options);
    if (spec.takesId && args.words.length !== 1) {
      throw new UsageError(`cockpit plan ${verb} takes one ID (a milestone or an issue)`);
    }
    if (!spec.takesId && !spec.usage && args.words.length > 0) {
      throw new UsageError(`cockpit plan ${verb} takes no argument, but was given '${args.words[0]}'`);
    }
    const repo = resolve(cwd, args.options.get("repo") ?? ".");
    const database = args.options.get("database");
    if (database !== undefined) process.env[DATABASE_ENV] = database;
    const result = await spec.run(repo, args);
    if (args.options.has("json")) terminal.out(JSON.stringify(result.value));
    else io.out(spec.raw ? result.text() : fitLines(result.text(), terminalWidth()));
    return result.exit ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`cockpit plan ${verb}: ${error.message}`);
      return EXIT.usage;
    }
    if (error instanceof CapabilityError) {
      io.err(`cockpit plan ${verb}: ${error.message}`);
      return EXIT_FOR_ERROR[error.code];
    }
    throw error;
  } finally {
    await closeDatabases();
  }
}

/** The `cockpit` command. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "plan") return runPlanCommand(rest, io);
  if (command === "users") return runUsersCommand(rest, io);
  if (command === "--version" || command === "version") {
    io.out(`cockpit ${COCKPIT_VERSION}`);
    return EXIT.ok;
  }
  io.out(fitLines([...COMMANDS_HELP, "", usage()].join("\n"), terminalWidth()));
  return command === undefined || command === "help" || command === "--help" ? EXIT.ok : EXIT.usage;
}

/** The commands of `cockpit`, as its help lists them. */
export const COMMANDS_HELP: readonly string[] = [
  "usage: cockpit <command> …",
  "",
  "commands:",
  "  plan <verb> …      read and move the plan in a repository (the verbs are below)",
  "  plans <verb> …     execution plans: decompose a milestone and run it (cockpit plans help)",
  "  serve [--repo DIR] [--port P] [--host H] [--users FILE] [--allowed-host NAME]… [--trust-proxy] [--database URL] [--author 'NAME <EMAIL>'] [--default-branch B]",
  "                     the browser Cockpit, the HTTP API and MCP over HTTP",
  "  mcp [--repo DIR] [--database URL]",
  "                     the MCP server over stdio",
  "  users add|set|remove|list [NAME] [--email ADDR] --users FILE",
  "                     the people and agents a server knows by name (cockpit users help)",
  "  --version          the version",
];

