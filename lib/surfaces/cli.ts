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

interface ReadVerb {
  summary: string;
  options: Record<string, "flag" | "value">;
  /** Positional arguments after the verb. */
  takesId?: boolean;
  run(plan: Plan, args: ParsedArgs): { value: unknown; text: string; exit?: number };
}

const COMMON = { repo: "value", json: "flag" } as const;

function milestoneOption(args: ParsedArgs): { milestone?: string } {
  const m = args.options.get("milestone");
  return m === undefined ? {} : { milestone: m };
}

const READ_VERBS: Record<string, ReadVerb> = {
  model: {
    summary: "the whole derived plan",
    options: { ...COMMON },
    run: (plan) => ({ value: planModel(plan), text: renderModel(plan) }),
  },
  status: {
    summary: "every milestone's progress, the active milestone and the next issue",
    options: { ...COMMON, milestone: "value" },
    run: (plan, args) => {
      const r = planStatus(plan, milestoneOption(args));
      return { value: r, text: renderStatus(r) };
    },
  },
  issues: {
    summary: "issues, filtered by milestone, status or wave",
    options: { ...COMMON, milestone: "value", status: "value", wave: "value" },
    run: (plan, args) => {
      const wave = args.options.get("wave");
      const r = planIssues(plan, {
        ...milestoneOption(args),
        ...(args.options.has("status") ? { status: args.options.get("status") } : {}),
        ...(wave !== undefined ? { wave: parseWave(wave) } : {}),
      });
      return { value: r, text: renderIssues(r) };
    },
  },
  waves: {
    summary: "what may run at the same time, and the scope overlaps that serialise it",
    options: { ...COMMON, milestone: "value" },
    run: (plan, args) => {
      const r = planWaves(plan, milestoneOption(args));
      return { value: r, text: renderWaves(r) };
    },
  },
  next: {
    summary: "the one issue to take now",
    options: { ...COMMON, milestone: "value" },
    run: (plan, args) => {
      const r = planNext(plan, milestoneOption(args));
      return { value: r, text: renderNext(r) };
    },
  },
  roadmap: {
    summary: "the milestones in derived order, with now and next",
    options: { ...COMMON },
    run: (plan) => {
      const r = planRoadmap(plan);
      return { value: r, text: renderRoadmap(r) };
    },
  },
  validate: {
    summary: "every finding; exits 10 when one is a failure",
    options: { ...COMMON },
    run: (plan) => {
      const r = planValidate(plan);
      return { value: r, text: renderValidation(r), exit: r.valid ? EXIT.ok : EXIT.contract };
    },
  },
  record: {
    summary: "one milestone or issue, with everything derived about it",
    options: { ...COMMON },
    takesId: true,
    run: (plan, args) => {
      const r = planRecord(plan, { id: args.words[0] });
      return { value: r, text: renderRecord(r) };
    },
  },
};

function parseWave(text: string): number {
  if (!/^[0-9]+$/.test(text) || Number(text) > 4294967295) {
    throw new UsageError(`--wave takes a wave number (0, 1, 2, …), not '${text}'`);
  }
  return Number(text);
}

export function usage(): string {
  const verbs = Object.entries(READ_VERBS).map(([v, d]) => [`  cockpit plan ${v}${d.takesId ? " ID" : ""}`, d.summary]);
  const width = Math.max(...verbs.map(([a]) => a.length));
  return [
    "usage: cockpit plan <verb> [--repo DIR] [--json] [--milestone M] [--status S] [--wave N] [ID]",
    "",
    ...verbs.map(([a, b]) => `${a.padEnd(width)}  ${b}`),
    "",
    "--repo defaults to the current folder; --json prints the capability's output as one JSON document.",
    `statuses: ${ISSUE_STATUSES.join(", ")}`,
    "exit codes: 0 ok, 2 usage or invalid input, 10 validate found a failure, 12 no such record",
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
export function runPlanCommand(argv: readonly string[], io: Io, cwd = process.cwd()): number {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "help" || verb === "--help" || verb === "-h") {
    io.out(usage());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  const spec = READ_VERBS[verb];
  if (!spec) {
    io.err(`cockpit plan: unknown verb '${verb}'; the verbs are ${Object.keys(READ_VERBS).join(", ")}`);
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
    const plan = loadPlan(repo);
    const result = spec.run(plan, args);
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
export function main(argv: readonly string[], io: Io): number {
  const [command, ...rest] = argv;
  if (command === "plan") return runPlanCommand(rest, io);
  if (command === "--version" || command === "version") {
    io.out(`cockpit ${VERSION}`);
    return EXIT.ok;
  }
  io.out(["usage: cockpit plan <verb> …", "", usage()].join("\n"));
  return command === undefined || command === "help" || command === "--help" ? EXIT.ok : EXIT.usage;
}

declare const __COCKPIT_VERSION__: string | undefined;
export const VERSION = typeof __COCKPIT_VERSION__ === "string" ? __COCKPIT_VERSION__ : "0.1.0";
