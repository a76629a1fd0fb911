import { planBurnup } from "../history/burnup";
import { PlanBurnupSchema } from "../plan/history-shapes";
import { defineCapability } from "./capability";
import { BurnupInput } from "./inputs";

export const planBurnupCapability = defineCapability({
  id: "plan.burnup",
  kind: "query",
  title: "Burn-up of one milestone, day by day",
  description:
    "One point per UTC day with the milestone's scope (issues not CANCELLED), started (ACTIVE, VERIFY or DONE) and done, measured at the day's last first-parent commit (the files now, for today). Scope is as each day's records had it.",
  input: BurnupInput,
  output: PlanBurnupSchema,
  handler: (ctx, input) => planBurnup(ctx.repo, input, ctx.cache ? ctx.plan : undefined),
});
