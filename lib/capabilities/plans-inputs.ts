import { z } from "zod";
import { MAX_PARALLEL_MAX, MAX_PARALLEL_MIN } from "../execution/config";
import { ERROR_CATEGORIES } from "../execution/failure";
import { PHASES } from "../execution/model";

// Inputs of the execution-plan capabilities (their answers: lib/execution/shapes.ts).

const id = (what: string) => z.string().min(1, `${what} is a plan id (a ULID)`).max(64).describe(`${what} (a ULID).`);

export const SubplanConfigInput = z
  .strictObject({
    execution_mode: z.enum(["sequential", "parallel"]).optional().describe("sequential (default) or parallel."),
    merge_strategy: z.enum(["git_three_way"]).optional(),
    max_parallel: z
      .number()
      .int()
      .min(MAX_PARALLEL_MIN, `max_parallel must be at least ${MAX_PARALLEL_MIN}`)
      .max(MAX_PARALLEL_MAX, `max_parallel must be at most ${MAX_PARALLEL_MAX}`)
      .optional()
      .describe(`${MAX_PARALLEL_MIN}..${MAX_PARALLEL_MAX}, default 5.`),
    fail_fast: z.boolean().optional().describe("Default false: a final failure leaves the siblings running (parallel)."),
    retry_failed: z.boolean().optional().describe("Default true."),
    max_retries: z.number().int().min(0, "max_retries must be 0 or more").optional().describe("Retries, not attempts; default 2."),
    timeout: z.number().gt(0, "timeout must be greater than 0 seconds").nullable().optional().describe("Seconds a child may process; default none."),
  })
  .describe("How the children run; omitted fields take their defaults.");

export const PlansCreateInput = z
  .strictObject({
    milestone: z.string().min(1).max(200).optional().describe("Decompose this milestone."),
    issues: z.array(z.string().min(1).max(200)).min(1).max(1000).optional().describe("Or exactly these issues."),
    config: SubplanConfigInput.optional(),
    automation_profile: z.string().min(1).max(200).optional(),
    dry_run: z.boolean().optional().describe("Answer what it would make (its children by wave, what it skips, its branch); write nothing."),
  })
  .refine((v) => (v.milestone === undefined) !== (v.issues === undefined), { message: "give milestone or issues, one of the two" })
  .meta({ oneOf: [{ required: ["milestone"] }, { required: ["issues"] }] });

export const PlanIdInput = z.strictObject({ id: id("The plan") });
export const RootInput = z.strictObject({ root: id("The root plan") });

export const PlansAdvanceInput = z.strictObject({
  child: id("The child plan"),
  to: z.enum(PHASES).describe("The next phase: strategize → execute → apply, one step at a time."),
  branch: z.string().min(1).max(250).optional().describe("On apply: the git branch holding the child's result."),
});

export const PlansFailInput = z.strictObject({
  child: id("The child plan"),
  category: z.enum(ERROR_CATEGORIES).describe("timeout, transient, rate_limit (retried) or configuration, validation, permission, conflict."),
  message: z.string().min(1).max(10_000).describe("What went wrong."),
});

export const EvidenceItem = z
  .strictObject({
    covers: z.string().min(1).max(200),
    type: z.enum(["test", "build", "ci", "artifact", "manual"]),
    command: z.string().min(1).max(10_000).optional(),
    artifact: z.string().min(1).max(10_000).optional(),
    result: z.string().max(10_000).optional(),
  })
  .refine((e) => (e.command === undefined) !== (e.artifact === undefined), { message: "each evidence names a command or an artifact" })
  .meta({ oneOf: [{ required: ["command"] }, { required: ["artifact"] }] });

export const PlansCompleteInput = z.strictObject({
  child: id("The child plan"),
  evidence: z.array(EvidenceItem).max(100).default([]).describe("The evidence its issue requires."),
});

/**
 * The coordinator's results are typed by its own interfaces; lib/execution/shapes.ts spells them as
 * schemas. This hands one to the other without copying.
 */
export const open = <T extends object>(value: T extends PromiseLike<unknown> ? never : T): never => value as never;
