// The answer of `call(capability)` has the capability's output type: the lines of call-types.ts
// marked @ts-expect-error, compiled without their marks, must each fail, and nothing else may.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const root = join(__dirname, "..", "..");

test("a wrong output or input type of a capability call does not compile", () => {
  const file = join(__dirname, "call-types.ts");
  const source = readFileSync(file, "utf8");
  const marked = source.split("\n").flatMap((line, i) => (/^\s+\/\/ @ts-expect-error:/.test(line) ? [i + 1] : []));
  expect(marked.length).toBe(4);
  const unmarked = source.replace(/^(\s+)\/\/ @ts-expect-error:.*$/gm, "$1//");
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.test.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile;
  host.readFile = (name) => (name === file ? unmarked : readFile(name));
  const program = ts.createProgram([file], { ...config.options, noEmit: true, incremental: false }, host);
  const errors = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .filter((d) => d.file?.fileName === file)
    .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
  // Each error sits on the line after its mark.
  expect([...new Set(errors)].sort((a, b) => a - b)).toEqual(marked.map((line) => line + 1));
}, 120_000);
