import { actorOf, heartbeat } from "../coordination/plan-leases";
import { requireIssue } from "../coordination/leases";
import { toSecond } from "../coordination/sessions";
import { configOf, defineCapability } from "./capability";
import { HeartbeatInput } from "./inputs";
import { HeartbeatResultSchema } from "../results/outputs";

export const planHeartbeatCapability = defineCapability({
  id: "plan.heartbeat",
  kind: "command",
  records: false,
  settles: false,
  title: "Say the session on an issue is alive",
  description:
    "Renew the actor's session on an issue (its lease lives another lease_ttl_s) and keep the note as its latest word. Refused when another actor's session holds the issue or the actor holds none.",
  input: HeartbeatInput,
  output: HeartbeatResultSchema,
  handler: async (ctx, input) => {
    // The store says whether the actor's session holds the issue; the plan is read only to name an
    // issue that does not exist, when the store refuses.
    const row = await heartbeat(ctx.repo, ctx.plan, input.issue, actorOf(ctx.by, ctx.kind, false, input.session), input.note, configOf(ctx)).catch((error: unknown) => {
      requireIssue(ctx.plan(), input.issue);
      throw error;
    });
    return { issue: row.issue, session: row.session, epoch: row.epoch, last_seen: toSecond(row.last_seen), expires: toSecond(row.expires), note: row.note };
  },
});
