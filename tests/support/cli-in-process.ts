// `cockpit plan …` through its entry function against one repository, output captured: the
// command line in process, for tests whose subject is not the process.
import { expect } from "vitest";
import { runPlanCommand } from "../../lib/surfaces/cli/plan";
import { EXIT } from "../../lib/surfaces/exit-codes";

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
