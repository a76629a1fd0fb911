import { resolve } from "node:path";
import { COMMON, parseArgs } from "./args";

/** The options of `cockpit plan code`. */
export const CODE_OPTIONS = { ...COMMON, "default-branch": "value", "stale-days": "value" } as const;

/**
 * The folder `cockpit plan code ARGS` will read, resolved as the command resolves it (--repo, else
 * the current folder); undefined when the command will refuse its arguments (then nothing is read
 * early).
 */
export function earlyRepo(args: readonly string[], cwd: string): string | undefined {
  try {
    return resolve(cwd, parseArgs(args, CODE_OPTIONS).options.get("repo") ?? ".");
  } catch {
    return undefined;
  }
}
