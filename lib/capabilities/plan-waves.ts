import { planWaves } from "../plan/queries";
import { PlanWaveReportSchema } from "../plan/shapes";
import { answerAt, planFor, withAtMember } from "./at";
import { defineCapability } from "./capability";
import { MilestoneFilterInput } from "./inputs";

export const planWavesCapability = defineCapability({
  id: "plan.waves",
  kind: "query",
  title: "What may run at the same time",
  description:
    "The dependency waves with their issues, and the scope overlaps that serialise issues of one wave. The milestone filter narrows the waves, not the overlaps.",
  input: MilestoneFilterInput,
  output: withAtMember(PlanWaveReportSchema),
  handler: async (ctx, input) => {
    const { plan, at } = await planFor(ctx, input.at);
    return answerAt(planWaves(plan, input), at);
  },
});
