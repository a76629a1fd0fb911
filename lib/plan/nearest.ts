import { notFound } from "./errors";
import type { Plan } from "./shapes";
import { compareBytes } from "./text";

/** Edit distance (insertions, deletions, substitutions), case folded: how far a typed id is from a known one. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length];
}

/** The known ids nearest to a wanted one (at most `n`), nearest first, ties by id. */
export function nearestIds(wanted: string, known: readonly string[], n = 3): string[] {
  const probe = wanted.slice(0, 200);
  return [...new Set(known)]
    .map((id) => ({ id, d: distance(probe, id.slice(0, 200)) }))
    .sort((a, b) => a.d - b.d || compareBytes(a.id, b.id))
    .slice(0, n)
    .map((e) => e.id);
}

/** Whether a milestone is known: declared, or named by an issue (a milestone file may be missing). */
export function knowsMilestone(plan: Plan, id: string): boolean {
  return plan.milestones.some((m) => m.id === id) || plan.issues.some((i) => i.milestone === id);
}

/** The one refusal of an unknown milestone (404 / exit 12), naming the known ids nearest to it. */
export function unknownMilestone(id: string, known: readonly string[]): Error {
  const near = nearestIds(id, known);
  return notFound(`no milestone '${id}'; ${near.length ? `the nearest known: ${near.join(", ")}` : "the plan declares no milestone"}`);
}

/** Refuse a milestone filter the plan does not know (every read but plan.next, which widens). */
export function requireMilestone(plan: Plan, id: string | undefined): void {
  if (id !== undefined && !knowsMilestone(plan, id)) throw unknownMilestone(id, plan.milestones.map((m) => m.id));
}
