import { z } from "zod";
import { CapabilityError } from "../plan/errors";
import { uncommittedCount } from "../repo/commit";
import { type SyncStatus, SyncStatusSchema } from "../repo/sync-shapes";
import { defineCapability } from "./capability";

export { SyncStatusSchema };

/** plan.sync_status's answer: how the clone follows its remote, and what it has not committed. */
export const PlanSyncStatusSchema = SyncStatusSchema.extend({
  uncommitted: z.number().int().min(0).describe("record files changed in this clone and not committed yet (cockpit plan commit commits them)"),
});

/** The sync state with the clone's uncommitted record files counted: plan.sync_status's answer, and POST /api/v1/sync's. */
export async function withUncommitted(repo: string, state: SyncStatus | Promise<SyncStatus>): Promise<z.infer<typeof PlanSyncStatusSchema>> {
  const [status, uncommitted] = await Promise.all([state, uncommittedCount(repo)]);
  return { ...status, uncommitted };
}

export const planSyncStatusCapability = defineCapability({
  id: "plan.sync_status",
  kind: "query",
  title: "How the served clone follows its remote",
  description:
    "Whether this server follows its remote (cockpit serve --follow), when it last fetched, what is behind, ahead and waiting to be pushed, and what holds it. Without --follow, state is off and the counts are against the remote branch as last fetched; uncommitted counts the record files not committed yet.",
  input: z.object({}).strict(),
  output: PlanSyncStatusSchema,
  handler: async (ctx) => {
    // The state is the serving process's (lib/server/follow.ts): the surface lends it.
    if (!ctx.sync) throw new CapabilityError("internal", "this surface does not know how its clone follows the remote");
    return withUncommitted(ctx.repo, ctx.sync());
  },
});
