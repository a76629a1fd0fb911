import { describe, expect, it } from "vitest";
import { configEnvironment, resolveConfig } from "./config";

describe("the configuration", () => {
  const env = { COCKPIT_DATABASE_URL: " postgres://db/plan ", COCKPIT_AUTHOR: "Ana Sousa <ana@harbor.test>" };

  it("takes each setting from its flag, else from the environment, trimmed", () => {
    expect(resolveConfig({}, env)).toEqual({ database: "postgres://db/plan", author: "Ana Sousa <ana@harbor.test>" });
    expect(resolveConfig({ database: "postgres://other/plan" }, env)).toEqual({ database: "postgres://other/plan", author: "Ana Sousa <ana@harbor.test>" });
  });

  it("an empty flag or variable configures nothing, and a given empty flag wins over the environment", () => {
    expect(resolveConfig({}, { COCKPIT_DATABASE_URL: "  " })).toEqual({});
    expect(resolveConfig({ database: "" }, env)).toEqual({ author: "Ana Sousa <ana@harbor.test>" });
  });

  it("crosses into a child process as that process's environment, and resolves the same there", () => {
    const config = resolveConfig({ database: "postgres://db/plan" }, {});
    expect(configEnvironment(config)).toEqual({ COCKPIT_DATABASE_URL: "postgres://db/plan", COCKPIT_AUTHOR: "" });
    expect(resolveConfig({}, configEnvironment(config))).toEqual(config);
  });

  it("does not touch the process's environment", () => {
    const before = { ...process.env };
    resolveConfig({ database: "postgres://db/plan", author: "A <a@b.c>" });
    expect(process.env).toEqual(before);
  });
});
