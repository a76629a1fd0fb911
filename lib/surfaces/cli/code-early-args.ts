import { resolve } from "node:path";
import { COMMON, READ, WRITE, parseArgs, type OptionKind } from "./args";

/** The options of `cockpit plan code`. */
export const CODE_OPTIONS = { ...COMMON, "default-branch": "value", "stale-days": "value" } as const;
/** The options of `cockpit plan next`. */
export const NEXT_OPTIONS = { ...READ, milestone: "value" } as const;
/** The options of `cockpit plan claim`. */
export const CLAIM_OPTIONS = { ...WRITE, milestone: "value", "no-reclaim": "flag", any: "flag", reason: "value" } as const;

/** The plan verbs whose answer reads the commit graph (their code findings), with their options. */
export const EARLY_VERBS: Readonly<Record<string, Record<string, OptionKind>>> = { code: CODE_OPTIONS, next: NEXT_OPTIONS, claim: CLAIM_OPTIONS };

/**
 * The folder `cockpit plan VERB ARGS` will read, resolved as the command resolves it (--repo, else
 * the current folder); undefined when the verb reads no commit graph or will refuse its arguments
 * (then nothing is read early).
 */
export function earlyRepo(verb: string, args: readonly string[], cwd: string): string | undefined {
  const options = Object.hasOwn(EARLY_VERBS, verb) ? EARLY_VERBS[verb] : undefined;
  if (options === undefined) return undefined;
  try {
    return resolve(cwd, parseArgs(args, options).options.get("repo") ?? ".");
  } catch {
    return undefined;
  }
}
