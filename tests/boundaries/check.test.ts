// The boundaries test's reading, on made-up sources: what it must see, and what it must not.
import { describe, expect, test } from "vitest";
import { callsGivenTheEnvironment, environmentWrites, loadedModules } from "./check";

describe("the modules a source loads", () => {
  test("import and export statements, import() and require() are all read", () => {
    const text = [
      'import a from "a";',
      'import type { B } from "b";',
      'export { c } from "c";',
      'const d = await import("d");',
      'const next = require("next");',
      'const e = require(`e`);',
    ].join("\n");
    expect(loadedModules(text)).toEqual(["a", "b", "c", "d", "next", "e"]);
  });

  test("a require of next under lib/ is seen, and a comment or a string is not a load", () => {
    expect(loadedModules('export function load() {\n  return require("next") as unknown;\n}\n')).toEqual(["next"]);
    expect(loadedModules('// require("next")\n/* import("react") */\nconst s = "require(\'next\')";\n')).toEqual([]);
  });
});

describe("the writes to the environment", () => {
  test("a write to process.env itself, a delete and an Object.assign", () => {
    expect(environmentWrites("process.env.X = 'y';\ndelete process.env[key];\nObject.assign(process.env, extra);\nprocess.env.Y ??= 'z';\n")).toEqual([1, 2, 3, 4]);
  });

  test("a write through a parameter given process.env, in the same file or another", () => {
    const writer = "export function start(flag: boolean, env) {\n  env.COCKPIT_X = '1';\n}\n";
    const caller = "start(true, process.env);\n";
    expect(environmentWrites(writer + caller)).toEqual([2]);
    expect(environmentWrites(writer, callsGivenTheEnvironment([writer, caller]))).toEqual([2]);
    expect(environmentWrites(writer, callsGivenTheEnvironment([writer]))).toEqual([]);
  });

  test("a write through an alias, a defaulted parameter or a parameter typed as the environment", () => {
    expect(environmentWrites("const env = process.env;\nenv.X = '1';\n")).toEqual([2]);
    expect(environmentWrites("function f(env = process.env) {\n  (env as Record<string, string>).NODE_ENV = 'production';\n}\n")).toEqual([2]);
    expect(environmentWrites("function f(e: NodeJS.ProcessEnv) {\n  Object.assign(e, { X: '1' });\n}\n")).toEqual([2]);
  });

  test("reads and writes to other objects are not writes to the environment", () => {
    expect(environmentWrites("const x = process.env.X;\nif (process.env.Y === 'z') {}\nconst copy = { ...process.env };\ncopy.X = '1';\nfunction f(env) { env.X = 1; }\nf({});\n")).toEqual([]);
  });
});
