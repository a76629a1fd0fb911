// Record values are text: `cockpit plan edit`, `plan new` and `plan evidence` (real processes over a
// real repository) refuse a control character with exit 2 naming the field, and write nothing. A
// newline is refused too, except in the schema's prose fields, which keep it. Tab is allowed.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ensureCliBuilt, spawnCli, refusalOf } from "../support/processes";
import { cleanupRepos, makePlanRepo, type PlanRepo } from "../support/repo";

beforeAll(ensureCliBuilt);
afterAll(cleanupRepos);

const cockpit = (repo: PlanRepo, ...args: string[]) => spawnCli([...args, "--repo", repo.root, "--json"]);

function planRepo(): PlanRepo {
  return makePlanRepo({ issues: [{ id: "I0001" }], commit: true });
}

describe("control characters in edited values", () => {
  it("plan edit refuses ESC, DEL, C1, CR and a newline in a one-line field with exit 2 naming the field; nothing is written", async () => {
    const repo = planRepo();
    const before = repo.snapshot();
    const cases: [string, string][] = [
      ["title", "Red \u001b[31malert"],
      ["title", "Deleted\u007f"],
      ["title", "Next line\u0085here"],
      ["title", "Two\nlines"],
      ["owner", "bob\nSigned-off-by: Mallory <m@evil.invalid>"],
      ["objective", "Carriage\rreturn"],
    ];
    for (const [field, value] of cases) {
      const r = await cockpit(repo, "edit", "I0001", "--set", `${field}=${value}`);
      expect(r.code, `${field}=${JSON.stringify(value)}: ${r.stderr}`).toBe(2);
      expect(refusalOf(r)).toContain(field);
    }
    const list = await cockpit(repo, "edit", "I0001", "--add", "scope=src/a\nsrc/b");
    expect(list.code).toBe(2);
    expect(refusalOf(list)).toContain("scope");
    expect(repo.snapshot()).toEqual(before);
  });

  it("plan edit keeps a newline in a prose field (objective, non_scope), and a tab anywhere", async () => {
    const repo = planRepo();
    const objective = await cockpit(repo, "edit", "I0001", "--set", "objective=First line\n\nSecond line", "--set", "title=Tab\there");
    expect(objective.code, objective.stderr).toBe(0);
    const nonScope = await cockpit(repo, "edit", "I0001", "--add", "non_scope=not this\nnor that");
    expect(nonScope.code, nonScope.stderr).toBe(0);
    const record = parse(repo.read("I0001")) as Record<string, unknown>;
    expect(record).toMatchObject({ objective: "First line\n\nSecond line", title: "Tab\there", non_scope: ["not this\nnor that"] });
  });

  it("plan new refuses a control character or a newline in the title, naming it; nothing is written", async () => {
    const repo = planRepo();
    const before = repo.snapshot();
    for (const title of ["New\nissue", "New \u001b]0;owned\u0007issue"]) {
      const r = await cockpit(repo, "new", "issue", "--milestone", "M1", "--title", title, "--add", "acceptance_criteria=ok", "--add", "validation=true");
      expect(r.code, r.stderr).toBe(2);
      expect(refusalOf(r)).toContain("title");
    }
    expect(repo.snapshot()).toEqual(before);
  });

  it("plan evidence refuses a control character or a newline in command, artifact, result and covers, naming the field", async () => {
    const repo = planRepo();
    await cockpit(repo, "start", "I0001");
    const before = repo.snapshot();
    const cases: [string, string[]][] = [
      ["command", ["--command", "npm test\nSigned-off-by: Mallory <m@evil.invalid>"]],
      ["artifact", ["--artifact", "out/\u001b[2Jreport.html"]],
      ["result", ["--command", "npm test", "--result", "ok\u0000"]],
      ["covers", ["--covers", "proof\u007f", "--command", "npm test"]],
    ];
    for (const [field, args] of cases) {
      const withCovers = args.includes("--covers") ? args : ["--covers", "proof", ...args];
      // A NUL cannot pass as an argument; its case goes over HTTP (tests/surfaces/hostile-values.test.ts).
      if (args.some((a) => a.includes("\u0000"))) continue;
      const r = await cockpit(repo, "evidence", "I0001", "--type", "test", ...withCovers);
      expect(r.code, `${field}: ${r.stderr}`).toBe(2);
      expect(refusalOf(r)).toContain(field);
    }
    expect(repo.snapshot()).toEqual(before);
  });
});
