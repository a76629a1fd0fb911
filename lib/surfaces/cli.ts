import { resolve } from "node:path";
import { planCapabilities } from "../capabilities/plan-registry";
import { CapabilityError } from "../errors";
import { toDot, toMermaid } from "../graph/export";
import { ISSUE_STATUSES } from "../plan/constants";
import { loadPlan } from "../plan/index";
import type { Move } from "../plan/seal";
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
} from "../plan/shapes";
import { adoptLegacyStamps, type AdoptResult, type EvidenceResult, type TransitionResult } from "../plan/transition";
import { COCKPIT_VERSION } from "../version";
import { UsageError, parseArgs, type ParsedArgs } from "./cli-args";
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
} from "./cli-text";
import { EXIT, EXIT_FOR_ERROR } from "./exit-codes";
import { invoke } from "./invoke";

export { EXIT };


export interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface Outcome {
  value: unknown;
  /** The answer for a person; rendered only when no --json was asked for. */
  text(): string;
  exit?: number;
}

interface Verb {
  summary: string;
  options: Record<string, "flag" | "value">;
  /** Whether the verb takes one ID after it. */
  takesId?: boolean;
  /** Its positional words, when not none or one ID. */
  usage?: string;
  run(repo: string, args: ParsedArgs): Outcome | Promise<Outcome>;
}

const COMMON = { repo: "value", json: "flag" } as const;

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
function capabilityVerb(
  id: string,
  spec: Omit<Verb, "run"> & { input(args: ParsedArgs): Record<string, unknown>; text(value: unknown): string; exit?(value: unknown): number },
): Verb {
  return {
    ...spec,
    async run(repo, args) {
      const capability = planCapabilities.find((c) => c.id === id)!;
      let plan: Plan | undefined;
      const ctx = { repo, plan: () => (plan ??= loadPlan(repo)) };
      const result = await invoke(capability, ctx, spec.input(args));
      if (!result.ok) throw new CapabilityError(result.error.code, result.error.message);
      return { value: result.value, text: () => spec.text(result.value), exit: spec.exit?.(result.value) };
    },
  };
}

