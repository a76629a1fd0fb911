// The waves view reads the plan again from GET /api/v1/plan: what it takes is parsed, not assumed.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlanAnswer } from "@/components/waves/plan-answer";
import { loadPlan } from "@/lib/repo";

const demo = () => JSON.parse(JSON.stringify(loadPlan(join(__dirname, "..", "examples", "demo"))));

describe("the plan the waves view fetches", () => {
  it("is the demo's plan once it crossed the wire as JSON", () => {
    const plan = demo();
    expect(parsePlanAnswer(plan).issues.length).toBe(plan.issues.length);
  });

  it("is refused, naming where, when the answer is not a plan", () => {
    const plan = demo();
    delete plan.issues[0].status;
    expect(() => parsePlanAnswer(plan)).toThrow(/not a plan \(issues\.0\.status: /);
    expect(() => parsePlanAnswer({ error: { code: "internal", message: "x" } })).toThrow(/not a plan/);
  });
});
