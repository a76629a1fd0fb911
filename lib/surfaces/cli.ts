import { resolve } from "node:path";
import { CapabilityError } from "../errors";
import { ISSUE_STATUSES } from "../plan/constants";
import { loadPlan } from "../plan/index";
import {
  planIssues,
  planModel,
  planNext,
  planRecord,
  planRoadmap,
  planStatus,
  planValidate,
  planWaves,
} from "../plan/queries";
import type { Plan } from "../plan/shapes";
import type { Move } from "../plan/seal";
import {
  adoptLegacyStamps,
  claim,
  recordEvidence,
  transition,
  type AdoptResult,
  type TransitionResult,
} from "../plan/transition";
import { COCKPIT_VERSION } from "../version";
import { toDot, toMermaid } from "../graph/export";
import { UsageError, parseArgs, type ParsedArgs } from "./cli-args";
import {
  renderIssues,
  renderModel,
  renderNext,
  renderRecord,
  renderRoadmap,
  renderStatus,
  renderValidation,
  renderWaves,
} from "./cli-text";

/** Exit codes (plan-semantics §8). */
export const EXIT = { ok: 0, usage: 2, contract: 10, missing: 12, internal: 13, refused: 15 } as const;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

interface Outcome {
  value: unknown;
  text: string;
  exit?: number;
}

interface Verb {
  summary: string;
  options: Record<string, "flag" | "value">;
  /** Whether the verb takes one ID after it. */
  takesId?: boolean;
  /** Whether it writes the plan (it then takes the plan lock). */
  writes?: boolean;
  run(repo: string, args: ParsedArgs): Outcome | Promise<Outcome>;
}

/** A read verb: derive the plan from the files as they are now, then answer from it. */
const reading =
  (answer: (plan: Plan, args: ParsedArgs) => Outcome) =>
  (repo: string, args: ParsedArgs): Outcome =>
    answer(loadPlan(repo), args);

const COMMON = { repo: "value", json: "flag" } as const;

function milestoneOption(args: ParsedArgs): { milestone?: string } {
  const m = args.options.get("milestone");
  return m === undefined ? {} : { milestone: m };
}

