// `cockpit plan …` through its entry function against one repository, output captured: the
// command line in process, for tests whose subject is not the process.
import { expect } from "vitest";
import { main, runPlanCommand } from "../../lib/surfaces/cli/plan";
import { runPlansCommand } from "../../lib/surfaces/cli/plans";
import { EXIT } from "../../lib/surfaces/exit-codes";
import { runCommand } from "../../lib/surfaces/process-main";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** A runner of `cockpit plan ARGV --repo REPO` (`repo` is read at each call), and its `--json` answer, required to succeed. */
export function planCli(repo: () => string) {
  async function cli(...argv: string[]): Promise<CliRun> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPlanCommand([...argv, "--repo", repo()], { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  }
  async function json<T = Record<string, unknown>>(...argv: string[]): Promise<T> {
    const r = await cli(...argv, "--json");
    expect(r.code, r.err || r.out).toBe(EXIT.ok);
    return JSON.parse(r.out) as T;
  }
  return { cli, json };
}

/**
 * `cockpit <args>` in process, routed as bin/cockpit routes it (`plans` to its own entry, the rest
 * to `main`) and run as the process runs it (lib/surfaces/process-main.ts): the same lines, and
 * exit 13 with the process's message for an exception that escapes.
 */
export async function runCliInProcess(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const terminal = { out: (t: string) => void stdout.push(t), err: (t: string) => void stderr.push(t) };
  const code = args[0] === "plans" ? await runCommand("cockpit plans", (io) => runPlansCommand(args.slice(1), io), terminal) : await runCommand("cockpit", (io) => main(args, io), terminal);
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}
