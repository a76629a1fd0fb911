import { describe, expect, it } from "vitest";
import { CapabilityError } from "../plan/errors";
import { PlanValidationError } from "./errors";
import {
  PHASES,
  PROCESSING_STATES,
  canMove,
  childIdentity,
  createPlan,
  depth,
  hasSubplans,
  isErrored,
  isRoot,
  isSubplan,
  isTerminal,
  isUlid,
  movePhase,
  newPlanId,
  nextPhase,
  phaseMoveProblem,
  rootIdentity,
  rootOf,
  subplanStatusOf,
  validateIdentity,
} from "./model";

function validationError(fn: () => unknown): PlanValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PlanValidationError);
    expect((error as PlanValidationError).code).toBe("invalid_input");
    return error as PlanValidationError;
  }
  throw new Error("no validation error was raised");
}

describe("identity", () => {
  it("generates ULIDs and accepts only ULIDs", () => {
    const id = newPlanId();
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isUlid(id)).toBe(true);
    expect(isUlid(id.toLowerCase())).toBe(true); // Crockford base32 is case-insensitive
    for (const bad of ["", "x", id.slice(1), `${id}0`, id.replace(/.$/, "U"), "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", 42, null, undefined]) {
      expect(isUlid(bad), String(bad)).toBe(false);
    }
  });

  it("names the field whose value is not a ULID", () => {
    const root = newPlanId();
    expect(validationError(() => validateIdentity({ plan_id: newPlanId(), parent_plan_id: "x", root_plan_id: root })).message).toBe(
      "parent_plan_id is not a ULID: 'x'",
    );
    const e = validationError(() => validateIdentity({ plan_id: "nope" }));
    expect(e.field).toBe("plan_id");
    expect(e.message).toBe("plan_id is not a ULID: 'nope'");
    expect(validationError(() => validateIdentity({ plan_id: newPlanId(), root_plan_id: 7 })).message).toBe("root_plan_id is not a ULID: 7");
  });

  it("a root names no parent and no root but itself", () => {
    const id = newPlanId();
    expect(validateIdentity({ plan_id: id })).toEqual({ plan_id: id, parent_plan_id: null, root_plan_id: null });
    expect(validateIdentity({ plan_id: id, root_plan_id: id }).root_plan_id).toBe(id);
    const e = validationError(() => validateIdentity({ plan_id: id, root_plan_id: newPlanId() }));
    expect(e.field).toBe("root_plan_id");
    expect(e.message).toMatch(/must be absent or equal to its plan_id/);
  });

  it("a child names its parent and a root other than itself", () => {
    const root = newPlanId();
    const id = newPlanId();
    expect(validationError(() => validateIdentity({ plan_id: id, parent_plan_id: root })).message).toMatch(/root_plan_id is required for a child/);
    expect(validationError(() => validateIdentity({ plan_id: id, parent_plan_id: id, root_plan_id: root })).field).toBe("parent_plan_id");
    expect(validationError(() => validateIdentity({ plan_id: id, parent_plan_id: root, root_plan_id: id })).field).toBe("root_plan_id");
  });

  it("the root id propagates down the tree", () => {
    const root = rootIdentity();
    const child = childIdentity(root);
    const grandchild = childIdentity(child);
    expect(root.root_plan_id).toBe(root.plan_id);
    expect(child).toMatchObject({ parent_plan_id: root.plan_id, root_plan_id: root.plan_id });
    expect(grandchild).toMatchObject({ parent_plan_id: child.plan_id, root_plan_id: root.plan_id });
    // A root with root_plan_id absent still hands itself down as the root.
    const bare = validateIdentity({ plan_id: newPlanId() });
    expect(rootOf(bare)).toBe(bare.plan_id);
    expect(childIdentity(bare).root_plan_id).toBe(bare.plan_id);
  });
});

