// How a clone follows its remote: the answer of plan.sync_status (lib/server/follow.ts keeps the state).
import { z } from "zod";

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

export type SyncStatus = z.infer<typeof SyncStatusSchema>;
