// Compiled by the type check (tsc -p tsconfig.test.json) and by tests/types/call-types.test.ts:
// each line marked @ts-expect-error must not compile. They break if a typed path (a plans page's
// call, a verb's text, a browser action's answer, a result inferred from its schema) stops
// carrying its capability's output type.
import type { runCapability } from "@/app/actions";
import type { plansGetCapability } from "@/lib/capabilities/plans-get";
import type { planRoadmapCapability } from "@/lib/capabilities/plan-roadmap";
import type { OutputOf } from "@/lib/capabilities/index";
import type { PlanSummary } from "@/lib/execution/coordinator";
import type { TransitionResult } from "@/lib/repo/transition";
import type { call } from "@/lib/surfaces/pages";
import type { capabilityVerb } from "@/lib/surfaces/cli/verb";

declare const callOf: typeof call;
declare const runOf: typeof runCapability;
declare const verbOf: typeof capabilityVerb;
declare const getCapability: typeof plansGetCapability;
declare const roadmapCapability: typeof planRoadmapCapability;

export async function typedPaths(): Promise<string[]> {
  const detail = await callOf(getCapability, { id: "P1" });
  const phase: string = detail.phase;
  // @ts-expect-error: a plan's detail is not a summary of the list
  const summary: PlanSummary = detail;
  verbOf(roadmapCapability, {
    summary: "",
    options: {},
    input: () => ({}),
    // @ts-expect-error: a verb's text gets the roadmap, whose milestones are no number
    text: (roadmap): string => roadmap.milestones satisfies number,
  });
  const moved = await runOf("plan.transition", {});
  if (moved.ok) {
    const to: string = moved.value.to;
    // @ts-expect-error: a move's `to` is a status name, not a number
    const wrong: number = moved.value.to;
    // @ts-expect-error: a move's answer has no commit
    void moved.value.commit;
    void to;
    void wrong;
  }
  // @ts-expect-error: a move is start, verify or done
  const move: TransitionResult["transition"] = "finish";
  // @ts-expect-error: the list's children are counted by state, in numbers
  const queued: string = ({} as OutputOf<"plans.list">).plans[0].children_by_state.queued;
  // @ts-expect-error: no capability is named plan.nope
  type Nope = OutputOf<"plan.nope">;
  void summary;
  void move;
  void queued;
  return [phase];
}
