import type { SubplanConfig } from "./config";
import { PlanValidationError } from "./errors";
import type { SubplanStatus } from "./model";

// The failure handler (docs/execution-plans.md "The failure handler"): given the config and a failed
// child, retry it or not, and stop its siblings or not. Pure.

export const RETRIABLE_CATEGORIES = ["timeout", "transient", "rate_limit"] as const;
export const NON_RETRIABLE_CATEGORIES = ["configuration", "validation", "permission", "conflict"] as const;
export const ERROR_CATEGORIES = [...RETRIABLE_CATEGORIES, ...NON_RETRIABLE_CATEGORIES] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export function isErrorCategory(value: unknown): value is ErrorCategory {
  return typeof value === "string" && (ERROR_CATEGORIES as readonly string[]).includes(value);
}

export function checkErrorCategory(value: unknown): ErrorCategory {
  if (!isErrorCategory(value)) {
    throw new PlanValidationError(
      "category",
      `'${String(value)}' is not an error category; the categories are ${ERROR_CATEGORIES.join(", ")}`,
    );
  }
  return value;
}

export function isRetriable(category: ErrorCategory): boolean {
  return (RETRIABLE_CATEGORIES as readonly string[]).includes(category);
}

export interface FailedChild {
  category: ErrorCategory;
  attempt: number;
}

export interface FailureDecision {
  category: ErrorCategory;
  attempt: number;
  retriable: boolean;
  /** A new child runs the same work with attempt + 1. */
  retry: boolean;
  /** The attempt the retry runs as (only when retrying). */
  next_attempt?: number;
  /** No retry follows: this child's work has ended errored. */
  final: boolean;
  /** Cancel the queued siblings and the processing ones. */
  stop_others: boolean;
  /** One sentence: what was decided and why. */
  reason: string;
}

type HandlerConfig = Pick<SubplanConfig, "execution_mode" | "fail_fast" | "retry_failed" | "max_retries">;

/**
 * retry ⇔ retry_failed ∧ retriable ∧ attempt ≤ max_retries;
 * stop others ⇔ final ∧ (fail_fast ∨ sequential).
 */
export function decideFailure(config: HandlerConfig, failed: FailedChild): FailureDecision {
  const category = checkErrorCategory(failed.category);
  const attempt = failed.attempt;
  const retriable = isRetriable(category);
  const retry = config.retry_failed && retriable && attempt <= config.max_retries;
  const final = !retry;
  const stop_others = final && (config.fail_fast || config.execution_mode === "sequential");

  let why: string;
  if (retry) {
    why = `${category} is retriable and attempt ${attempt} is within max_retries ${config.max_retries}, so attempt ${attempt + 1} runs the same work`;
  } else if (!retriable) {
    why = `${category} is not retriable (${NON_RETRIABLE_CATEGORIES.join(", ")} need a person), so the failure is final`;
  } else if (!config.retry_failed) {
    why = `${category} is retriable but retry_failed is false, so the failure is final`;
  } else {
    why = `${category} is retriable but attempt ${attempt} exceeds max_retries ${config.max_retries}, so the failure is final`;
  }
  let others: string;
  if (!final) others = "the siblings go on";
  else if (config.fail_fast) others = "fail_fast is set, so the siblings are stopped";
  else if (config.execution_mode === "sequential") others = "the plan is sequential and later children depend on the order, so the siblings are stopped";
  else others = "the plan is parallel without fail_fast, so the siblings go on";

  return {
    category,
    attempt,
    retriable,
    retry,
    ...(retry ? { next_attempt: attempt + 1 } : {}),
    final,
    stop_others,
    reason: `${retry ? "retry" : "no retry"}: ${why}; ${others}.`,
  };
}

/** The handler applied to a parent's view of an errored child (its last error's category and its attempt). */
export function decideForStatus(config: HandlerConfig, status: SubplanStatus): FailureDecision {
  if (!status.last_error) {
    throw new PlanValidationError("last_error", `subplan ${status.plan_id} has no error to handle (it is ${status.processing_state})`);
  }
  return decideFailure(config, { category: checkErrorCategory(status.last_error.category), attempt: status.attempt });
}
