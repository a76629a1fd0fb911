import { leaseTtlSeconds, staleAfterSeconds } from "../config";
import { agentSessions } from "../coordination/plan-leases";
import { configOf, defineCapability } from "./capability";
import { AgentsInput } from "./inputs";
import { AgentsResultSchema } from "../results/outputs";

export const planAgentsCapability = defineCapability({
  id: "plan.agents",
  kind: "query",
  title: "Who holds what: every session and its state",
  description:
    "Each session (an actor's hold on an issue) with its state and the reason: active, stale (no heartbeat for stale_after_s), expired (lease over: open to reclaim), released, finished, reclaimed. Ended sessions stay listed for a day.",
  input: AgentsInput,
  output: AgentsResultSchema,
  handler: async (ctx) => ({
    sessions: await agentSessions(ctx.repo, ctx.plan, configOf(ctx)),
    stale_after_s: staleAfterSeconds(configOf(ctx)),
    lease_ttl_s: leaseTtlSeconds(configOf(ctx)),
  }),
});
