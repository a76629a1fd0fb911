/** A parsed command line: positional words, and option values by name (flags map to "true"). */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string>;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Parse `argv` against the options a command accepts. Options and words may come in any order;
 * `--name value` and `--name=value` are both accepted; `--` ends the options.
 */
export function parseArgs(argv: readonly string[], accepted: Record<string, "flag" | "value">): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-" && !/^-\d/.test(arg)) {
        throw new UsageError(`unknown option '${arg}'; ${describeAccepted(accepted)}`);
      }
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const kind = accepted[name];
    if (!kind) throw new UsageError(`unknown option '--${name}'; ${describeAccepted(accepted)}`);
    if (kind === "flag") {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      options.set(name, "true");
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (options.has(name)) throw new UsageError(`--${name} is given twice`);
    options.set(name, value);
  }
  return { words, options };
}

function describeAccepted(accepted: Record<string, "flag" | "value">): string {
  const names = Object.entries(accepted).map(([n, k]) => (k === "flag" ? `--${n}` : `--${n} <${n}>`));
  return names.length ? `this command accepts ${names.join(", ")}` : "this command accepts no option";
}
