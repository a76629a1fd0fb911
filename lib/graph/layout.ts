import type { Plan, PlanIssue } from "../plan/shapes";
import { compareBytes } from "../plan/text";

export const COLUMN_WIDTH = 260;
export const ROW_HEIGHT = 64;
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 48;

export interface LaidOutNode {
  id: string;
  /** The column: a wave number, or "cycle" for issues that have no wave. */
  column: number | "cycle";
  /** Position inside the column, from 0. */
  row: number;
  x: number;
  y: number;
}

export interface WaveColumn {
  key: number | "cycle";
  label: string;
  ids: string[];
}

/**
 * Lay the issue graph out by wave: one column per wave (the waves already are the layers), the
 * issues in a cycle in a column of their own after the last wave, ordered inside a column by
 * milestone and then id. Pure: the same plan and selection give the same positions.
 */
export function layoutByWave(plan: Pick<Plan, "waves" | "issues">, include: (issue: PlanIssue) => boolean = () => true): { nodes: LaidOutNode[]; columns: WaveColumn[] } {
  const byId = new Map(plan.issues.map((i) => [i.id, i]));
  const placed = new Set<string>();
  const columns: WaveColumn[] = [];
  const order = (a: PlanIssue, b: PlanIssue) => compareBytes(a.milestone, b.milestone) || compareBytes(a.id, b.id);
  for (const w of plan.waves) {
    for (const id of w.issues) placed.add(id);
    const members = w.issues.map((id) => byId.get(id)).filter((i): i is PlanIssue => !!i && include(i)).sort(order);
    if (members.length) columns.push({ key: w.wave, label: `Wave ${w.wave}`, ids: members.map((i) => i.id) });
  }
  const cyclic = plan.issues.filter((i) => !placed.has(i.id) && include(i)).sort(order);
  if (cyclic.length) columns.push({ key: "cycle", label: "In a cycle (no wave)", ids: cyclic.map((i) => i.id) });
  const nodes: LaidOutNode[] = [];
  columns.forEach((col, c) => {
    col.ids.forEach((id, row) => nodes.push({ id, column: col.key, row, x: c * COLUMN_WIDTH, y: row * ROW_HEIGHT }));
  });
  return { nodes, columns };
}
