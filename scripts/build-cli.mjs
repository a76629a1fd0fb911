// Bundles the `cockpit` command into dist/ so that it starts fast and works right after `npm ci`.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * js-yaml's CommonJS build builds the options and state of every `load` through Babel's
 * `_objectSpread2` helper (a property descriptor per key): measured at over a quarter of its time
 * per 1 KB record. In the bundle the helper becomes `Object.assign`, which does the same for the
 * plain objects js-yaml spreads. The pinned version's helper must be found, or the build fails.
 */
const fastObjectSpread = {
  name: "js-yaml-object-spread",
  setup(b) {
    b.onLoad({ filter: /[\\/]js-yaml[\\/]dist[\\/]js-yaml\.cjs\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const start = text.indexOf("function _objectSpread2(e) {");
      const end = start < 0 ? -1 : text.indexOf("\n}\n", start);
      if (end < 0) throw new Error(`${args.path}: Babel's _objectSpread2 helper was not found; review scripts/build-cli.mjs`);
      const helper = "function _objectSpread2(e) {\n\tfor (var r = 1; r < arguments.length; r++) if (arguments[r] != null) Object.assign(e, arguments[r]);\n\treturn e;\n}\n";
      return { contents: text.slice(0, start) + helper + text.slice(end + 3), loader: "js" };
    });
  },
};

await build({
  entryPoints: {
    cli: join(root, "lib/surfaces/cli/main.ts"),
    mcp: join(root, "lib/surfaces/mcp-main.ts"),
    serve: join(root, "lib/server/serve-main.ts"),
    plans: join(root, "lib/surfaces/cli/plans-main.ts"),
    front: join(root, "lib/server/front-main.ts"),
    // `cockpit plan code` starts reading the commit graph before the rest of the command loads.
    "code-early": join(root, "lib/surfaces/cli/code-early.ts"),
    // The seal code alone, for the demo generator (scripts/demo/seal.mjs): one formula, never a copy.
    "plan-seal": join(root, "lib/plan/seal.ts"),
  },
  outdir: join(root, "dist"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  // A native module is loaded from node_modules, never bundled.
  // Next.js is loaded from node_modules by the server's front, never bundled.
  // pg (the coordination database's client) too: it stays out of the plan verbs' start-up.
  external: ["better-sqlite3", "next", "pg"],
  // js-yaml's CommonJS build: measured about 3x faster than its ES module build once bundled.
  alias: { "js-yaml": createRequire(import.meta.url).resolve("js-yaml") },
  plugins: [fastObjectSpread],
});
