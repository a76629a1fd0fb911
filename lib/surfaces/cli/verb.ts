import type { Capability } from "../../capabilities/capability";
import { CapabilityError } from "../../plan/errors";
import { derivePlan } from "../../plan/derive";
import type { PlanRecords } from "../../plan/records";
import { loadRecordsWithParseCache } from "../../repo/parse-cache";
import type { Plan } from "../../plan/shapes";
import type { z } from "zod";
import { COMMON, UsageError, WRITE, configOfArgs, type OptionKind, type ParsedArgs } from "./args";
import { actorFromEnv } from "../../config";
import { ActorNameError, resolveActor, type Actor } from "../../repo/identity";

export { COMMON, WRITE };
import { leasedPlan } from "../../coordination/plan-leases";
import { invoke } from "../invoke";
import { RevisionField } from "../../capabilities/inputs";
import { planAt } from "../../history/plan-at";
import type { Revision } from "../../history/revision";
import { escapeFields } from "./terminal-text";

// What a plan verb is, and the helpers the verbs share.

export interface Outcome {
  value: unknown;
  /** The answer for a person; rendered only when no --json was asked for. */
  text(): string;
  exit?: number;
}

export interface Verb {
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

/** Options given on the command line, as input fields (absent options are absent fields). */
export function fields(args: ParsedArgs, names: Record<string, string>): Record<string, unknown> {
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
export function capabilityVerb<I extends z.ZodType, O extends z.ZodType>(
  capability: Capability<I, O>,
  spec: Omit<Verb, "run"> & {
    input(args: ParsedArgs): Record<string, unknown>;
    text(value: z.infer<O>, args: ParsedArgs, plan: () => Plan, repo: string, records: () => PlanRecords): string;
    exit?(value: z.infer<O>): number;
  },
): Verb {
  return {
    ...spec,
    async run(repo, args) {
      // Read once for the answer and its text alike.
      let records: PlanRecords | undefined;
      let plan: Plan | undefined;
      const recordsNow = () => (records ??= loadRecordsWithParseCache(repo));
      const planNow = () => (plan ??= derivePlan(recordsNow()));
      const config = configOfArgs(args);
      const actor = capability.kind === "command" ? await commandActor(repo, args) : undefined;
      const ctx = { repo, config, by: actor?.name, email: actor?.email, ...leasedPlan(repo, planNow, config) };
      const result = await invoke(capability, ctx, spec.input(args));
      if (!result.ok) throw new CapabilityError(result.error.code, result.error.message, result.error.details);
      const shown = () => escapeFields(result.value);
      return { value: result.value, text: () => withRevisionLine(shown(), spec.text(shown(), args, planNow, repo, recordsNow)), exit: spec.exit?.(result.value) };
    },
  };
}

/** Who acts for a command on the command line: `--as NAME`, else COCKPIT_ACTOR, else the repository's git identity. */
export async function commandActor(repo: string, args: ParsedArgs): Promise<Actor> {
  try {
    return await resolveActor(repo, { as: args.options.get("as"), envActor: actorFromEnv() });
  } catch (error) {
    if (error instanceof ActorNameError) throw new UsageError(error.message);
    throw error;
  }
}

/** The plan at a revision for a verb outside the registry (graph), refused as every read refuses. */
export async function readAt(repo: string, at: string): Promise<Plan> {
  const parsed = RevisionField.safeParse(at);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? "--at needs a revision");
  return (await planAt(repo, at)).plan;
}

/** A read answered from a revision says so on its first line. */
export function withRevisionLine(value: unknown, text: string): string {
  const at = (value as { at?: Revision } | null)?.at;
  if (!at || typeof at !== "object") return text;
  return `at ${at.rev}: ${at.commit === null ? "before the first commit (the empty plan)" : `${at.commit} (${at.committed_at})`}\n${text}`;
}

/** The code findings an answer carries about the issue it names, one warning line each. */
export function withCodeFindings(text: string, value: unknown): string {
  const findings = (value as { code_findings?: { level: string; code: string; message: string }[] }).code_findings ?? [];
  const warnings = (value as { warnings?: { code: string; message: string }[] }).warnings ?? [];
  return [text, ...findings.map((f) => `${f.level} ${f.code}: ${f.message}`), ...warnings.map((w) => `WARN ${w.code}: ${w.message}`)].join("\n");
}

export function parseCount(option: string, text: string): number {
  if (/^-[0-9]+$/.test(text)) throw new UsageError(`${option} must be 0 or more, not '${text}'`);
  if (!/^[0-9]{1,10}$/.test(text)) throw new UsageError(`${option} takes a whole number, not '${text}'`);
  return Number(text);
}

/** `--limit N` of a listing: how many it shows (the rest are counted); undefined: all. */
export function limitOf(a: ParsedArgs): number | undefined {
  const limit = a.options.get("limit");
  return limit === undefined ? undefined : parseCount("--limit", limit);
}

export function parseWave(text: string): number {
  if (/^-[0-9]+$/.test(text)) throw new UsageError(`--wave must be 0 or more, not '${text}'`);
  if (!/^[0-9]+$/.test(text) || Number(text) > 4294967295) {
    throw new UsageError(`--wave takes a wave number (0, 1, 2, …), not '${text}'`);
  }
  return Number(text);
}
