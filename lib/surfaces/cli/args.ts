import { parseArgs as parseNodeArgs } from "node:util";
import { resolveConfig, type CockpitConfig } from "../../config";
import { nearest } from "../../plan/nearest";

/**
 * A parsed command line: positional words, option values by name (flags map to "true"; a repeated
 * option maps to its last value), and every value of each option in the order given.
 */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string>;
  lists: Map<string, string[]>;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** `flag`: no value; `value`: one value, given once; `values`: one value, given any number of times. */
export type OptionKind = "flag" | "value" | "values";

/** The options every plan verb takes. */
export const COMMON = { repo: "value", json: "flag", database: "value", "lease-ttl": "value", "stale-after": "value" } as const;
/** A read's options: COMMON and a revision. */
export const READ = { ...COMMON, at: "value" } as const;
/** A write's options: COMMON and who acts (`--as NAME`, else COCKPIT_ACTOR, else git's user.name). */
export const WRITE = { ...COMMON, as: "value" } as const;

/**
 * Parse `argv` against the options a command accepts, with Node's own `util.parseArgs` (strict).
 * Options and words may come in any order; `--name value` and `--name=value` are both accepted;
 * `--` ends the options; a negative number is a word.
 */
export function parseArgs(argv: readonly string[], accepted: Record<string, OptionKind>): ParsedArgs {
  const options: Record<string, { type: "string" | "boolean"; multiple: true }> = {};
  for (const [name, kind] of Object.entries(accepted)) options[name] = { type: kind === "flag" ? "boolean" : "string", multiple: true };
  // A lone dash or a negative number is a word, not a short option.
  const args = argv.map((a) => (/^-(\d|$)/.test(a) ? WORD + a : a));
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(explain(error, accepted));
  }
  const words = (parsed.positionals as string[]).map((w) => (w.startsWith(WORD) ? w.slice(WORD.length) : w));
  const lists = new Map<string, string[]>();
  const single = new Map<string, string>();
  for (const [name, raw] of Object.entries(parsed.values)) {
    // A negative number given as an option's value (`--limit -5`) is that value, unescaped.
    const values = (raw as (string | boolean)[]).map((v) => (v === true ? "true" : String(v).startsWith(WORD) ? String(v).slice(WORD.length) : String(v)));
    if (accepted[name] === "flag" && values.length > 1) throw new UsageError(`--${name} is given ${values.length} times; give it once`);
    if (accepted[name] === "value" && values.length > 1) throw new UsageError(`--${name} is given ${values.length} times; give it once`);
    lists.set(name, values);
    single.set(name, values[values.length - 1]);
  }
  return { words, options: single, lists };
}

// util.parseArgs reads "-5" as a short option; such words pass through it escaped.
const WORD = "\u0000word:";

function explain(error: unknown, accepted: Record<string, OptionKind>): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? "";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const near = nearest(option.replace(/^-+/, "").split("=")[0], Object.keys(accepted));
      return `unknown option '${option}'; ${near ? `did you mean --${near}? ` : ""}${describeAccepted(accepted)}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take an argument/.test(message) ? `${option} takes no value` : `${option} needs a value`;
    default:
      return message;
  }
}

/** How an option is written: `--dry-run`, `--milestone <milestone>`, `--set <set>…` (given any number of times). */
export function optionForm(name: string, kind: OptionKind): string {
  return kind === "flag" ? `--${name}` : kind === "values" ? `--${name} <${name}>…` : `--${name} <${name}>`;
}

/** One verb of a command as its help and the reference (docs/cli.md) list it. */
export interface VerbDoc {
  verb: string;
  /** Its positional words (`ID`, `issue|milestone …`), or "". */
  args: string;
  summary: string;
  options: Record<string, OptionKind>;
}

function describeAccepted(accepted: Record<string, OptionKind>): string {
  const names = Object.entries(accepted).map(([n, k]) => optionForm(n, k));
  return names.length ? `this command accepts ${names.join(", ")}` : "this command accepts no option";
}

/** The configuration of a command: its `--database` and `--author` over the environment. */
export function configOfArgs(args: ParsedArgs): CockpitConfig {
  try {
    return resolveConfig({ database: args.options.get("database"), author: args.options.get("author"), leaseTtl: args.options.get("lease-ttl"), staleAfter: args.options.get("stale-after") });
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}
