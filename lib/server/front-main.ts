import { runFront } from "./front";

runFront().catch((error: unknown) => {
  process.stderr.write(`cockpit serve: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(13);
});
