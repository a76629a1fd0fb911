import { actorOf, afterIssueWrite, leaseWriteOptions, undoOpened, type OpenedBy } from "../coordination/plan-leases";
import type { Actor } from "../coordination/sessions";
import { invalidInput, refused } from "../plan/errors";
import { transition } from "../repo/transition";
import { configOf, defineCapability } from "./capability";
import { TransitionInput } from "./inputs";
import { TransitionResultSchema } from "../repo/move-shapes";

/** A forced move: a person's, with its reason, and never a start (a start takes a free issue only). */
function forceProblem(input: { transition: string; force?: boolean; reason?: string }, who: Actor): void {
  if (!input.force) throw invalidInput("reason goes with force: pass both, or neither");
  if (input.transition === "start") throw invalidInput("force is for verify and done; a start takes an issue nobody holds");
  if (input.reason === undefined || input.reason.trim() === "") throw invalidInput("force needs a reason (--reason TEXT): the ledger line keeps it");
  if (who.kind === "agent") throw refused(`${who.actor} is an agent, and an agent never forces a move on another's issue: ask a person, or wait for the lease to end (cockpit plan agents)`);
}

export const planTransitionCapability = defineCapability({
  id: "plan.transition",
  kind: "command",
  title: "Move one issue through its lifecycle",
  description:
    "start a READY issue (opening the actor's session on it), verify an ACTIVE one, or mark it done once its evidence is complete; the stamp is sealed and logged. A forbidden move, or one on an issue another actor's session holds (unless a person forces it, with a reason), is refused with what is in the way; from and to are derived.",
  input: TransitionInput,
  output: TransitionResultSchema,
  handler: async (ctx, input) => {
    if (input.session !== undefined && input.transition === "start") throw invalidInput("start opens a session and answers its id; session is for the writes after it (verify, done, evidence, heartbeat, release)");
    const who = actorOf(ctx.by, ctx.kind, false, input.session);
    if (input.force || input.reason !== undefined) forceProblem(input, who);
    const force = input.force === true;
    const out: OpenedBy = {};
    const result = await transition(ctx.repo, input.issue, input.transition, {
      by: ctx.by,
      cache: ctx.cache,
      ...ctx.moves,
      ...leaseWriteOptions(ctx.repo, ctx.plan, configOf(ctx), who, out, { force }),
      ...(force ? { forced: input.reason } : {}),
    }).catch(async (error: unknown) => {
      await undoOpened(ctx.repo, ctx.plan, out, configOf(ctx));
      throw error;
    });
    if (input.transition !== "start") await afterIssueWrite(ctx.repo, ctx.plan, input.issue, input.transition, who, configOf(ctx));
    return result;
  },
});