describe("the plan", () => {
  it("has the model's defaults", () => {
    const plan = createPlan();
    expect(isUlid(plan.plan_id)).toBe(true);
    expect(plan).toMatchObject({
      parent_plan_id: null,
      root_plan_id: null,
      phase: "strategize",
      processing_state: "queued",
      automation_profile: null,
      attempt: 1,
      subplan_config: null,
      subplan_statuses: [],
    });
  });

  it("validates what it is given", () => {
    expect(validationError(() => createPlan({ attempt: 0 })).field).toBe("attempt");
    expect(validationError(() => createPlan({ attempt: 1.5 })).field).toBe("attempt");
    expect(validationError(() => createPlan({ phase: "plan" as never })).field).toBe("phase");
    expect(validationError(() => createPlan({ processing_state: "done" as never })).field).toBe("processing_state");
    expect(validationError(() => createPlan({ automation_profile: " " })).field).toBe("automation_profile");
    expect(validationError(() => createPlan({ subplan_config: { max_parallel: 0 } })).message).toBe("max_parallel must be at least 1 (got 0)");
    expect(createPlan({ automation_profile: "ci-agent" }).automation_profile).toBe("ci-agent");
    expect(createPlan({ subplan_config: {} }).subplan_config?.max_parallel).toBe(5);
  });

  it("root, subplan and depth", () => {
    const root = createPlan();
    const explicit = createPlan({ ...rootIdentity() });
    const child = createPlan({ ...childIdentity(root) });
    const grandchild = createPlan({ ...childIdentity(child) });
    for (const r of [root, explicit]) {
      expect([isRoot(r), isSubplan(r), depth(r)]).toEqual([true, false, 0]);
    }
    for (const c of [child, grandchild]) {
      expect([isRoot(c), isSubplan(c), depth(c)]).toEqual([false, true, -1]);
    }
  });

  it("has subplans exactly when it has subplan statuses", () => {
    const parent = createPlan();
    expect(hasSubplans(parent)).toBe(false);
    const child = createPlan({ ...childIdentity(parent), attempt: 2 });
    const status = subplanStatusOf(child, { category: "timeout", message: "slow" });
    expect(status).toEqual({ plan_id: child.plan_id, phase: "strategize", processing_state: "queued", attempt: 2, last_error: { category: "timeout", message: "slow" } });
    expect(hasSubplans(createPlan({ ...parent, subplan_statuses: [status] }))).toBe(true);
  });

  it("terminal = completed | errored | cancelled; errored = errored", () => {
    for (const state of PROCESSING_STATES) {
      const plan = createPlan({ processing_state: state });
      expect(isTerminal(plan), state).toBe(["completed", "errored", "cancelled"].includes(state));
      expect(isErrored(plan), state).toBe(state === "errored");
    }
  });
});

describe("phase moves", () => {
  it("only one step forward is legal", () => {
    const legal = new Set(["action>strategize", "strategize>execute", "execute>apply"]);
    for (const from of PHASES) {
      for (const to of PHASES) {
        expect(canMove(from, to), `${from} → ${to}`).toBe(legal.has(`${from}>${to}`));
      }
    }
    expect(PHASES.map(nextPhase)).toEqual(["strategize", "execute", "apply", undefined]);
  });

  it("a refusal says which move is legal from there", () => {
    expect(phaseMoveProblem("strategize", "apply")).toBe("phase move strategize → apply is refused: the only legal move from strategize is strategize → execute");
    expect(phaseMoveProblem("action", "execute")).toBe("phase move action → execute is refused: the only legal move from action is action → strategize");
    expect(phaseMoveProblem("execute", "strategize")).toMatch(/only legal move from execute is execute → apply/);
    expect(phaseMoveProblem("apply", "apply")).toMatch(/apply is the last phase; no move is legal from it/);
    expect(phaseMoveProblem("plan", "apply")).toMatch(/'plan' is not a phase/);
    expect(canMove("plan", "apply")).toBe(false);
  });

  it("movePhase moves a plan, or throws a refusal", () => {
    const child = createPlan({ ...childIdentity(createPlan()), phase: "action" });
    const moved = movePhase(movePhase(movePhase(child, "strategize"), "execute"), "apply");
    expect(moved.phase).toBe("apply");
    expect(child.phase).toBe("action"); // not mutated
    let error: unknown;
    try {
      movePhase(child, "apply");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as CapabilityError).code).toBe("refused");
    expect((error as Error).message).toMatch(/the only legal move from action is action → strategize/);
  });
});
