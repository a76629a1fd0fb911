import type { Plan, PlanMilestone, PlanRoadmap } from "./shapes";
import { compareBytes } from "./text";

/** Milestones sorted by (rank, order, id) (§3.4). */
export function roadmapOrder(plan: Plan): PlanMilestone[] {
  return [...plan.milestones].sort((a, b) => a.rank - b.rank || a.order - b.order || compareBytes(a.id, b.id));
}

const isOpen = (m: PlanMilestone) => m.status !== "DONE" && m.status !== "CANCELLED" && m.status !== "SUPERSEDED";

/**
 * The roadmap with `now` (the first open milestone, if nothing blocks it) and `next` (the open one
 * after it; or, when the first open milestone is blocked, that milestone itself).
 */
export function deriveRoadmap(plan: Plan): PlanRoadmap {
  const milestones = roadmapOrder(plan);
  const open = milestones.filter(isOpen);
  const roadmap: PlanRoadmap = { milestones };
  if (open.length === 0) return roadmap;
  if (open[0].blocked_by.length === 0) {
    roadmap.now = open[0].id;
    if (open.length > 1) roadmap.next = open[1].id;
  } else {
    roadmap.next = open[0].id;
  }
  return roadmap;
}
