import { ExecutionClaimResultSchema } from "../execution/shapes";
import { claimNext } from "../execution/coordinator";
import { configOf, defineCapability } from "./capability";
import { RootInput, open } from "./plans-inputs";

export const plansClaimCapability = defineCapability({
  id: "plans.claim",
  kind: "command",
  title: "Take the next child of an execution plan",
  description:
    "Move the next claimable child to processing: its issue's dependencies are DONE, the concurrency limit allows it, and no processing sibling shares its scope. claimed is null, with the reason, when none can run.",
  input: RootInput,
  output: ExecutionClaimResultSchema,
  handler: async (ctx, input) => open(await claimNext(ctx.repo, input.root, { config: configOf(ctx) })),
});
