import { commitRecords } from "../repo/commit";
import { configOf, defineCapability } from "./capability";
import { CommitInput, CommitResultSchema } from "./edit-shapes";

export const planCommitCapability = defineCapability({
  id: "plan.commit",
  kind: "command",
  publish: false,
  title: "Commit the changed records",
  description:
    "Commits the records' folder only, with a message listing the moves and edits behind each change, then pushes when a remote is configured (a push that is behind says so). dry_run lists the uncommitted changes.",
  input: CommitInput,
  output: CommitResultSchema,
  handler: (ctx, input) => commitRecords(ctx.repo, input, { author: configOf(ctx).author, by: ctx.by, actor: ctx.by }),
});
