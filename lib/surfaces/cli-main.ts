import { main } from "./cli";

// The `cockpit` process: stdout carries the answer, stderr the reasons.
main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text.endsWith("\n") ? text : text + "\n"),
  err: (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cockpit: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 13;
  },
);
