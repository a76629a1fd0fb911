import { describe, expect, it } from "vitest";
import { defaultSubplanConfig, parseSubplanConfig } from "./config";
import { PlanValidationError } from "./errors";

function rejects(input: unknown): PlanValidationError {
  try {
    parseSubplanConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(PlanValidationError);
    return error as PlanValidationError;
  }
  throw new Error(`${JSON.stringify(input)} was accepted`);
}

describe("SubplanConfig", () => {
  it("defaults", () => {
    expect(defaultSubplanConfig()).toEqual({
      execution_mode: "sequential",
      merge_strategy: "git_three_way",
      max_parallel: 5,
      fail_fast: false,
      retry_failed: true,
      max_retries: 2,
      timeout: null,
    });
    expect(parseSubplanConfig(undefined)).toEqual(defaultSubplanConfig());
    expect(parseSubplanConfig(null)).toEqual(defaultSubplanConfig());
  });

  it("keeps what is given", () => {
    const c = parseSubplanConfig({ execution_mode: "parallel", max_parallel: 10, fail_fast: true, retry_failed: false, max_retries: 0, timeout: 1.5 });
    expect(c).toEqual({ execution_mode: "parallel", merge_strategy: "git_three_way", max_parallel: 10, fail_fast: true, retry_failed: false, max_retries: 0, timeout: 1.5 });
  });

  it("max_parallel is 1..50 inclusive", () => {
    expect(parseSubplanConfig({ max_parallel: 1 }).max_parallel).toBe(1);
    expect(parseSubplanConfig({ max_parallel: 50 }).max_parallel).toBe(50);
    expect(rejects({ max_parallel: 0 }).message).toBe("max_parallel must be at least 1 (got 0)");
    expect(rejects({ max_parallel: 51 }).message).toBe("max_parallel must be at most 50 (got 51)");
    expect(rejects({ max_parallel: 2.5 }).message).toBe("max_parallel must be an integer (got 2.5)");
    expect(rejects({ max_parallel: "3" }).message).toBe("max_parallel must be a number (got '3')");
    expect(rejects({ max_parallel: 0 }).field).toBe("max_parallel");
  });

  it("max_retries is an integer >= 0", () => {
    expect(rejects({ max_retries: -1 }).message).toBe("max_retries must be at least 0 (got -1)");
    expect(rejects({ max_retries: 1.5 }).message).toBe("max_retries must be an integer (got 1.5)");
    expect(parseSubplanConfig({ max_retries: 100 }).max_retries).toBe(100);
  });

  it("timeout is none or seconds > 0", () => {
    expect(parseSubplanConfig({ timeout: null }).timeout).toBeNull();
    expect(parseSubplanConfig({ timeout: 30 }).timeout).toBe(30);
    expect(rejects({ timeout: 0 }).message).toBe("timeout must be greater than 0 seconds (got 0)");
    expect(rejects({ timeout: -5 }).message).toBe("timeout must be greater than 0 seconds (got -5)");
    expect(rejects({ timeout: "1m" }).field).toBe("timeout");
  });

  it("the enumerations and the booleans", () => {
    expect(rejects({ execution_mode: "batch" }).message).toBe("execution_mode must be sequential or parallel (got 'batch')");
    expect(rejects({ merge_strategy: "octopus" }).message).toBe("merge_strategy must be git_three_way, the one strategy there is for now (got 'octopus')");
    expect(rejects({ fail_fast: "yes" }).message).toBe("fail_fast must be true or false (got 'yes')");
    expect(rejects({ retry_failed: 1 }).message).toBe("retry_failed must be true or false (got 1)");
  });

  it("refuses unknown fields and non-objects", () => {
    const e = rejects({ max_paralel: 3 });
    expect(e.field).toBe("max_paralel");
    expect(e.message).toMatch(/^subplan_config has no field 'max_paralel'; the fields are execution_mode, merge_strategy, max_parallel/);
    expect(rejects([]).message).toBe("subplan_config must be an object (got [])");
    expect(rejects("parallel").field).toBe("subplan_config");
  });
});
