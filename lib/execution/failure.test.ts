import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSubplanConfig } from "./config";
import { PlanValidationError } from "./errors";
import { ERROR_CATEGORIES, NON_RETRIABLE_CATEGORIES, RETRIABLE_CATEGORIES, decideFailure, decideForStatus, isRetriable } from "./failure";
import { childIdentity, createPlan, subplanStatusOf } from "./model";

describe("the failure handler", () => {
  it("knows which categories are retriable", () => {
    expect(RETRIABLE_CATEGORIES).toEqual(["timeout", "transient", "rate_limit"]);
    expect(NON_RETRIABLE_CATEGORIES).toEqual(["configuration", "validation", "permission", "conflict"]);
    for (const c of ERROR_CATEGORIES) expect(isRetriable(c)).toBe((RETRIABLE_CATEGORIES as readonly string[]).includes(c));
  });

  it("retries a retriable failure within max_retries", () => {
    const config = parseSubplanConfig({});
    for (const category of RETRIABLE_CATEGORIES) {
      for (const attempt of [1, 2]) {
        const d = decideFailure(config, { category, attempt });
        expect(d).toMatchObject({ retry: true, next_attempt: attempt + 1, final: false, stop_others: false });
        expect(d.reason).toBe(
          `retry: ${category} is retriable and attempt ${attempt} is within max_retries 2, so attempt ${attempt + 1} runs the same work; the siblings go on.`,
        );
      }
      const d = decideFailure(config, { category, attempt: 3 });
      expect(d).toMatchObject({ retry: false, final: true, stop_others: true });
      expect(d.next_attempt).toBeUndefined();
      expect(d.reason).toMatch(/exceeds max_retries 2, so the failure is final; the plan is sequential/);
    }
  });

  it("never retries configuration, validation, permission or conflict", () => {
    const config = parseSubplanConfig({ execution_mode: "parallel", max_retries: 10 });
    for (const category of NON_RETRIABLE_CATEGORIES) {
      const d = decideFailure(config, { category, attempt: 1 });
      expect(d).toMatchObject({ retriable: false, retry: false, final: true, stop_others: false });
      expect(d.reason).toMatch(new RegExp(`^no retry: ${category} is not retriable .*the plan is parallel without fail_fast, so the siblings go on\\.$`));
    }
  });

  it("does not retry when retry_failed is false", () => {
    const d = decideFailure(parseSubplanConfig({ retry_failed: false, execution_mode: "parallel", fail_fast: true }), { category: "transient", attempt: 1 });
    expect(d).toMatchObject({ retry: false, stop_others: true });
    expect(d.reason).toBe("no retry: transient is retriable but retry_failed is false, so the failure is final; fail_fast is set, so the siblings are stopped.");
  });

  it("max_retries 0 means no retry at all", () => {
    expect(decideFailure(parseSubplanConfig({ max_retries: 0 }), { category: "timeout", attempt: 1 }).retry).toBe(false);
  });

  it("retry ⇔ retry_failed ∧ retriable ∧ attempt ≤ max_retries; stop ⇔ final ∧ (fail_fast ∨ sequential)", () => {
    fc.assert(
      fc.property(
        fc.record({
          execution_mode: fc.constantFrom("sequential", "parallel"),
          fail_fast: fc.boolean(),
          retry_failed: fc.boolean(),
          max_retries: fc.integer({ min: 0, max: 6 }),
        }),
        fc.constantFrom(...ERROR_CATEGORIES),
        fc.integer({ min: 1, max: 8 }),
        (raw, category, attempt) => {
          const config = parseSubplanConfig(raw);
          const d = decideFailure(config, { category, attempt });
          const retry = config.retry_failed && isRetriable(category) && attempt <= config.max_retries;
          expect(d.retry).toBe(retry);
          expect(d.final).toBe(!retry);
          expect(d.stop_others).toBe(!retry && (config.fail_fast || config.execution_mode === "sequential"));
          expect(d.reason.startsWith(retry ? "retry: " : "no retry: ")).toBe(true);
        },
      ),
    );
  });

  it("reads a parent's view of an errored child", () => {
    const parent = createPlan();
    const child = createPlan({ ...childIdentity(parent), attempt: 2, processing_state: "errored" });
    const config = parseSubplanConfig({ execution_mode: "parallel", fail_fast: true });
    expect(decideForStatus(config, subplanStatusOf(child, { category: "rate_limit", message: "429" }))).toMatchObject({ retry: true, next_attempt: 3 });
    expect(decideForStatus(config, subplanStatusOf(child, { category: "permission", message: "403" }))).toMatchObject({ retry: false, stop_others: true });
    expect(() => decideForStatus(config, subplanStatusOf(child))).toThrow(PlanValidationError);
    expect(() => decideForStatus(config, subplanStatusOf(child, { category: "cosmic_ray", message: "" }))).toThrow(
      "'cosmic_ray' is not an error category; the categories are timeout, transient, rate_limit, configuration, validation, permission, conflict",
    );
  });
});
