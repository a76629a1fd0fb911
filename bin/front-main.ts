// The front's process (dist/front.js, started by cockpit serve): it loads the app's own copy of
// Next.js from its node_modules, never a bundled one, and hands it to the front.
import { createRequire } from "node:module";
import { join } from "node:path";
import { runFront, type NextFactory } from "../lib/server/front";
import { APP_ROOT } from "../lib/server/serve";

const next = createRequire(join(APP_ROOT, "package.json"))("next") as NextFactory;

runFront(next, process.env).catch((error: unknown) => {
  process.stderr.write(`cockpit serve: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(13);
});
