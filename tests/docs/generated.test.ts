import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliReference, ENVIRONMENT, SERVER_SET_ENVIRONMENT } from "../../lib/surfaces/cli/reference";
import { capabilities, httpPath, mcpToolName } from "../../lib/capabilities/index";
import { generatedDocs } from "../../lib/surfaces/generated-docs";
import { planVerbs } from "../../lib/surfaces/cli/plan";
import { plansVerbs } from "../../lib/surfaces/cli/plans";

// docs/cli.md is made from the verb tables, and the capability table of docs/http-and-mcp.md from
// the registry; a verb or a capability added, renamed or given an option without running
// `npm run docs` fails here, so the reference cannot drift from the code.
const root = join(__dirname, "..", "..");

describe("the pages made from the declarations", () => {
  it("are what npm run docs makes", () => {
    const read = (path: string) => readFileSync(join(root, path), "utf8");
    const made = generatedDocs(read);
    expect(Object.keys(made).sort()).toEqual(["docs/cli.md", "docs/http-and-mcp.md"]);
    for (const [path, text] of Object.entries(made)) {
      if (read(path) !== text) expect.fail(`${path} differs from the declarations it is made from: run npm run docs, and commit ${path}`);
    }
  });

  it("name every capability with its route and tool in docs/http-and-mcp.md", () => {
    const page = readFileSync(join(root, "docs", "http-and-mcp.md"), "utf8");
    expect(capabilities.length).toBeGreaterThan(20);
    for (const c of capabilities) {
      const row = page.split("\n").find((line) => line.startsWith(`| \`${c.id}\` |`));
      expect(row, c.id).toBeDefined();
      expect(row).toContain(`${httpPath(c)}\``);
      expect(row).toContain(`\`${mcpToolName(c)}\``);
    }
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

  it("lists exactly the environment variables the code reads", () => {
    const sources = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "lib", "app", "components", "proxy.ts", "next.config.js", "bin"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((f) => /\.(ts|tsx|js|mjs)$|^bin\//.test(f) && !/\.test\.tsx?$/.test(f));
    const read = new Set<string>();
    for (const file of sources) for (const m of readFileSync(join(root, file), "utf8").matchAll(/(?:env\.|["'`])(COCKPIT_[A-Z_]+)/g)) read.add(m[1]);
    const listed = [...Object.keys(ENVIRONMENT), ...SERVER_SET_ENVIRONMENT];
    expect(read.size).toBeGreaterThan(10);
    const missing = [...read].filter((name) => !listed.includes(name));
    const gone = listed.filter((name) => !read.has(name));
    if (missing.length || gone.length) {
      expect.fail(`ENVIRONMENT in lib/surfaces/cli/reference.ts is not what the code reads: describe ${missing.join(", ") || "nothing new"}; take out ${gone.join(", ") || "nothing"}; then npm run docs`);
    }
  });
});
