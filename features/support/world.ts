import { setWorldConstructor, World, type IWorldOptions } from "@cucumber/cucumber";
import type { SubplanConfig } from "../../lib/execution/config";
import type { ExecutionPlan, PlanIdentity, SubplanStatus } from "../../lib/execution/model";

/** What one scenario builds: the plan (or plans) under test, a config, a failed child, a caught error. */
export class SubplanWorld extends World {
  /** The plan the "the subplan-test plan ..." steps look at. */
  plan?: ExecutionPlan;
  /** Identities kept by the Given steps for a later "I build a plan with the ... identity". */
  rootIdentity?: PlanIdentity;
  childIdentity?: PlanIdentity;
  /** The three-level hierarchy. */
  root?: ExecutionPlan;
  child?: ExecutionPlan;
  grandchild?: ExecutionPlan;
  /** A config on its own ("the subplan-test subplan config ..."). */
  config?: SubplanConfig;
  /** The failed child the failure handler is asked about. */
  failedStatus?: SubplanStatus;
  /** What a "When I try to ..." step threw, if anything. */
  error?: unknown;
  attempted = false;

  constructor(options: IWorldOptions) {
    super(options);
  }

  requirePlan(): ExecutionPlan {
    if (!this.plan) throw new Error("no plan was created by an earlier step");
    return this.plan;
  }

  requireConfig(): SubplanConfig {
    if (!this.config) throw new Error("no subplan config was created by an earlier step");
    return this.config;
  }

  /** Run a step's action, keeping what it throws for "a validation error should be raised". */
  attempt(fn: () => unknown): void {
    this.attempted = true;
    this.error = undefined;
    try {
      fn();
    } catch (error) {
      this.error = error;
    }
  }
}

setWorldConstructor(SubplanWorld);
