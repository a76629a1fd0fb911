import type { Plan } from "./shapes";

// Stamps that do not count (§2.2): present on an issue but without the seal a move writes. The
// derivation still follows its rules; the people and agents shown such an issue are told, with
// the way out for a plan written before seals (`cockpit plan adopt`).

export const UNSEALED_CODE = "unsealed_stamps";

/** The stamp fields of an issue that are set but do not count (started_at, …), in finding order. */
export function unsealedStamps(plan: Plan, id: string): string[] {
  return plan.findings.filter((f) => f.code === "stamp_without_event" && f.subject === id).map((f) => f.message.split(" ")[0]);
}

/** What a mark of unsealed stamps says where there is no room for the whole warning (a tooltip). */
export const UNSEALED_HINT = "stamps present but unsealed: they do not count; cockpit plan adopt admits stamps written before seals existed";

/** The issues with a stamp that does not count, in one pass over the findings (for a list or a graph). */
export function unsealedIssueIds(plan: Pick<Plan, "findings">): Set<string> {
  return new Set(plan.findings.filter((f) => f.code === "stamp_without_event").map((f) => f.subject));
}

/** The warning about an issue's unsealed stamps, or undefined when every stamp counts. */
export function unsealedWarning(plan: Plan, id: string): { code: typeof UNSEALED_CODE; message: string } | undefined {
  const fields = unsealedStamps(plan, id);
  if (fields.length === 0) return undefined;
  return {
    code: UNSEALED_CODE,
    message: `${id} has stamps that do not count (${fields.join(", ")}: no seal); if they were written before seals existed, cockpit plan adopt admits them, else move it again with cockpit plan start/verify/done`,
  };
}
