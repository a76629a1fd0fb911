// Bundles the `cockpit` command into dist/ so that it starts fast and works right after `npm ci`.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

await build({
  entryPoints: { cli: join(root, "lib/surfaces/cli-main.ts") },
  outdir: join(root, "dist"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  define: { __COCKPIT_VERSION__: JSON.stringify(version) },
});
