import { z } from "zod";
import { CapabilityError } from "../plan/errors";
import { SyncStatusSchema } from "../repo/sync-shapes";

export { SyncStatusSchema };
import { defineCapability } from "./capability";


export const planSyncStatusCapability = defineCapability({
  id: "plan.sync_status",
  kind: "query",
  title: "How the served clone follows its remote",
  description:
    "Whether this server follows its remote (cockpit serve --follow), when it last fetched, what is behind, ahead and waiting to be pushed, and what holds it. Without --follow, state is off and the counts are against the remote branch as last fetched.",
  input: z.object({}).strict(),
  output: SyncStatusSchema,
  handler: (ctx) => {
    // The state is the serving process's (lib/server/follow.ts): the surface lends it.
    if (!ctx.sync) throw new CapabilityError("internal", "this surface does not know how its clone follows the remote");
    return ctx.sync();
  },
});
