import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliReference } from "../../lib/surfaces/cli/reference";
import { planVerbs } from "../../lib/surfaces/cli/plan";
import { plansVerbs } from "../../lib/surfaces/cli/plans";

// docs/cli.md is made from the verb tables; a verb added, renamed or given an option without
// running `npm run docs` fails here, so the reference cannot drift from the command.
const root = join(__dirname, "..", "..");

describe("docs/cli.md", () => {
  it("is what npm run docs makes from the verb tables", () => {
    const written = readFileSync(join(root, "docs", "cli.md"), "utf8");
    const made = cliReference();
    if (written !== made) expect.fail("docs/cli.md differs from the verb tables in lib/surfaces/cli/: run npm run docs, and commit docs/cli.md");
  });

  it("lists every verb of cockpit plan and cockpit plans with each option it takes", () => {
    const made = cliReference();
    for (const [command, verbs] of [["plan", planVerbs()], ["plans", plansVerbs()]] as const) {
      const section = made.split(`\n## cockpit ${command}\n`)[1].split("\n## ")[0];
      const common = section.split("\n").find((line) => line.startsWith("Every verb takes"))!;
      expect(verbs.length).toBeGreaterThan(5);
      for (const v of verbs) {
        const row = section.split("\n").find((line) => line.startsWith(`| \`${command} ${v.verb}`));
        expect(row, `${command} ${v.verb}`).toBeDefined();
        expect(row).toContain(v.summary.replace(/\|/g, "\\|"));
        const named = (line: string, option: string) => new RegExp(`\`--${option}[\` ]`).test(line);
        for (const option of Object.keys(v.options)) {
          expect(named(row!, option) || named(common, option), `${command} ${v.verb} --${option}`).toBe(true);
        }
        const lacks = /\(not ([^)]*)\)/.exec(row!)?.[1] ?? "";
        for (const m of common.matchAll(/`--([a-z-]+)/g)) {
          expect(named(lacks + " ", m[1]), `${command} ${v.verb} without --${m[1]}`).toBe(!(m[1] in v.options));
        }
      }
    }
  });
});
