import { codeFindingsOf, workedWithoutStart } from "../code/answer";
import { ownersOf } from "../people/facts";
import { isClientSessionName } from "../repo/identity";
import type { Plan } from "../plan/shapes";
import { actorOf, heartbeat, issueHandoff, leaseWriteOptions, undoOpened, type ClaimPolicy, type OpenedBy } from "../coordination/plan-leases";
import { claim } from "../repo/transition";
import { invalidInput, refused } from "../plan/errors";
import { hasPlanFolder, noPlanAt } from "../repo/repo-folder";
import { configOf, defineCapability } from "./capability";
import { ClaimInput } from "./inputs";
import { ClaimResultSchema } from "../results/outputs";

/**
 * Who a claim leaves alone (docs/agents.md): an issue owned by another agent (an owner who is a
 * person is accountable, and agents work for them: that does not skip), and one whose commits say
 * someone already works on it without a start. The claimer's own issues come first.
 */
async function claimPolicy(repo: string, plan: Plan, claimer: string, usersFileAgents: ReadonlySet<string>): Promise<ClaimPolicy> {
  const owners = ownersOf(repo, plan);
  const worked = await workedWithoutStart(repo, plan);
  return (issue, storeAgents) => {
    const owner = owners.get(issue.id) ?? "";
    if (owner === claimer) return { own: true };
    if (owner !== "" && (storeAgents.has(owner) || usersFileAgents.has(owner) || isClientSessionName(owner))) return { skip: `owned by the agent ${owner}` };
    if (worked.has(issue.id)) return { skip: "commits already work on it without a start (work_without_start)" };
    return {};
  };
}

export const planClaimCapability = defineCapability({
  id: "plan.claim",
  kind: "command",
  // Losing the issue to the remote is no answer: the next ready one is claimed, up to 3 issues.
  publish: { retry: 3 },
  title: "Take the next ready issue",
  description:
    "Start the next ready issue in one locked step, as a session of the actor (its id and epoch in the answer), so two agents never get the same one; an abandoned ACTIVE issue (its lease expired) is taken over first, unless no_reclaim. With a milestone, only its issues.",
  input: ClaimInput,
  output: ClaimResultSchema,
  handler: async (ctx, input) => {
    if (!hasPlanFolder(ctx.repo)) throw refused(noPlanAt(ctx.repo));
    // The code findings are of the issue as it stood before the claim: "never started, yet worked on".
    const before = ctx.plan();
    const out: OpenedBy = {};
    // Taking the next issue is what an agent does; naming one (a person's take-over from /agents) keeps the surface's word.
    const who = actorOf(ctx.by, ctx.kind, input.issue === undefined);
    if (input.issue !== undefined && input.milestone !== undefined) throw invalidInput("give issue or milestone, not both: a named issue is claimed wherever it is");
    // A named issue is the claimer's choice: nothing is skipped for it.
    const policy = input.any || input.issue !== undefined ? undefined : await claimPolicy(ctx.repo, before, who.actor, ctx.knownAgents?.() ?? new Set());
    const sessions = leaseWriteOptions(ctx.repo, ctx.plan, configOf(ctx), who, out, { policy });
    const result = await claim(ctx.repo, input.milestone, {
      by: ctx.by,
      cache: ctx.cache,
      ...ctx.moves,
      ...sessions,
      ...(input.no_reclaim ? { reclaim: undefined } : {}),
      reclaimed: () => {
        const r = out.previous;
        return r && out.opened ? { previous: r.actor, previous_session: r.session, epoch: out.opened.session.epoch, ...(input.reason ? { reason: input.reason } : {}) } : undefined;
      },
    }, input.issue).catch(async (error: unknown) => {
      await undoOpened(ctx.repo, ctx.plan, out, configOf(ctx));
      throw error;
    });
    const { opened, previous } = out;
    // The record is written and the session open: the claim is made. What follows only adds to
    // the answer, so a store lost meanwhile (a database that went away) is reported, not thrown.
    const afterClaim = <T,>(what: string, work: () => Promise<T>): Promise<T | undefined> =>
      work().catch((error: unknown) => {
        console.error(`[cockpit] ${result.issue} is claimed, but ${what} failed (${error instanceof Error ? error.message : String(error)})`);
        return undefined;
      });
    // A take-over's reason is the new session's first word.
    if (input.reason && opened) await afterClaim("keeping the reason as the session's note", () => heartbeat(ctx.repo, ctx.plan, result.issue, who, input.reason!, configOf(ctx)));
    const handoff = await afterClaim("reading the last holder's handoff", () => issueHandoff(ctx.repo, ctx.plan, result.issue, configOf(ctx)));
    return {
      ...result,
      code_findings: await codeFindingsOf(ctx.repo, before, result.issue),
      ...(opened ? { session: opened.session.session, epoch: opened.session.epoch } : {}),
      ...(previous ? { reclaimed_from: { actor: previous.actor, session: previous.session, epoch: previous.epoch } } : {}),
      ...(handoff ? { handoff } : {}),
      ...(out.skipped?.length ? { skipped: out.skipped } : {}),
    };
  },
});
