// The lint: Next's core web vitals and TypeScript rules (typescript-eslint's recommended set) and
// React's hook rules; `npm run lint` allows no warning. A rule turned off is turned off here, with why.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// typescript-eslint's type-aware rules are left out: over tsconfig.test.json they took over two
// minutes of CPU on the project's machine, where the lint is to stay under one.
export default defineConfig([
  globalIgnores([".next/**", ".next-*/**", "out/**", "dist/**", "node_modules/**", "reports/**", "test-results/**", "playwright-report/**", ".demo/**", ".bench/**", "examples/**", "next-env.d.ts"]),
  ...nextVitals,
  ...nextTypescript,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A name that starts with _ is left out on purpose (a destructured member dropped, a parameter a signature needs).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "@typescript-eslint/no-unused-expressions": "error",
      // The React Compiler's rules: the app is not built with the compiler, and what they flag
      // (a ref read while rendering, a state set from an effect, a clock read for a countdown) is sound React without it.
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/refs": "off",
      "react-hooks/purity": "off",
      "react-hooks/immutability": "off",
    },
  },
  {
    files: ["e2e/**", "tests/**", "features/**"],
    rules: {
      // Playwright's fixtures call `use`, and a test's usePostgresCluster sets up its suite: neither is a React hook.
      "react-hooks/rules-of-hooks": "off",
      // A test reads JSON answers (a command's output, an OpenAPI document) whose shape it then asserts.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  // Types declared only to prove, with @ts-expect-error, that they do not compile.
  { files: ["tests/types/**"], rules: { "@typescript-eslint/no-unused-vars": ["error", { varsIgnorePattern: "^(_|Nope$)" }] } },
  // The waves view chooses its hooks' dependencies (a URL's arrays stand as their joined keys, an
  // effect runs once on arrival or on its key alone), each choice said beside the hook.
  { files: ["components/waves/WavesGraph.tsx", "components/waves/useWavesView.ts"], rules: { "react-hooks/exhaustive-deps": "off" } },
  // The icon is a 22 px static SVG, which next/image would not improve.
  { files: ["components/Nav.tsx"], rules: { "@next/next/no-img-element": "off" } },
  // The YAML reader boxes scalars (new String) to tell the key 1 from the key "1".
  { files: ["lib/plan/yaml.ts"], rules: { "@typescript-eslint/no-wrapper-object-types": "off" } },
]);
