import type { Io } from "./cli/io";
import { escapeForTerminal } from "./cli/terminal-text";

/**
 * Run a command over `terminal`: each line of the answer and of the reasons ends with a newline;
 * the exit code is the command's, and 13 when it fails unexpectedly (its reason said on `err`).
 * What the process does with its stdout and stderr, and what the tests capture in process.
 */
export function runCommand(name: string, command: (io: Io) => Promise<number>, terminal: Io): Promise<number> {
  const line = (text: string) => (text.endsWith("\n") ? text : text + "\n");
  return command({ out: (text) => terminal.out(line(text)), err: (text) => terminal.err(line(text)) }).catch((error: unknown) => {
    terminal.err(escapeForTerminal(`${name}: internal error: ${error instanceof Error ? error.message : String(error)}\n`));
    return 13;
  });
}

/**
 * Run a command as this process: stdout carries the answer, stderr the reasons; the exit code is
 * the command's, and 13 when it fails unexpectedly.
 */
export function runAsProcess(name: string, command: (io: Io) => Promise<number>): void {
  void runCommand(name, command, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) }).then((code) => {
    process.exitCode = code;
  });
}