const VERBS: Record<string, Verb> = {
  model: {
    summary: "the whole derived plan",
    options: { ...COMMON },
    run: reading((plan) => ({ value: planModel(plan), text: renderModel(plan) })),
  },
  status: {
    summary: "every milestone's progress, the active milestone and the next issue",
    options: { ...COMMON, milestone: "value" },
    run: reading((plan, args) => {
      const r = planStatus(plan, milestoneOption(args));
      return { value: r, text: renderStatus(r) };
    }),
  },
  issues: {
    summary: "issues, filtered by milestone, status or wave",
    options: { ...COMMON, milestone: "value", status: "value", wave: "value" },
    run: reading((plan, args) => {
      const wave = args.options.get("wave");
      const r = planIssues(plan, {
        ...milestoneOption(args),
        ...(args.options.has("status") ? { status: args.options.get("status") } : {}),
        ...(wave !== undefined ? { wave: parseWave(wave) } : {}),
      });
      return { value: r, text: renderIssues(r) };
    }),
  },
  waves: {
    summary: "what may run at the same time, and the scope overlaps that serialise it",
    options: { ...COMMON, milestone: "value" },
    run: reading((plan, args) => {
      const r = planWaves(plan, milestoneOption(args));
      return { value: r, text: renderWaves(r) };
    }),
  },
  next: {
    summary: "the one issue to take now",
    options: { ...COMMON, milestone: "value" },
    run: reading((plan, args) => {
      const r = planNext(plan, milestoneOption(args));
      return { value: r, text: renderNext(r) };
    }),
  },
  roadmap: {
    summary: "the milestones in derived order, with now and next",
    options: { ...COMMON },
    run: reading((plan) => {
      const r = planRoadmap(plan);
      return { value: r, text: renderRoadmap(r) };
    }),
  },
  validate: {
    summary: "every finding; exits 10 when one is a failure",
    options: { ...COMMON },
    run: reading((plan) => {
      const r = planValidate(plan);
      return { value: r, text: renderValidation(r), exit: r.valid ? EXIT.ok : EXIT.contract };
    }),
  },
  record: {
    summary: "one milestone or issue, with everything derived about it",
    options: { ...COMMON },
    takesId: true,
    run: reading((plan, args) => {
      const r = planRecord(plan, { id: args.words[0] });
      return { value: r, text: renderRecord(r) };
    }),
  },
  graph: {
    summary: "the waves graph as Mermaid or Graphviz DOT (--format mermaid|dot)",
    options: { repo: "value", format: "value", milestone: "value" },
    run: reading((plan, args) => {
      const format = args.options.get("format") ?? "mermaid";
      if (format !== "mermaid" && format !== "dot") throw new UsageError(`--format is mermaid or dot, not '${format}'`);
      const m = args.options.get("milestone");
      const issues = m === undefined ? plan.issues : plan.issues.filter((i) => i.milestone === m);
      const text = format === "dot" ? toDot(plan, issues) : toMermaid(plan, issues);
      return { value: text, text };
    }),
  },
  start: moveVerb("start", "start a READY issue (stamps started_at)"),
  verify: moveVerb("verify", "mark an ACTIVE issue as implemented, evidence outstanding"),
  done: moveVerb("done", "finish an ACTIVE or VERIFY issue whose evidence is complete"),
  evidence: {
    summary: "record evidence on an issue or a milestone",
    options: { ...COMMON, covers: "value", type: "value", command: "value", artifact: "value", result: "value" },
    takesId: true,
    writes: true,
    run: async (repo, args) => {
      const o = args.options;
      for (const required of ["covers", "type"]) {
        if (!o.has(required)) throw new UsageError(`--${required} is required`);
      }
      if (o.has("command") && o.has("artifact")) throw new UsageError("give --command or --artifact, not both");
      const r = await recordEvidence(repo, {
        record: args.words[0],
        covers: o.get("covers")!,
        type: o.get("type")!,
        ...(o.has("command") ? { command: o.get("command")! } : {}),
        ...(o.has("artifact") ? { artifact: o.get("artifact")! } : {}),
        ...(o.has("result") ? { result: o.get("result")! } : {}),
      });
      return {
        value: r,
        text: `plan: ${r.record} evidence recorded for ${r.covers} (${r.evidence_have} of ${r.evidence_need} requirement(s) covered)`,
      };
    },
  },
  claim: {
    summary: "start the next ready issue (of one milestone with --milestone) in one locked step",
    options: { ...COMMON, milestone: "value" },
    writes: true,
    run: async (repo, args) => {
      const r = await claim(repo, args.options.get("milestone"));
      return { value: r, text: renderTransition(r) };
    },
  },
  adopt: {
    summary: "admit a plan written before seals: list its pre-seal stamps in unsealed_stamps",
    options: { ...COMMON, "dry-run": "flag" },
    writes: true,
    run: async (repo, args) => {
      const r = await adoptLegacyStamps(repo, { dryRun: args.options.has("dry-run") });
      return { value: r, text: renderAdoption(r) };
    },
  },
};

function moveVerb(move: Move, summary: string): Verb {
  return {
    summary,
    options: { ...COMMON },
    takesId: true,
    writes: true,
    run: async (repo, args) => {
      const r = await transition(repo, args.words[0], move);
      return { value: r, text: renderTransition(r) };
    },
  };
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
  const verbs = Object.entries(VERBS).map(([v, d]) => [`  cockpit plan ${v}${d.takesId ? " ID" : ""}`, d.summary]);
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

function exitFor(error: CapabilityError): number {
  switch (error.code) {
    case "not_found":
      return EXIT.missing;
    case "invalid_input":
      return EXIT.usage;
    case "refused":
      return EXIT.refused;
    default:
      return EXIT.internal;
  }
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
    if (!spec.takesId && args.words.length > 0) {
      throw new UsageError(`cockpit plan ${verb} takes no argument, but was given '${args.words[0]}'`);
    }
    const repo = resolve(cwd, args.options.get("repo") ?? ".");
    const result = await spec.run(repo, args);
    io.out(args.options.has("json") ? JSON.stringify(result.value) : result.text);
    return result.exit ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`cockpit plan ${verb}: ${error.message}`);
      return EXIT.usage;
    }
    if (error instanceof CapabilityError) {
      io.err(`cockpit plan ${verb}: ${error.message}`);
      return exitFor(error);
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
  io.out(["usage: cockpit plan <verb> …", "", usage()].join("\n"));
  return command === undefined || command === "help" || command === "--help" ? EXIT.ok : EXIT.usage;
}

