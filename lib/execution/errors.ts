import { CapabilityError } from "../plan/errors";

/**
 * A value that breaks a rule of the execution-plan model (a ULID that is not one, a config bound).
 * It is an `invalid_input` capability error, so every surface maps it like any other bad input;
 * `field` names the offending field.
 */
export class PlanValidationError extends CapabilityError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super("invalid_input", message);
    this.name = "PlanValidationError";
  }
}

/** Is this a validation error of the model (or of any capability input)? */
export function isValidationError(error: unknown): error is CapabilityError {
  return error instanceof CapabilityError && error.code === "invalid_input";
}
