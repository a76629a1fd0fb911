import { runPlansCommand } from "./plans-cli";

runPlansCommand(process.argv.slice(3), {
  out: (text) => process.stdout.write(text.endsWith("\n") ? text : text + "\n"),
  err: (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cockpit plans: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 13;
  },
);
