import { strict as assert } from "node:assert";
import { Given, Then, When } from "@cucumber/cucumber";
import { toCliDict } from "../../lib/execution/cli-dict";
import { defaultSubplanConfig, parseSubplanConfig, type SubplanConfig } from "../../lib/execution/config";
import { isValidationError, PlanValidationError } from "../../lib/execution/errors";
import { decideForStatus, type ErrorCategory } from "../../lib/execution/failure";
import {
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
  rootIdentity,
  subplanStatusOf,
  validateIdentity,
  type Phase,
  type SubplanStatus,
} from "../../lib/execution/model";
import type { SubplanWorld } from "../support/world";

// Every step drives the real model in lib/execution: the Given steps build plans, configs and
// failed children with it, the Then steps ask it (isSubplan, depth, canMove, the failure handler,
// the CLI dict) and compare its answers.

/** A literal as the feature writes it: "text", an integer, true/false, or none. */
function literal(text: string): unknown {
  const t = text.trim();
  if (t === "none") return null;
  if (t === "true") return true;
  if (t === "false") return false;
  if (/^-?\d+$/.test(t)) return Number(t);
  const quoted = /^"(.*)"$/.exec(t);
  if (quoted) return quoted[1];
  throw new Error(`cannot read the expected value ${text}`);
}

/** A failed child of a fresh parent: errored, with its last error's category, at `attempt`. */
function erroredChild(category: ErrorCategory, attempt = 1): SubplanStatus {
  const parent = createPlan({ subplan_config: {} });
  const child = createPlan({ ...childIdentity(parent), attempt, phase: "execute", processing_state: "errored" });
  assert.ok(isErrored(child));
  return subplanStatusOf(child, { category, message: `the child failed with ${category}` });
}

function handlerSetup(world: SubplanWorld, config: Record<string, unknown>, category: ErrorCategory, attempt = 1): void {
  world.config = parseSubplanConfig(config);
  world.failedStatus = erroredChild(category, attempt);
}

function decision(world: SubplanWorld) {
  if (!world.failedStatus) throw new Error("no failed child was created by an earlier step");
  return decideForStatus(world.requireConfig(), world.failedStatus);
}

// ---- Given: plans ----------------------------------------------------------------------------

Given("I create a subplan-test root plan", function (this: SubplanWorld) {
  this.rootIdentity = rootIdentity();
  this.plan = createPlan({ ...this.rootIdentity });
});

Given("I create a subplan-test plan with root_plan_id equal to plan_id", function (this: SubplanWorld) {
  const id = newPlanId();
  this.plan = createPlan({ plan_id: id, root_plan_id: id });
  assert.equal(this.plan.root_plan_id, this.plan.plan_id);
});

Given("I create a subplan-test child plan with a parent", function (this: SubplanWorld) {
  const parent = createPlan();
  this.childIdentity = childIdentity(parent);
  this.plan = createPlan({ ...this.childIdentity });
  assert.equal(this.plan.parent_plan_id, parent.plan_id);
});

Given("I create a subplan-test three-level hierarchy", function (this: SubplanWorld) {
  this.root = createPlan();
  this.child = createPlan({ ...childIdentity(this.root) });
  this.grandchild = createPlan({ ...childIdentity(this.child) });
  this.plan = this.grandchild;
});

Given("I create a subplan-test default plan", function (this: SubplanWorld) {
  this.plan = createPlan();
});

Given("I create a subplan-test plan with sequential subplan config", function (this: SubplanWorld) {
  this.plan = createPlan({ subplan_config: { execution_mode: "sequential" } });
});

Given("I create a subplan-test plan with parallel subplan config", function (this: SubplanWorld) {
  this.plan = createPlan({
    subplan_config: { execution_mode: "parallel", max_parallel: 10, retry_failed: true, max_retries: 3 },
  });
});

Given("I create a subplan-test default subplan config", function (this: SubplanWorld) {
  this.config = defaultSubplanConfig();
});

Given("I create a subplan-test plan with one subplan status", function (this: SubplanWorld) {
  const parent = createPlan({ subplan_config: {} });
  const child = createPlan({ ...childIdentity(parent) });
  this.plan = createPlan({ ...parent, subplan_statuses: [subplanStatusOf(child)] });
});

Given("I build a subplan-test plan with the child identity", function (this: SubplanWorld) {
  if (!this.childIdentity) throw new Error("no child identity was created by an earlier step");
  this.plan = createPlan({ ...this.childIdentity });
});

