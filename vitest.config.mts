import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)) },
  },
  test: {
    environment: "node",
    include: ["lib/**/*.test.{ts,tsx}", "tests/**/*.test.{ts,tsx}"],
    // At least two workers (vitest takes one fewer than the cores by default: one on two cores).
    // Files that share a resource each get their own (free ports, temporary folders, databases).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
