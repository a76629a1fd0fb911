// The layers of docs/architecture.md, checked: the modules every source file loads (imports,
// import() and require()) are read and each rule below fails with the files that break it. Test
// files are sources too, except where a rule says otherwise. The reading is tests/boundaries/check.ts.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { callsGivenTheEnvironment, environmentWrites, loadedModules } from "./boundaries/check";

const root = join(__dirname, "..");
const SOURCE = /\.(ts|tsx|mts)$/;

interface Import {
  spec: string;
  /** The file it names, from the repository root, when it is one of ours. */
  target?: string;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) walk(path, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const files = ["lib", "components", "app"].flatMap((d) => walk(d)).concat(["proxy.ts"]);
const known = new Set(files);

function resolveSpec(from: string, spec: string): string | undefined {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? relative(root, resolve(root, dirname(from), spec)) : undefined;
  if (base === undefined) return undefined;
  for (const ext of ["", ".ts", ".tsx", ".mts", "/index.ts", "/index.tsx"]) if (known.has(base + ext)) return base + ext;
  return base;
}

function importsOf(file: string): Import[] {
  return loadedModules(readFileSync(join(root, file), "utf8")).map((spec) => ({ spec, target: resolveSpec(file, spec) }));
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));
const isTest = (f: string) => /\.test\.tsx?$/.test(f);
const under = (f: string, dir: string) => f.startsWith(dir + "/");

function breaking(rule: (file: string, imp: Import) => boolean, only: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) if (only(file)) for (const imp of imports) if (rule(file, imp)) out.push(`${file} imports ${imp.spec}`);
  return out;
}

