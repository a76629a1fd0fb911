import { forecastMilestone } from "../history/forecast";
import { ForecastSchema } from "../plan/history-shapes";
import { defineCapability } from "./capability";
import { ForecastInput } from "./inputs";

export const planForecastCapability = defineCapability({
  id: "plan.forecast",
  kind: "query",
  title: "When a milestone will land",
  description:
    "50/85/95 % completion dates for the milestone's remaining issues from 10,000 seeded Monte Carlo trials over the plan's daily DONE counts of the last 30 days, none faster than one sampled cycle time per remaining wave. Fewer than 5 completions answers not_enough_history; nothing left answers done.",
  input: ForecastInput,
  output: ForecastSchema,
  handler: (ctx, input) => forecastMilestone(ctx.plan(), input.milestone, { seed: input.seed, today: new Date().toISOString().slice(0, 10) }),
});
