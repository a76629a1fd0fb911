// The facts one issue record gives by itself (Phase A), kept by the memory between derivations.
import type { PlanFinding, PlanIssue } from "../shapes";

/**
 * What one issue record gives by itself, read against a set of issue ids and milestone ids:
 * everything of Phase A that concerns this issue alone.
 */
export interface IssueFacts {
  /** The moves whose stamp is set and proven, as bits (STAMPED[move]). */
  bits: number;
  cancelled: boolean;
  done: boolean;
  /** The milestone's index (-1: none or unknown). */
  milestone: number;
  /** The issues it depends on, in declared order, duplicates kept. */
  eff: readonly number[];
  /** The same without duplicates. */
  uniq: readonly number[];
  /** Its Phase A findings, in emission order. */
  findings: readonly PlanFinding[];
  /**
   * The derived issue before the later passes: the plan that read the record uses this object,
   * each later plan a copy of it (every field the later passes set is set again).
   */
  issue: PlanIssue;
}
