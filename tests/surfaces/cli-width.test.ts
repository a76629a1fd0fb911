import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalWidth, wrapText } from "@/lib/surfaces/cli/terminal-width";
import { table } from "@/lib/surfaces/cli/text";
import { loadPlan } from "@/lib/repo";
import { roadmapOrder } from "@/lib/plan/roadmap";
import { refusalOf } from "../support/processes";

// The command line fits the terminal: help and tables are laid out to COLUMNS (else the tty's
// width, else 80), long cells wrap in their column, and nothing is padded past the width. Run on
// a copy of the real corpus, whose titles are long and whose waves are many.

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "bin", "cockpit");
let repo: string;
/** The demo with its six weeks of commits: what `plan history` reads. */
let history: string;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "cockpit-width-"));
  cpSync(join(ROOT, "tests", "fixtures", "majordomus"), repo, { recursive: true });
  history = join(mkdtempSync(join(tmpdir(), "cockpit-width-history-")), "repo");
  execFileSync(process.execPath, [join(ROOT, "scripts", "demo-history.mjs"), history], { stdio: "ignore" });
});
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(join(history, ".."), { recursive: true, force: true });
});

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
  ["cockpit users help", ["users", "help"]],
  ["cockpit plans help", ["plans", "help"]],
  ["cockpit plan history", ["plan", "history", "BK-001", "--repo", "<history>"]],
  ["cockpit serve --help", ["serve", "--help"]],
  ["cockpit mcp --help", ["mcp", "--help"]],
  ["cockpit plan record --help", ["plan", "record", "--help"]],
];

/** Mistakes whose message (on stderr) fits the width too. */
const MISTAKES: [string, string[]][] = [
  ["an unknown verb", ["plan", "stauts", "--repo", "<repo>"]],
  ["an unknown command", ["pln"]],
  ["an unknown plans verb", ["plans", "lst"]],
  ["an unknown users verb", ["users", "ad", "x"]],
];

describe("the command line fits the terminal", () => {
  for (const width of [80, 120]) {
    it.for(COMMANDS)(`%s at COLUMNS=${width}: no line is over ${width}`, async ([, args]) => {
      const r = await cockpit(args.map((a) => (a === "<repo>" ? repo : a === "<history>" ? history : a)), width);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(200);
      expect(longest(r.stdout)).toBeLessThanOrEqual(width);
    });

    it.for(MISTAKES)(`%s at COLUMNS=${width}: the message's lines are at most ${width}`, async ([, args]) => {
      const r = await cockpit(args.map((a) => (a === "<repo>" ? repo : a)), width);
      expect(r.code).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(30);
      expect(longest(r.stderr)).toBeLessThanOrEqual(width);
    });
  }

  it("the help of cockpit, users and plans keeps each summary under its own column", async () => {
    const top = await cockpit(["--help"], 80);
    const lines = top.stdout.split("\n");
    const column = lines.find((l) => l.startsWith("  plan <verb> …"))!.indexOf("read and move");
    const serve = lines.findIndex((l) => l.startsWith("  serve "));
    const summary = lines.slice(serve).find((l) => l.includes("the browser Cockpit"))!;
    expect(summary.indexOf("the browser Cockpit")).toBe(column);
    const users = (await cockpit(["users", "help"], 80)).stdout.split("\n");
    const at = users.find((l) => l.startsWith("add NAME"))!.indexOf("make a token");
    expect(users[users.findIndex((l) => l.startsWith("add NAME")) + 1].indexOf("hash is added")).toBe(at);
  });

  it("plan history never breaks a timestamp or a commit when a prose cell can wrap at its spaces", async () => {
    const row = ["7c3c4fcc581e", "2026-10-25T15:40:00Z", "VERIFY", "Marek Nowak-Kowalski <marek@harbor.test>", "Evidence for BK-001: clean_clone_build and more words"];
    const out = table([row], ["COMMIT", "TIME", "STATUS", "AUTHOR", "MESSAGE"], 80);
    expect(longest(out)).toBeLessThanOrEqual(80);
    expect(out.split("\n")[1]).toMatch(/^7c3c4fcc581e {2}2026-10-25T15:40:00Z {2}VERIFY /);
    for (const width of [80, 120]) {
      const r = await cockpit(["plan", "history", "BK-001", "--repo", history], width);
      for (const line of r.stdout.split("\n").slice(2)) {
        if (line.trim() && !line.startsWith(" ")) expect(line).toMatch(/^[0-9a-f]{12} {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}/);
      }
    }
  });

  it("a mistyped command or verb of plans and users gets the nearest one", async () => {
    expect((await cockpit(["pln"])).stderr).toMatch(/^cockpit: unknown command pln; did you mean plan\? /);
    expect((await cockpit(["plans", "lst"])).stderr).toMatch(/^cockpit plans: unknown verb 'lst'; did you mean list\?/);
    expect((await cockpit(["users", "ad", "x"])).stderr).toMatch(/^cockpit users ad: unknown verb 'ad'; did you mean add\? /);
  });

  it("serve, mcp and a plan verb print their own help for --help", async () => {
    const serve = await cockpit(["serve", "--help"], 120);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toMatch(/^usage: cockpit serve \[options\]/);
    expect(serve.stdout).toMatch(/^ {2}--port <port> +the port \(default: PORT, else 3000\)$/m);
    const mcp = await cockpit(["mcp", "--help"], 120);
    expect(mcp.stdout).toMatch(/^usage: cockpit mcp \[options\]/);
    const verb = await cockpit(["plan", "record", "--help"], 120);
    expect(verb.code).toBe(0);
    expect(verb.stdout).toMatch(/^usage: cockpit plan record ID \[options\]/);
    expect(verb.stdout).toContain("--version");
  });

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
    expect(refusalOf(verb)).toMatch(/^cockpit plan: unknown verb 'staus'; did you mean status\? /);
    const option = await cockpit(["plan", "issues", "--milestne", "x", "--repo", repo]);
    expect(option.code).toBe(2);
    expect(refusalOf(option)).toMatch(/unknown option '--milestne'; did you mean --milestone\? /);
  });
});
