import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupRepos, issueYaml, makePlanRepo, milestoneYaml, type PlanRepo } from "../support/repo";
import { ensureCliBuilt, spawnCli, refusalOf } from "../support/processes";

// Record text reaches a person's terminal escaped: a title cannot clear the screen, recolour the
// prompt or set the window's title. `--json` stays exact.

const TITLE = "T \u0000 \u001b[31mred \u007f \u009b \u202e end\nsecond line";
// YAML's double-quoted escapes spell each control character.
const ISSUE = [
  "id: I1",
  "milestone: M1",
  'title: "T \\0 \\e[31mred \\x7f \\x9b \\u202e end\\nsecond line"',
  "slug: i1",
  "priority: p1",
  "profile: implementation",
  'objective: "o\\e]0;pwned\\a"',
  'scope: ["src/\\e[1m"]',
  'depends_on: ["D\\e[5m"]',
  "acceptance_criteria: [it works]",
  'validation: ["true"]',
  "evidence_required: [proof]",
  "",
].join("\n");

// Every control character but the text's own newline (and tab).
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

let repo: PlanRepo;
let columnsBefore: string | undefined;
afterAll(() => {
  if (columnsBefore === undefined) delete process.env.COLUMNS;
  else process.env.COLUMNS = columnsBefore;
});
beforeAll(() => {
  ensureCliBuilt();
  // What is checked here is the escaping, in one piece: a line wide enough that no table wraps it.
  columnsBefore = process.env.COLUMNS;
  process.env.COLUMNS = "1000";
  // Two commits: the milestone, then the issue with a message and an author that hold controls too.
  repo = makePlanRepo({ milestones: [], files: { ".ai/repo/project/milestones/M1.yaml": milestoneYaml({ id: "M1" }).replace(/^title: .*$/m, 'title: "M\\e[2J"') }, commit: true });
  repo.writeIssue("I1", ISSUE);
  repo.writeIssue("I2", issueYaml({ id: "I2" }).replace(/^title: .*$/m, 'title: "\\"]\\n  X-->Y\\n  \\"X\\" -> \\"Y\\";"'));
  repo.git("add", "-A");
  repo.git("-c", "user.name=Eve\u001b[8m", "commit", "-q", "-m", "add I1\u001b]0;pwned\u0007\u009b");
});
afterAll(cleanupRepos);

describe("control characters in record text, at the terminal", () => {
  const verbs = [["model"], ["status"], ["issues"], ["waves"], ["next"], ["roadmap"], ["critical-path"], ["validate"], ["record", "I1"], ["record", "M1"], ["history", "I1"], ["changes", "--since", "HEAD~1"]];

  it.each(verbs)("cockpit plan %s shows them escaped (\\x1b, \\x00, \\x7f, \\x9b), never raw", async (...args) => {
    const r = await spawnCli([...args, "--repo", repo.root]);
    expect([0, 10]).toContain(r.code);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    if (["issues", "model", "waves", "next", "record", "changes"].includes(args[0]) && args[1] !== "M1") {
      expect(r.stdout).toContain("T \\x00 \\x1b[31mred \\x7f \\x9b \\u202e end\\nsecond line");
    }
    if (args[0] === "history") expect(r.stdout).toContain("Eve\\x1b[8m");
    if (args[0] === "validate") expect(r.stdout).toContain("D\\x1b[5m");
  });

  it("a title's newline stays inside its table cell: one line per issue", async () => {
    const r = await spawnCli(["issues", "--repo", repo.root]);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("I1 "))).toHaveLength(1);
    expect(r.stdout).not.toMatch(/^second line/m);
  });

  it("--json keeps the text exact", async () => {
    const r = await spawnCli(["record", "I1", "--json", "--repo", repo.root]);
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout) as { issue: { title: string; objective: string; scope: string[] } };
    expect(record.issue.title).toBe(TITLE);
    expect(record.issue.objective).toBe("o\u001b]0;pwned\u0007");
    expect(record.issue.scope).toEqual(["src/\u001b[1m"]);
  });

  it("a refusal that names what was asked for names it escaped, on stderr", async () => {
    const r = await spawnCli(["record", "X\u001b[2J\u009b", "--repo", repo.root]);
    expect(r.code).toBe(12);
    expect(refusalOf(r)).toContain("X\\x1b[2J\\x9b");
    expect(refusalOf(r)).not.toMatch(RAW_CONTROL);
  });
});

describe("cockpit plan graph with a title that tries to add a node and an edge", () => {
  it.each(["mermaid", "dot"])("--format %s writes the title inside its label: no node or edge of its own", async (format) => {
    const r = await spawnCli(["graph", "--format", format, "--repo", repo.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const lines = r.stdout.trimEnd().split("\n");
    // Every line is one of the exporter's own statements: the title starts none.
    const statement =
      format === "dot"
        ? /^(digraph waves \{|  rankdir=LR;|  node \[.*\];|  subgraph cluster_\d+ \{|    label=".*";|    "I\d" \[label=".*", color="#[0-9a-f]{6}"\];|  \}|  ".*" -> ".*";|\})$/
        : /^(flowchart LR|  subgraph w\d+\[".*"\]|    n_I\d\[".*"\]:::[a-z]+|  end|  n_\w+ --> n_\w+|  classDef [a-z]+ .*)$/;
    for (const line of lines) expect(line).toMatch(statement);
    expect(lines.filter((l) => (format === "dot" ? /^    "I\d" \[label=/ : /^    n_I\d\[/).test(l))).toHaveLength(2);
  });
});