Given("I build a subplan-test plan with the root identity", function (this: SubplanWorld) {
  if (!this.rootIdentity) throw new Error("no root identity was created by an earlier step");
  this.plan = createPlan({ ...this.rootIdentity });
});

// ---- Given: the failure handler's inputs -----------------------------------------------------

Given("I create a subplan-test fail-fast config with errored status", function (this: SubplanWorld) {
  handlerSetup(this, { execution_mode: "parallel", fail_fast: true }, "validation");
});

Given("I create a subplan-test parallel-no-fail-fast config with errored status", function (this: SubplanWorld) {
  handlerSetup(this, { execution_mode: "parallel", fail_fast: false }, "validation");
});

Given("I create a subplan-test config with retriable timeout error", function (this: SubplanWorld) {
  handlerSetup(this, {}, "timeout", 1);
});

Given("I create a subplan-test config with non-retriable configuration error", function (this: SubplanWorld) {
  handlerSetup(this, {}, "configuration", 1);
});

Given("I create a subplan-test config with retries disabled and retriable error", function (this: SubplanWorld) {
  handlerSetup(this, { retry_failed: false }, "transient", 1);
});

Given("I create a subplan-test config with max retries exceeded", function (this: SubplanWorld) {
  handlerSetup(this, { max_retries: 2 }, "timeout", 3);
});

// ---- When: validation ------------------------------------------------------------------------

When("I try to create a subplan-test identity with invalid parent ULID", function (this: SubplanWorld) {
  const root = newPlanId();
  this.attempt(() => validateIdentity({ plan_id: newPlanId(), parent_plan_id: "not-a-ulid", root_plan_id: root }));
});

When("I try to create a subplan-test config with max_parallel {int}", function (this: SubplanWorld, n: number) {
  this.attempt(() => parseSubplanConfig({ max_parallel: n }));
});

When("I try to create a subplan-test config with max_retries {int}", function (this: SubplanWorld, n: number) {
  this.attempt(() => parseSubplanConfig({ max_retries: n }));
});

// ---- Then: identity and hierarchy ------------------------------------------------------------

Then("the subplan-test plan should be a subplan", function (this: SubplanWorld) {
  assert.equal(isSubplan(this.requirePlan()), true);
});

Then("the subplan-test plan should not be a subplan", function (this: SubplanWorld) {
  assert.equal(isSubplan(this.requirePlan()), false);
});

Then("the subplan-test plan should be a root plan", function (this: SubplanWorld) {
  assert.equal(isRoot(this.requirePlan()), true);
});

Then("the subplan-test plan should not be a root plan", function (this: SubplanWorld) {
  assert.equal(isRoot(this.requirePlan()), false);
});

Then("the subplan-test plan depth should be {int}", function (this: SubplanWorld, expected: number) {
  assert.equal(depth(this.requirePlan()), expected);
});

Then("the subplan-test plan attempt should be {int}", function (this: SubplanWorld, expected: number) {
  assert.equal(this.requirePlan().attempt, expected);
});

Then("the subplan-test grandchild root_plan_id should match the root plan_id", function (this: SubplanWorld) {
  const { root, child, grandchild } = this;
  if (!root || !child || !grandchild) throw new Error("no three-level hierarchy was created");
  assert.ok(isUlid(grandchild.root_plan_id));
  assert.equal(grandchild.root_plan_id, root.plan_id);
  assert.equal(grandchild.parent_plan_id, child.plan_id);
  assert.equal(child.root_plan_id, root.plan_id);
  assert.equal(isSubplan(grandchild), true);
});

// ---- Then: defaults and state ----------------------------------------------------------------

Then("the subplan-test plan phase should be {string}", function (this: SubplanWorld, expected: string) {
  assert.equal(this.requirePlan().phase, expected);
});

Then("the subplan-test plan processing state should be {string}", function (this: SubplanWorld, expected: string) {
  assert.equal(this.requirePlan().processing_state, expected);
});

Then("the subplan-test plan should not be terminal", function (this: SubplanWorld) {
  assert.equal(isTerminal(this.requirePlan()), false);
});

Then("the subplan-test plan should not be errored", function (this: SubplanWorld) {
  assert.equal(isErrored(this.requirePlan()), false);
});

