import { z } from "zod";
import { PlanValidationError } from "./errors";

// SubplanConfig (docs/execution-plans.md "SubplanConfig"): how a plan runs the children it decomposed
// into. Every bound violation names the field and the bound, e.g. "max_parallel must be at least 1 (got 0)".

export const EXECUTION_MODES = ["sequential", "parallel"] as const;
export const MERGE_STRATEGIES = ["git_three_way"] as const;
export const MAX_PARALLEL_MIN = 1;
export const MAX_PARALLEL_MAX = 50;

export type ExecutionMode = (typeof EXECUTION_MODES)[number];
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

const shown = (v: unknown) => (typeof v === "string" ? `'${v}'` : v === undefined ? "nothing" : JSON.stringify(v));

const bool = (field: string) => z.boolean({ error: (iss) => `${field} must be true or false (got ${shown(iss.input)})` });

const int = (field: string) =>
  z
    .number({ error: (iss) => `${field} must be a number (got ${shown(iss.input)})` })
    .int({ error: (iss) => `${field} must be an integer (got ${shown(iss.input)})` });

export const SubplanConfigSchema = z
  .object({
    execution_mode: z
      .enum(EXECUTION_MODES, { error: (iss) => `execution_mode must be sequential or parallel (got ${shown(iss.input)})` })
      .default("sequential"),
    merge_strategy: z
      .enum(MERGE_STRATEGIES, {
        error: (iss) => `merge_strategy must be git_three_way, the one strategy there is for now (got ${shown(iss.input)})`,
      })
      .default("git_three_way"),
    max_parallel: int("max_parallel")
      .min(MAX_PARALLEL_MIN, { error: (iss) => `max_parallel must be at least ${MAX_PARALLEL_MIN} (got ${shown(iss.input)})` })
      .max(MAX_PARALLEL_MAX, { error: (iss) => `max_parallel must be at most ${MAX_PARALLEL_MAX} (got ${shown(iss.input)})` })
      .default(5),
    fail_fast: bool("fail_fast").default(false),
    retry_failed: bool("retry_failed").default(true),
    max_retries: int("max_retries")
      .min(0, { error: (iss) => `max_retries must be at least 0 (got ${shown(iss.input)})` })
      .default(2),
    timeout: z
      .number({ error: (iss) => `timeout must be a number of seconds or none (got ${shown(iss.input)})` })
      .gt(0, { error: (iss) => `timeout must be greater than 0 seconds (got ${shown(iss.input)})` })
      .nullable()
      .default(null),
  })
  .strict();

export type SubplanConfig = z.output<typeof SubplanConfigSchema>;
export type SubplanConfigInput = z.input<typeof SubplanConfigSchema>;

/** Parse (and default) a config; throws a PlanValidationError naming the first field that is wrong. */
export function parseSubplanConfig(input: unknown = {}): SubplanConfig {
  if (input === undefined || input === null) input = {};
  if (typeof input !== "object" || Array.isArray(input)) {
    throw new PlanValidationError("subplan_config", `subplan_config must be an object (got ${shown(input)})`);
  }
  const result = SubplanConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys;
    throw new PlanValidationError(
      keys[0],
      `subplan_config has no field ${keys.map((k) => `'${k}'`).join(", ")}; the fields are ${Object.keys(SubplanConfigSchema.shape).join(", ")}`,
    );
  }
  const field = String(issue.path[0] ?? "subplan_config");
  throw new PlanValidationError(field, issue.message);
}

/** The config with every default: sequential, git_three_way, 5, no fail fast, 2 retries, no timeout. */
export function defaultSubplanConfig(): SubplanConfig {
  return parseSubplanConfig({});
}
