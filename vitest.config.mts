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
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