Then("the subplan-test plan automation profile should be none", function (this: SubplanWorld) {
  assert.equal(this.requirePlan().automation_profile, null);
});

Then("the subplan-test plan subplan_config should be none", function (this: SubplanWorld) {
  assert.equal(this.requirePlan().subplan_config, null);
});

Then("the subplan-test plan should have {int} subplan statuses", function (this: SubplanWorld, expected: number) {
  assert.equal(this.requirePlan().subplan_statuses.length, expected);
});

Then("the subplan-test plan should have subplans", function (this: SubplanWorld) {
  assert.equal(hasSubplans(this.requirePlan()), true);
});

Then("the subplan-test plan should not have subplans", function (this: SubplanWorld) {
  assert.equal(hasSubplans(this.requirePlan()), false);
});

// ---- Then: configs ---------------------------------------------------------------------------

function configField(config: SubplanConfig, field: string): unknown {
  assert.ok(field in config, `SubplanConfig has no field ${field}`);
  return config[field as keyof SubplanConfig];
}

Then(/^the subplan-test plan subplan_config (\w+) should be (.+)$/, function (this: SubplanWorld, field: string, expected: string) {
  const config = this.requirePlan().subplan_config;
  assert.ok(config, "the plan has no subplan_config");
  assert.equal(configField(config, field), literal(expected));
});

Then(/^the subplan-test subplan config (\w+) should be (.+)$/, function (this: SubplanWorld, field: string, expected: string) {
  assert.equal(configField(this.requireConfig(), field), literal(expected));
});

// ---- Then: phase moves -----------------------------------------------------------------------

Then("subplan-test transition from {string} to {string} should be valid", function (this: SubplanWorld, from: string, to: string) {
  assert.equal(canMove(from, to), true);
  const parent = createPlan();
  const child = createPlan({ ...childIdentity(parent), phase: from as Phase });
  assert.equal(movePhase(child, to as Phase).phase, to);
});

Then("subplan-test transition from {string} to {string} should be invalid", function (this: SubplanWorld, from: string, to: string) {
  assert.equal(canMove(from, to), false);
  const parent = createPlan();
  const child = createPlan({ ...childIdentity(parent), phase: from as Phase });
  assert.throws(() => movePhase(child, to as Phase), (error: Error) => error.message.includes(`the only legal move from ${from}`));
});

// ---- Then: the failure handler ---------------------------------------------------------------

Then("the subplan-test failure handler should stop others", function (this: SubplanWorld) {
  const d = decision(this);
  assert.equal(d.final, true);
  assert.equal(d.stop_others, true, d.reason);
});

Then("the subplan-test failure handler should not stop others", function (this: SubplanWorld) {
  const d = decision(this);
  assert.equal(d.stop_others, false, d.reason);
});

Then("the subplan-test failure handler should retry", function (this: SubplanWorld) {
  const d = decision(this);
  assert.equal(d.retry, true, d.reason);
  assert.equal(d.next_attempt, this.failedStatus!.attempt + 1);
});

Then("the subplan-test failure handler should not retry", function (this: SubplanWorld) {
  const d = decision(this);
  assert.equal(d.retry, false, d.reason);
});

// ---- Then: the CLI dict ----------------------------------------------------------------------

Then("the subplan-test cli dict should contain parent_plan_id", function (this: SubplanWorld) {
  const plan = this.requirePlan();
  const dict = toCliDict(plan);
  assert.ok("parent_plan_id" in dict);
  assert.equal(dict.parent_plan_id, plan.parent_plan_id);
});

Then("the subplan-test cli dict should not contain parent_plan_id", function (this: SubplanWorld) {
  assert.equal("parent_plan_id" in toCliDict(this.requirePlan()), false);
});

Then("the subplan-test cli dict should contain subplan_count of {int}", function (this: SubplanWorld, expected: number) {
  assert.equal(toCliDict(this.requirePlan()).subplan_count, expected);
});

// ---- Then: validation ------------------------------------------------------------------------

Then("a validation error should be raised", function (this: SubplanWorld) {
  assert.ok(this.attempted, "no step tried anything");
  assert.ok(this.error !== undefined, "nothing was raised");
  assert.ok(this.error instanceof PlanValidationError && isValidationError(this.error), `not a validation error: ${String(this.error)}`);
  assert.ok(this.error.message.startsWith(this.error.field), `the message does not name the field: ${this.error.message}`);
});
