import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalWidth, wrapText } from "@/lib/surfaces/cli/terminal-width";
import { table } from "@/lib/surfaces/cli/text";
import { loadPlan } from "@/lib/repo";
import { roadmapOrder } from "@/lib/plan/roadmap";

// The command line fits the terminal: help and tables are laid out to COLUMNS (else the tty's
// width, else 80), long cells wrap in their column, and nothing is padded past the width. Run on
// a copy of the real corpus, whose titles are long and whose waves are many.

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "bin", "cockpit");
let repo: string;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "cockpit-width-"));
  cpSync(join(ROOT, "tests", "fixtures", "majordomus"), repo, { recursive: true });
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function cockpit(args: string[], columns?: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.COLUMNS;
  if (columns !== undefined) env.COLUMNS = String(columns);
  return new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    ),
  );
}

const longest = (text: string) => Math.max(...text.split("\n").map((l) => [...l].length));

const COMMANDS: [string, string[]][] = [
  ["cockpit --help", ["--help"]],
  ["cockpit plan --help", ["plan", "--help"]],
  ["cockpit plan status", ["plan", "status", "--repo", "<repo>"]],
  ["cockpit plan roadmap", ["plan", "roadmap", "--repo", "<repo>"]],
  ["cockpit plan waves", ["plan", "waves", "--repo", "<repo>"]],
];

describe("the command line fits the terminal", () => {
  for (const width of [80, 120]) {
    it.for(COMMANDS)(`%s at COLUMNS=${width}: no line is over ${width}`, async ([, args]) => {
      const r = await cockpit(args.map((a) => (a === "<repo>" ? repo : a)), width);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(200);
      expect(longest(r.stdout)).toBeLessThanOrEqual(width);
    });
  }

  it("without COLUMNS and without a terminal, the width is 80", async () => {
    expect(terminalWidth({}, { isTTY: false })).toBe(80);
    expect(terminalWidth({ COLUMNS: "132" }, { isTTY: true, columns: 90 })).toBe(132);
    expect(terminalWidth({}, { isTTY: true, columns: 90 })).toBe(90);
    expect(terminalWidth({ COLUMNS: "wide" }, { isTTY: false })).toBe(80);
    const r = await cockpit(["plan", "roadmap", "--repo", repo]);
    expect(longest(r.stdout)).toBeLessThanOrEqual(80);
  });

  it("a long cell wraps inside its column, and the columns after it stay aligned", () => {
    const out = table([["I1", "a title long enough to need two lines here", "x"]], ["ID", "TITLE", "Z"], 30).split("\n");
    expect(out.every((l) => l.length <= 30)).toBe(true);
    expect(out.length).toBeGreaterThan(2);
    const titleAt = out[0].indexOf("TITLE");
    expect(out.slice(1).every((l) => l.slice(0, titleAt).trim() === "I1" || l.slice(0, titleAt).trim() === "")).toBe(true);
    expect(wrapText("averyveryverylongwordthatcannotbreak", 10).every((l) => l.length <= 10)).toBe(true);
  });

  it("plan status lists the milestones in roadmap order", async () => {
    const r = await cockpit(["plan", "status", "--repo", repo], 200);
    const ids = roadmapOrder(loadPlan(repo)).map((m) => m.id);
    const listed = r.stdout.split("\n").map((l) => l.split(" ")[0]).filter((w) => ids.includes(w));
    expect(listed).toEqual(ids);
  });

  it("plan waves and plan issues take --limit and say how many more there are", async () => {
    const plan = loadPlan(repo);
    const first = plan.waves[0];
    const waves = await cockpit(["plan", "waves", "--repo", repo, "--limit", "2"], 200);
    expect(waves.code).toBe(0);
    expect(waves.stdout).toContain(`… and ${first.issues.length - 2} more in wave ${first.wave} (a larger --limit shows them)`);
    const issues = await cockpit(["plan", "issues", "--repo", repo, "--limit", "3"], 200);
    expect(issues.stdout).toContain(`… and ${plan.issues.length - 3} more issue(s)`);
    expect(issues.stdout.split("\n").filter((l) => /^I\d{4} /.test(l))).toHaveLength(3);
  });

  it("a mistyped verb or option gets the nearest one", async () => {
    const verb = await cockpit(["plan", "staus", "--repo", repo]);
    expect(verb.code).toBe(2);
    expect(verb.stderr).toMatch(/^cockpit plan: unknown verb 'staus'; did you mean status\? /);
    const option = await cockpit(["plan", "issues", "--milestne", "x", "--repo", repo]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option '--milestne'; did you mean --milestone\? /);
  });
});
