import type { Io } from "./cli/io";
import { escapeForTerminal } from "./cli/terminal-text";

/**
 * Run a command as this process: stdout carries the answer, stderr the reasons; the exit code is
 * the command's, and 13 when it fails unexpectedly.
 */
export function runAsProcess(name: string, command: (io: Io) => Promise<number>): void {
  const line = (text: string) => (text.endsWith("\n") ? text : text + "\n");
  command({ out: (text) => process.stdout.write(line(text)), err: (text) => process.stderr.write(line(text)) }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(escapeForTerminal(`${name}: internal error: ${error instanceof Error ? error.message : String(error)}\n`));
      process.exitCode = 13;
    },
  );
}
