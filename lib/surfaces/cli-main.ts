import { main } from "./cli";

// The `cockpit` process: stdout carries the answer, stderr the reasons.
try {
  process.exitCode = main(process.argv.slice(2), {
    out: (text) => process.stdout.write(text.endsWith("\n") ? text : text + "\n"),
    err: (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
  });
} catch (error) {
  process.stderr.write(`cockpit: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 13;
}
