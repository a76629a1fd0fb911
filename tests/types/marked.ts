// The mechanism of the type-level tests: compile a file with its `// @ts-expect-error:` marks
// turned into plain comments, and say which lines were marked and on which lines errors fell.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const root = join(__dirname, "..", "..");

export function compileUnmarked(file: string): { marked: number[]; errors: number[] } {
  const source = readFileSync(file, "utf8");
  const marked = source.split("\n").flatMap((line, i) => (/^\s+\/\/ @ts-expect-error:/.test(line) ? [i + 1] : []));
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
  return { marked, errors };
}
