// Compiled by the type check (tsc -p tsconfig.test.json) and by tests/types/call-types.test.ts:
// each line marked @ts-expect-error must not compile. They break if a capability's answer stops
// carrying its output schema's type (an `any` would let every one of them through).
import type { planRoadmapCapability } from "@/lib/capabilities/plan-roadmap";
import type { planStatusCapability } from "@/lib/capabilities/plan-status";
import type { Plan } from "@/lib/plan/shapes";
import type { call } from "@/lib/surfaces/pages";

declare const callOf: typeof call;
declare const roadmapCapability: typeof planRoadmapCapability;
declare const statusCapability: typeof planStatusCapability;

export async function typedAnswers(): Promise<string[]> {
  const roadmap = await callOf(roadmapCapability);
  const ids: string[] = roadmap.milestones.map((m) => m.id);
  // @ts-expect-error: a roadmap is not the whole plan
  const plan: Plan = roadmap;
  // @ts-expect-error: a roadmap has no issues member
  void roadmap.issues;
  // @ts-expect-error: a milestone's id is a string, not a number
  const id: number = roadmap.milestones[0].id;
  // @ts-expect-error: the status report's input has no `wave`
  await callOf(statusCapability, { wave: 1 });
  void plan;
  void id;
  return ids;
}
