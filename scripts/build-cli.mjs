// Bundles the `cockpit` command into dist/ so that it starts fast and works right after `npm ci`.
import { build } from "esbuild";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

await build({
  entryPoints: {
    cli: join(root, "lib/surfaces/cli-main.ts"),
    mcp: join(root, "lib/surfaces/mcp-main.ts"),
    serve: join(root, "lib/surfaces/serve-main.ts"),
    plans: join(root, "lib/surfaces/plans-main.ts"),
  },
  outdir: join(root, "dist"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  // A native module is loaded from node_modules, never bundled.
  external: ["better-sqlite3"],
  // js-yaml's CommonJS build: measured about 3x faster than its ES module build once bundled.
  alias: { "js-yaml": createRequire(import.meta.url).resolve("js-yaml") },
});
