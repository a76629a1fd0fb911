import { findCapability } from "../capabilities/index";
import { CapabilityError } from "../plan/errors";
import { contextFor, settledState } from "../server/state";
import { settingsFromEnv } from "./http";
import { invoke } from "./invoke";

// What the browser's server components read: the registry, on the repository being served.

export function servedRepo(): string {
  return settingsFromEnv().repo;
}

/** Call a capability for a page; a failure is thrown as the CapabilityError it is. */
export async function call<T>(id: string, input: Record<string, unknown> = {}): Promise<T> {
  const capability = findCapability(id);
  if (!capability) throw new CapabilityError("internal", `no capability ${id}`);
  const result = await invoke(capability, contextFor(servedRepo()), input);
  if (!result.ok) throw new CapabilityError(result.error.code, result.error.message);
  return result.value as T;
}

/** The records and the derived plan, for pages that also show what the records hold. */
export function servedState() {
  return settledState(servedRepo());
}
