import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)) },
  },
  test: {
    environment: "node",
    include: ["lib/**/*.test.{ts,tsx}", "tests/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/fast-check-setup.ts"],
    // Both cores: vitest's default on a two-core machine is one worker (cores − 1). The files
    // that start processes or servers bound their own concurrency.
    maxWorkers: Number(process.env.COCKPIT_TEST_WORKERS ?? 2),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
