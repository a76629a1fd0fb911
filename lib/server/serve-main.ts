import { runServe } from "./serve";

runServe(process.argv.slice(3)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cockpit serve: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 13;
  },
);
