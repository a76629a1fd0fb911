import { AdvanceResultSchema } from "../execution/shapes";
import { advance } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { PlansAdvanceInput, open } from "./plans-inputs";

export const plansAdvanceCapability = defineCapability({
  id: "plans.advance",
  kind: "command",
  title: "Move a child to its next phase",
  description:
    "execute starts the child's issue; apply merges its branch into the plan's integration branch with git's three-way merge and verifies the issue. A refused start or a conflict fails the child.",
  input: PlansAdvanceInput,
  output: AdvanceResultSchema,
  handler: async (ctx, input) => open(await advance(ctx.repo, input.child, input.to, { config: configOf(ctx), ...(input.branch !== undefined ? { branch: input.branch } : {}) })),
});
