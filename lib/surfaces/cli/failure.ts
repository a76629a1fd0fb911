import type { ErrorCode } from "../../plan/errors";
import { EXIT_FOR_ERROR } from "../exit-codes";
import { errorBody } from "../responses";
import type { Io } from "./io";

// How a command that failed says so: under --json the error body HTTP and MCP give, on stdout (an
// agent parses one stream); otherwise the message on stderr. The exit code is the same either way.

/** Whether `--json` is among a command's options (before a `--` that ends them). */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json");
}

export interface Failure {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Report a failure of `command` (`cockpit plan next`) and answer its exit code. */
export function reportFailure(failure: Failure, command: string, json: boolean, io: { answer: Io["out"]; err: Io["err"] }): number {
  if (json) io.answer(JSON.stringify(errorBody(failure.code, failure.message, failure.details)));
  else io.err(`${command}: ${failure.message}`);
  return EXIT_FOR_ERROR[failure.code];
}
