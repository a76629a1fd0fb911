import type { z } from "zod";
import type { Capability } from "../capabilities/capability";
import { CapabilityError } from "../plan/errors";
import { uncommittedCount } from "../repo/commit";
import { contextFor, settledState } from "../server/state";
import { settingsFromEnv } from "./http";
import { invoke } from "./invoke";

// What the browser's server components read: the registry, on the repository being served.

export function servedRepo(): string {
  return settingsFromEnv().repo;
}

/**
 * Call a capability for a page: the declaration itself is passed, so the answer's type is its
 * output schema's and no page names it by hand. A failure is thrown as the CapabilityError it is.
 */
export async function call<I extends z.ZodType, O extends z.ZodType>(capability: Capability<I, O>, input: z.input<I> = {} as z.input<I>): Promise<z.infer<O>> {
  const result = await invoke(capability, contextFor(servedRepo()), input);
  if (!result.ok) throw new CapabilityError(result.error.code, result.error.message);
  return result.value;
}

/** The records and the derived plan, for pages that also show what the records hold. */
export function servedState() {
  return settledState(servedRepo());
}

/**
 * How many record files this clone changed and did not commit: the header's count, on every page.
 * One `git status`, where plan.sync_status (which counts the same) also asks git for the remote
 * and what is ahead and behind: four more processes per page view. 0 outside a git work tree.
 */
export function uncommittedRecordFiles(): Promise<number> {
  return uncommittedCount(servedRepo());
}
