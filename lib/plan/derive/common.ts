// What every phase of the derivation shares: finding makers, id order, coverage and counts.
import { type FindingCode, type IssueStatus } from "../constants";
import type { PlanCounts, PlanFinding } from "../shapes";
import { compareBytes } from "../text";

export const fail = (code: FindingCode, subject: string, message: string): PlanFinding => ({ level: "FAIL", code, subject, message });

export const warn = (code: FindingCode, subject: string, message: string): PlanFinding => ({ level: "WARN", code, subject, message });

/**
 * The empty list every issue without dependents or blockers shares (frozen: the derived plan is
 * read, never changed; a write to it throws instead of changing every issue at once).
 */
export const NONE = Object.freeze([]) as readonly string[] as string[];

const byId = <T extends { id: string }>(a: T, b: T) => compareBytes(a.id, b.id);

/**
 * Records in id order, with their ids alongside (read once: the later passes use `ids`). The loader
 * already gives them so, and a sorted list is only checked.
 */
export function inIdOrder<T extends { id: string }>(list: readonly T[]): { list: T[]; ids: string[] } {
  const ids = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) {
    ids[i] = list[i].id;
    if (i > 0 && compareBytes(ids[i - 1], ids[i]) > 0) {
      const sorted = [...list].sort(byId);
      return { list: sorted, ids: sorted.map((r) => r.id) };
    }
  }
  return { list: list as T[], ids };
}

export function indexOf(ids: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i], i);
  return index;
}

/** Whether every required token is among the covers (set membership; an empty list is covered). */
export function isCovered(required: readonly string[], covers: readonly string[]): boolean {
  if (required.length === 0) return true;
  // Lists are short: a scan beats building a set.
  if (covers.length <= 16) {
    for (let k = 0; k < required.length; k++) if (!covers.includes(required[k])) return false;
    return true;
  }
  const have = new Set(covers);
  for (let k = 0; k < required.length; k++) if (!have.has(required[k])) return false;
  return true;
}

export function missingTokens(required: readonly string[], covers: readonly string[]): string[] {
  const have = new Set(covers);
  return required.filter((t) => !have.has(t));
}

function emptyCounts(): PlanCounts {
  // Keys in the reference's serialisation order (a BTreeMap: alphabetical).
  return { total: 0, required: 0, by_status: { ACTIVE: 0, BLOCKED: 0, CANCELLED: 0, DONE: 0, READY: 0, VERIFY: 0 } };
}

/** Counts of issue statuses (§2.8). */
export function countStatuses(statuses: Iterable<string>): PlanCounts {
  const counts = emptyCounts();
  for (const s of statuses) {
    counts.total++;
    counts.by_status[s] = (counts.by_status[s] ?? 0) + 1;
  }
  counts.required = counts.total - (counts.by_status.CANCELLED ?? 0);
  return counts;
}

/** Counts of the statuses of the issues at `members` (§2.8). */
export function countMembers(members: readonly number[], status: readonly IssueStatus[]): PlanCounts {
  const counts = emptyCounts();
  for (const i of members) counts.by_status[status[i]]++;
  counts.total = members.length;
  counts.required = counts.total - counts.by_status.CANCELLED;
  return counts;
}

export const NO_INDICES = Object.freeze([]) as readonly number[];

export const NO_FINDINGS = Object.freeze([]) as readonly PlanFinding[];
