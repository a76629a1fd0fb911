import { describe, expect, it } from "vitest";
import { toCliDict } from "./cli-dict";
import { childIdentity, createPlan, rootIdentity, subplanStatusOf } from "./model";

describe("the CLI dict", () => {
  it("a root: the six keys, root_plan_id its own id, no parent", () => {
    const bare = createPlan();
    expect(toCliDict(bare)).toEqual({
      plan_id: bare.plan_id,
      phase: "strategize",
      processing_state: "queued",
      attempt: 1,
      root_plan_id: bare.plan_id,
      automation_profile: null,
    });
    expect(Object.keys(toCliDict(bare))).toEqual(["plan_id", "phase", "processing_state", "attempt", "root_plan_id", "automation_profile"]);
    expect(toCliDict(createPlan({ ...rootIdentity() }))).not.toHaveProperty("parent_plan_id");
  });

  it("a child carries parent_plan_id", () => {
    const root = createPlan();
    const child = createPlan({ ...childIdentity(root), attempt: 3, automation_profile: "agent" });
    expect(toCliDict(child)).toEqual({
      plan_id: child.plan_id,
      phase: "strategize",
      processing_state: "queued",
      attempt: 3,
      root_plan_id: root.plan_id,
      automation_profile: "agent",
      parent_plan_id: root.plan_id,
    });
  });

  it("subplan_count only with subplans, subplan_config only when set", () => {
    const root = createPlan({ subplan_config: { execution_mode: "parallel" } });
    const kids = [createPlan({ ...childIdentity(root) }), createPlan({ ...childIdentity(root) })];
    const dict = toCliDict({ ...root, subplan_statuses: kids.map((k) => subplanStatusOf(k)) });
    expect(dict.subplan_count).toBe(2);
    expect(dict.subplan_config).toEqual(root.subplan_config);
    expect(toCliDict(createPlan())).not.toHaveProperty("subplan_count");
    expect(toCliDict(createPlan())).not.toHaveProperty("subplan_config");
  });
});
