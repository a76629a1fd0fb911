// Bundles the `cockpit` command into dist/ so that it starts fast and works right after `npm ci`.
import { build } from "esbuild";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
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

/**
 * zod's namespace object carries every one of its ~50 locales (400 KB of the command's bundle),
 * since `z.locales` keeps them all alive; Cockpit speaks English alone. Inside zod, the locales'
 * index is made to name `en` only.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), "../locales/en.js"), namespace: "zod-locales" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

// A bundle built again leaves its compiled-code cache (bin/cockpit) behind: remove it.
for (const name of existsSync(join(root, "dist")) ? readdirSync(join(root, "dist")) : []) {
  if (name.endsWith(".v8cache")) rmSync(join(root, "dist", name), { force: true });
}

await build({
  entryPoints: {
    cli: join(root, "lib/surfaces/cli/main.ts"),
    mcp: join(root, "lib/surfaces/mcp-main.ts"),
    serve: join(root, "lib/server/serve-main.ts"),
    plans: join(root, "lib/surfaces/cli/plans-main.ts"),
    front: join(root, "bin/front-main.ts"),
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
  // pg (the coordination database's client) too: loaded by lib/coordination/database.ts at the first
  // use of a database, so a command of a clone without one never loads it.
  external: ["better-sqlite3", "next", "pg"],
  // js-yaml's CommonJS build: measured about 3x faster than its ES module build once bundled.
  alias: { "js-yaml": createRequire(import.meta.url).resolve("js-yaml") },
  // Less to read and parse at every start; names are kept (error messages and stacks use them).
  minifyWhitespace: true,
  minifySyntax: true,
  // A dynamic import() becomes a require(), which finds a package as the static ones do (NODE_PATH
  // included): pg is loaded at the first use of a database, not at every start.
  supported: { "dynamic-import": false },
  plugins: [fastObjectSpread, zodEnglishOnly],
});
