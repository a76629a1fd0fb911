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
  undone: z
    .array(
      z.object({
        command: z.string().describe("the command as its commit names it: BK-020: start"),
        record: z.string().describe("the record file the remote changed first"),
        remote_commit: z.string(),
        author: z.string().describe("the remote commit's author, 'Name <email>'"),
        at: z.string().describe("when it was undone here (ISO)"),
      }),
    )
    .describe("commands of this server the remote decided against (it changed their record first, or a force-push removed them), undone here (record, ledger, commit); the newest first, at most 5"),
  removed_by_remote: z
    .object({
      count: z.number().int().min(0).describe("commits the remote's branch lost when it was last moved back (a force-push)"),
      commits: z.array(z.string()).describe("their short ids, the newest first (at most 20)"),
      at: z.string().describe("when this server saw it (ISO)"),
    })
    .nullable()
    .describe("the last force-push this server saw: it moved to the remote's tip and pushes none of these commits again; null when it saw none"),
});

export type SyncStatus = z.infer<typeof SyncStatusSchema>;

/**
 * What a following server (cockpit serve --follow) adds to a command's answer when the command
 * wrote records: whether its commit is on the remote, and if not, why and when it will be.
 */
export const PublishedFields = {
  pushed: z
    .boolean()
    .optional()
    .describe("Only from a following server (cockpit serve --follow), when the command wrote records: true once its commit is on the remote; false when the remote could not be reached (written here, pushed at the next sync, and undone then if the remote changed the same record first)."),
  sync_message: z.string().optional().describe("With pushed: false, why it is not on the remote yet and what happens next."),
};
