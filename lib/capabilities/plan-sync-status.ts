import { z } from "zod";
import { syncStatus } from "../server/follow";
import { defineCapability } from "./capability";

export const SyncStatusSchema = z.object({
  following: z.boolean().describe("true on a server started with cockpit serve --follow"),
  remote: z.string().describe("the remote followed (or the one a push would go to), '' when there is none"),
  branch: z.string(),
  state: z.enum(["following", "held", "conflict", "offline", "off"]).describe("held: uncommitted changes hold the fast-forward; conflict: following is paused; offline: the remote cannot be reached"),
  last_fetch_at: z.string().nullable().describe("when the remote was last fetched (ISO), null before the first fetch"),
  last_fetch_ok: z.boolean().nullable(),
  behind: z.number().int().min(0).describe("commits the remote has that this clone lacks, as last fetched"),
  ahead: z.number().int().min(0),
  waiting: z.number().int().min(0).describe("commits of this server not yet pushed"),
  message: z.string().describe("what holds it, in words"),
});

export const planSyncStatusCapability = defineCapability({
  id: "plan.sync_status",
  kind: "query",
  title: "How the served clone follows its remote",
  description:
    "Whether this server follows its remote (cockpit serve --follow), when it last fetched, what is behind, ahead and waiting to be pushed, and what holds it. Without --follow, state is off and the counts are against the remote branch as last fetched.",
  input: z.object({}).strict(),
  output: SyncStatusSchema,
  handler: (ctx) => syncStatus(ctx.repo),
});
