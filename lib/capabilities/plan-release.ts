import { DATABASE_ENV } from "../config";
import { holderOf, projectKey, readHolder, releaseLease, requireIssue } from "../coordination/leases";
import { refused } from "../plan/errors";
import { configOf, defineCapability } from "./capability";
import { ReleaseInput } from "./inputs";
import { ReleaseResultSchema } from "../results/outputs";

export const planReleaseCapability = defineCapability({
  id: "plan.release",
  kind: "command",
  title: "End this clone's lease on an issue",
  description:
    "Give an issue back to every clone (a shared database holds the leases); force ends another holder's lease, for a lead clearing a crashed machine. The record itself is not changed.",
  input: ReleaseInput,
  output: ReleaseResultSchema,
  handler: async (ctx, input) => {
    const url = configOf(ctx).database;
    if (!url) throw refused(`leases live in a shared database, and none is configured (set ${DATABASE_ENV} or pass --database)`);
    const plan = ctx.plan();
    requireIssue(plan, input.issue);
    const holder = input.force ? readHolder(ctx.repo) : await holderOf(ctx.repo);
    const r = await releaseLease(url, projectKey(plan), input.issue, holder, input.force === true);
    return { issue: input.issue, released: r.released, ...(r.holder ? { holder: r.holder } : {}) };
  },
});
