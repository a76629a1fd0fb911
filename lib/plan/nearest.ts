import { notFound } from "./errors";
import type { Plan } from "./shapes";
import { compareBytes } from "./text";

// "Did you mean …?": the known words and ids nearest a mistyped one, for every surface.

/** Edit distance (insert, delete, substitute, swap of neighbours), case folded. */
export function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array<number>(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0][j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[x.length][y.length];
}

/** The known word nearest `word`, or undefined when none is within a third of its length (at least 2). */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = k.startsWith(word) && word.length >= 3 ? 1 : distance(word, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= limit ? best : undefined;
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
