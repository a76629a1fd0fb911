import type { Plan, PlanRoadmap } from "./shapes";

// Why the active milestone (§2.9) and the roadmap's `now` (§3.4) name different milestones, in one
// line: the two rules differ on purpose (the active one prefers a milestone with work under way),
// and a person shown both deserves the reason.

/**
 * One line saying why `active` and `now` differ, or undefined when they agree. `missingEvidence`
 * gives a milestone's required tokens no entry covers (the records know them, the plan does not).
 */
export function whyActiveIsNotNow(plan: Plan, roadmap: PlanRoadmap, missingEvidence: (id: string) => readonly string[] = () => []): string | undefined {
  const active = plan.project.active_milestone;
  const now = roadmap.now;
  if ((now ?? "") === active) return undefined;
  const byId = (id: string) => plan.milestones.find((m) => m.id === id);
  if (now === undefined) {
    const first = roadmap.next ? byId(roadmap.next) : undefined;
    if (!first) return active ? `the roadmap has no open milestone first in line; ${active} is active` : undefined;
    return `the roadmap has no now: ${first.id}, first in line, waits on ${first.blocked_by.join(", ")}${active ? `; ${active} is the active milestone meanwhile` : ""}`;
  }
  const m = byId(now);
  if (!m) return undefined;
  const meanwhile = active ? `, so ${active} is the active milestone` : ", and no milestone is active";
  if (m.status === "VERIFY") {
    const missing = missingEvidence(now);
    return `${now} is now, but waits on its milestone evidence${missing.length ? `: ${missing.join(", ")}` : ""}${meanwhile}`;
  }
  if (m.status === "SUPERSEDED") return `${now} is now, but it is superseded${meanwhile}`;
  if (m.status === "BLOCKED") return `${now} is now, but none of its issues is READY${meanwhile}`;
  if (m.status === "PLANNED") return `${now} is now, but none of its work has started${meanwhile} (the active one is the first with work under way)`;
  return `${now} is now in roadmap order${meanwhile} (the first milestone with work under way)`;
}
