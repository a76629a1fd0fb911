// The seals come from the product's own code (lib/plan/seal.ts), bundled into dist/ by
// scripts/build-cli.mjs (npm's prepare step), so the demo can never seal a stamp differently from
// the plan that reads it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const bundle = fileURLToPath(new URL("../../dist/plan-seal.js", import.meta.url));
if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build:cli first`);

/** @type {{ MOVES: Record<"start" | "verify" | "done", { field: string, seal: string, event: string }>, sealOf: (event: string, issueId: string, stamp: string) => string }} */
const seal = createRequire(import.meta.url)(bundle);
export const { MOVES, sealOf } = seal;