function cyclesOf(of: Map<string, Import[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const imp of of.get(file) ?? []) {
      if (!imp.target || !of.has(imp.target)) continue;
      const seen = state.get(imp.target);
      if (seen === "open") cycles.push(stack.slice(stack.indexOf(imp.target)).concat(imp.target).join(" → "));
      else if (!seen) visit(imp.target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of of.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe("the layers", () => {
  test("the files were found", () => {
    expect(files.filter((f) => under(f, "lib/plan")).length).toBeGreaterThan(20);
    expect(files.filter((f) => under(f, "components")).length).toBeGreaterThan(10);
  });

  test("lib/plan is pure: only node:crypto, processWide, zod and the YAML parsers from outside it", () => {
    const allowedPackages = new Set(["zod", "yaml", "js-yaml"]);
    const problems = breaking((file, imp) => {
      if (imp.spec.startsWith("node:")) return imp.spec !== "node:crypto";
      if (imp.target === undefined) return !allowedPackages.has(imp.spec);
      return !under(imp.target, "lib/plan") && imp.target !== "lib/process-wide.ts";
    }, (f) => under(f, "lib/plan") && !isTest(f));
    expect(problems).toEqual([]);
  });

  test("lib/plan's tests do not reach the file system or git either", () => {
    const problems = breaking((_, imp) => /^node:(fs|child_process|os)/.test(imp.spec) || (imp.target !== undefined && under(imp.target, "lib/repo")), (f) => under(f, "lib/plan") && isTest(f));
    expect(problems).toEqual([]);
  });

  test("nothing under lib/ imports next or react", () => {
    const problems = breaking((_, imp) => /^(next|react|react-dom)(\/|$)/.test(imp.spec), (f) => under(f, "lib"));
    expect(problems).toEqual([]);
  });

  test("components/ imports neither node:* nor lib/repo", () => {
    const problems = breaking((_, imp) => imp.spec.startsWith("node:") || (imp.target !== undefined && under(imp.target, "lib/repo")), (f) => under(f, "components"));
    expect(problems).toEqual([]);
  });

  test("app/ reads no file and runs no git: its pages ask the capabilities (lib/surfaces/pages.ts), never lib/repo", () => {
    const problems = breaking((_, imp) => imp.target !== undefined && under(imp.target, "lib/repo"), (f) => under(f, "app"));
    expect(problems).toEqual([]);
  });

  test("process-wide state is kept through processWide alone", () => {
    const problems = files.filter((f) => f !== "lib/process-wide.ts" && !isTest(f)).filter((f) => /^(?!\s*(\/\/|\*)).*\bglobalThis\b/m.test(readFileSync(join(root, f), "utf8")));
    expect(problems).toEqual([]);
  });

  test("configuration travels as a value: no source file writes the environment, directly, through an alias or through a parameter", () => {
    const sources = files.filter((f) => !isTest(f));
    const calls = callsGivenTheEnvironment(sources.map((f) => readFileSync(join(root, f), "utf8")));
    const problems = sources.flatMap((f) => environmentWrites(readFileSync(join(root, f), "utf8"), calls).map((line) => `${f}:${line}`));
    expect(problems).toEqual([]);
  });

  test("configuration is read in lib/config.ts: no other file under lib/ reads process.env, but the exceptions named here", () => {
    // Each exception is not the Cockpit's configuration, or crosses a process boundary by design.
    const EXCEPTIONS: Record<string, string> = {
      "lib/server/serve.ts": "cockpit serve hands its settings to the Next process it starts through that process's environment",
      "lib/server/follow.ts": "the following settings reach the served process from cockpit serve, through its environment",
      "lib/server/notify.ts": "the repository served reaches the notifier from cockpit serve, through its environment (COCKPIT_REPO); its settings are read in lib/config.ts",
      "lib/server/security/settings.ts": "the security settings reach the served process from cockpit serve, through its environment",
      "lib/surfaces/http.ts": "the repository served reaches the served process from cockpit serve, through its environment (COCKPIT_REPO)",
      "lib/surfaces/cli/users.ts": "cockpit users is handed its environment as a parameter, for the users file to edit",
      "lib/surfaces/cli/terminal-width.ts": "the terminal's width (COLUMNS) is the terminal's, not the Cockpit's",
      "lib/repo/git-run.ts": "git runs with this process's environment (PATH, HOME and git's own settings)",
      "lib/repo/state-path.ts": "git's own GIT_DIR and GIT_INDEX_FILE say where the index is, as git would read them",
      "lib/repo/git-discovery.ts": "git's own GIT_DIR, GIT_WORK_TREE, HOME, XDG_CONFIG_HOME and GIT_CONFIG_* say where git looks for a repository and its configuration",
      "lib/code/read-graph.ts": "git's own GIT_DIR, GIT_CEILING_DIRECTORIES and GIT_DISCOVERY_ACROSS_FILESYSTEM say where git looks for a repository",
      "lib/execution/git.ts": "git's own GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL win over the fallback identity, as they do in git",
    };
    const reads = (f: string) => /^(?!\s*(\/\/|\*)).*\bprocess\.env\b/m.test(readFileSync(join(root, f), "utf8"));
    const problems = files.filter((f) => under(f, "lib") && !isTest(f) && f !== "lib/config.ts" && !(f in EXCEPTIONS) && reads(f));
    expect(problems).toEqual([]);
    // An exception that no longer reads the environment is dropped from the list.
    expect(Object.keys(EXCEPTIONS).filter((f) => !reads(f))).toEqual([]);
  });

  test("no import cycle between files, type-only imports included", () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  test("each layer of docs/architecture.md imports only from itself and the layers below it", () => {
    const LAYERS: [RegExp, number][] = [
      [/^lib\/(plan\/|process-wide\.ts$|version\.ts$|config(\.test)?\.ts$)/, 0],
      [/^lib\/repo\//, 1],
      [/^lib\/(history|graph|coordination|execution|code|import|standup|people|results)\//, 2],
      [/^lib\/capabilities\//, 3],
      [/^lib\/(surfaces|server)\//, 4],
      [/^(app\/|components\/|proxy\.ts$)/, 5],
    ];
    const layer = (f: string) => LAYERS.find(([pattern]) => pattern.test(f))?.[1];
    expect(files.filter((f) => layer(f) === undefined)).toEqual([]);
    const problems = breaking((file, imp) => imp.target !== undefined && known.has(imp.target) && layer(imp.target)! > layer(file)!, (f) => !isTest(f));
    expect(problems).toEqual([]);
  });

  test("the cycle check finds a cycle when there is one", () => {
    const edge = (target: string): Import => ({ spec: target, target });
    const made = new Map<string, Import[]>([
      ["a.ts", [edge("b.ts")]],
      ["b.ts", [edge("c.ts")]],
      ["c.ts", [edge("a.ts")]],
      ["d.ts", [edge("a.ts")]],
    ]);
    expect(cyclesOf(made)).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
  });
});