const VERBS: Record<string, Verb> = {
  model: capabilityVerb("plan.model", {
    summary: "the whole derived plan",
    options: { ...COMMON },
    input: () => ({}),
    text: (v) => renderModel(v as Plan),
  }),
  status: capabilityVerb("plan.status", {
    summary: "every milestone's progress, the active milestone and the next issue",
    options: { ...COMMON, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone" }),
    text: (v) => renderStatus(v as PlanStatusReport),
  }),
  issues: capabilityVerb("plan.issues", {
    summary: "issues, filtered by milestone, status or wave",
    options: { ...COMMON, milestone: "value", status: "value", wave: "value" },
    input: (a) => {
      const wave = a.options.get("wave");
      return { ...fields(a, { milestone: "milestone", status: "status" }), ...(wave !== undefined ? { wave: parseWave(wave) } : {}) };
    },
    text: (v) => renderIssues(v as PlanIssueList),
  }),
  waves: capabilityVerb("plan.waves", {
    summary: "what may run at the same time, and the scope overlaps that serialise it",
    options: { ...COMMON, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone" }),
    text: (v) => renderWaves(v as PlanWaveReport),
  }),
  next: capabilityVerb("plan.next", {
    summary: "the one issue to take now",
    options: { ...COMMON, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone" }),
    text: (v) => renderNext(v as PlanNextIssue),
  }),
  roadmap: capabilityVerb("plan.roadmap", {
    summary: "the milestones in derived order, with now and next",
    options: { ...COMMON },
    input: () => ({}),
    text: (v) => renderRoadmap(v as PlanRoadmap),
  }),
  "critical-path": capabilityVerb("plan.critical_path", {
    summary: "the longest chain of unfinished issues (ending in --milestone M), first to do first",
    options: { ...COMMON, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone" }),
    text: (v) => renderCriticalPath(v as PlanCriticalPath),
  }),
  validate: capabilityVerb("plan.validate", {
    summary: "every finding; exits 10 when one is a failure",
    options: { ...COMMON },
    input: () => ({}),
    text: (v) => renderValidation(v as PlanValidation),
    exit: (v) => ((v as PlanValidation).valid ? EXIT.ok : EXIT.contract),
  }),
  record: capabilityVerb("plan.record", {
    summary: "one milestone or issue, with everything derived about it",
    options: { ...COMMON },
    takesId: true,
    input: (a) => ({ id: a.words[0] }),
    text: (v) => renderRecord(v as PlanRecord),
  }),
  graph: {
    summary: "the waves graph as Mermaid or Graphviz DOT (--format mermaid|dot)",
    options: { repo: "value", format: "value", milestone: "value" },
    run: (repo, args) => {
      const plan = loadPlan(repo);
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
      return capabilityVerb("plan.transition", {
        summary: "",
        options: {},
        input: () => ({ issue: args.words[0], transition: args.words[1] }),
        text: (v) => renderTransition(v as TransitionResult),
      }).run(repo, args);
    },
  },
  start: moveVerb("start", "start a READY issue (stamps started_at)"),
  verify: moveVerb("verify", "mark an ACTIVE issue as implemented, evidence outstanding"),
  done: moveVerb("done", "finish an ACTIVE or VERIFY issue whose evidence is complete"),
  evidence: capabilityVerb("plan.evidence", {
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
      const r = v as EvidenceResult;
      return `plan: ${r.record} evidence recorded for ${r.covers} (${r.evidence_have} of ${r.evidence_need} requirement(s) covered)`;
    },
  }),
  claim: capabilityVerb("plan.claim", {
    summary: "start the next ready issue (of one milestone with --milestone) in one locked step",
    options: { ...COMMON, milestone: "value" },
    input: (a) => fields(a, { milestone: "milestone" }),
    text: (v) => renderTransition(v as TransitionResult),
  }),
  adopt: {
    summary: "admit a plan written before seals: list its pre-seal stamps in unsealed_stamps",
    options: { ...COMMON, "dry-run": "flag" },
    run: async (repo, args) => {
      const r = await adoptLegacyStamps(repo, { dryRun: args.options.has("dry-run") });
      return { value: r, text: () => renderAdoption(r) };
    },
  },
};

function moveVerb(move: Move, summary: string): Verb {
  return capabilityVerb("plan.transition", {
    summary,
    options: { ...COMMON },
    takesId: true,
    input: (a) => ({ issue: a.words[0], transition: move }),
    text: (v) => renderTransition(v as TransitionResult),
  });
}

function renderTransition(r: TransitionResult): string {
  return `plan: ${r.issue} ${r.from} → ${r.to} (${r.field} ${r.at})\nnext ready issue: ${r.next_ready ?? "none"}`;
}

function renderAdoption(r: AdoptResult): string {
  if (r.records === 0) return "adopt: every pre-seal stamp is already sealed or listed; nothing to do";
  const verb = r.dry_run ? "would list" : "listed";
  return [
    ...r.adopted.map((a) => `${a.issue}: ${verb} ${a.stamps.join(", ")}`),
    `adopt: ${verb} ${r.stamps} stamp(s) in ${r.records} record(s)`,
  ].join("\n");
}

function parseWave(text: string): number {
  if (!/^[0-9]+$/.test(text) || Number(text) > 4294967295) {
    throw new UsageError(`--wave takes a wave number (0, 1, 2, …), not '${text}'`);
  }
  return Number(text);
}

export function usage(): string {
  const verbs = Object.entries(VERBS).map(([v, d]) => [`  cockpit plan ${v}${d.usage ? ` ${d.usage}` : d.takesId ? " ID" : ""}`, d.summary]);
  const width = Math.max(...verbs.map(([a]) => a.length));
  return [
    "usage: cockpit plan <verb> [--repo DIR] [--json] [options] [ID]",
    "",
    ...verbs.map(([a, b]) => `${a.padEnd(width)}  ${b}`),
    "",
    "--repo defaults to the current folder; --json prints the capability's output as one JSON document.",
    `statuses: ${ISSUE_STATUSES.join(", ")}`,
    "exit codes: 0 ok, 2 usage or invalid input, 10 validate found a failure, 12 no such record, 15 refused",
  ].join("\n");
}

/** Run `cockpit plan <verb> …` and return the exit code. */
export async function runPlanCommand(argv: readonly string[], io: Io, cwd = process.cwd()): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
    io.out(usage());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  const spec = VERBS[verb];
  if (!spec) {
    io.err(`cockpit plan: unknown verb '${verb}'; the verbs are ${Object.keys(VERBS).join(", ")}`);
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
    const result = await spec.run(repo, args);
    io.out(args.options.has("json") ? JSON.stringify(result.value) : result.text());
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
  }
}

/** The `cockpit` command. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "plan") return runPlanCommand(rest, io);
  if (command === "--version" || command === "version") {
    io.out(`cockpit ${COCKPIT_VERSION}`);
    return EXIT.ok;
  }
  io.out(
    [
      usage(),
      "",
      "cockpit plans <verb> …                       execution plans (cockpit plans help)",
      "cockpit serve --repo DIR [--port P] [--host H]  the browser Cockpit and the HTTP API",
      "cockpit mcp --repo DIR                          the MCP server over stdio",
    ].join("\n"),
  );
  return command === undefined || command === "help" || command === "--help" ? EXIT.ok : EXIT.usage;
}

