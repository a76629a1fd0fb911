import { resolve } from "node:path";

/**
 * The folder `cockpit plan code ARGS` will read, as the command resolves it (--repo, else the
 * current folder); undefined when the arguments leave it unsure (a repeated or missing --repo, a
 * help), so nothing is read early.
 */
export function earlyRepo(args: readonly string[], cwd: string): string | undefined {
  let repo: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") return undefined;
    let value: string | undefined;
    if (a === "--repo") value = args[++i];
    else if (a.startsWith("--repo=")) value = a.slice("--repo=".length);
    else continue;
    if (value === undefined || value === "" || value.startsWith("-") || repo !== undefined) return undefined;
    repo = value;
  }
  return resolve(cwd, repo ?? ".");
}
