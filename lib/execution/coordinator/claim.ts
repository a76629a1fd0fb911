// Claim the next child of a root that may run now: its dependencies DONE, its scope free.
import { invalidInput, notFound } from "../../plan/errors";
import { loadPlan } from "../../repo";
import { isTerminalState } from "../model";
import { withStore, type PlanRow } from "../store";
import { finishIfDone, settleQueued } from "./settle";
import { childName, clock, effectiveDeps, event, iso, issueOf, rootConfig, runOrder, sharedScope, waitingOn } from "./shared";
import { tickInTx } from "./tick";
import { type ClaimResult, type CoordinatorOptions, view } from "./views";

/**
 * Move the next claimable child to processing, or say why none is. A child is claimable when every
 * effective dependency of its issue is DONE in the plan derived now (and its milestone's gate is
 * open), the concurrency limit allows it (sequential: none processing, and only the first queued
 * child in wave-then-issue order; parallel: fewer than max_parallel processing), and no processing
 * sibling's issue shares scope with its issue.
 */
export async function claimNext(repo: string, rootId: string, o: CoordinatorOptions = {}): Promise<ClaimResult> {
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, o.config, (store) =>
    store.write(async (tx) => {
      await tickInTx(tx, repo, now);
      const root = await tx.plan(rootId);
      if (!root) throw notFound(`no execution plan '${rootId}'`);
      if (root.parent_plan_id !== null) throw invalidInput(`${rootId} is a child plan; claim from its root ${root.root_plan_id}`);
      const plan = loadPlan(repo);
      await settleQueued(tx, root, plan, at);
      await finishIfDone(tx, (await tx.plan(rootId))!, at);
      const current = (await tx.plan(rootId))!;
      if (isTerminalState(current.processing_state)) {
        return { claimed: null, reason: `execution plan ${rootId} has ended ${current.processing_state}` };
      }
      const config = rootConfig(current);
      const children = await tx.children(rootId);
      const processing = children.filter((c) => c.processing_state === "processing");
      const queued = children.filter((c) => c.processing_state === "queued").sort(runOrder);
      const none = async (reason: string): Promise<ClaimResult> => {
        const last = await tx.lastEvent(rootId);
        if (!(last?.kind === "claim_waiting" && last.reason === reason)) await event(tx, current, at, "claim_waiting", reason);
        return { claimed: null, reason };
      };
      if (queued.length === 0) return none(`no child is queued (${processing.length} processing)`);

      let candidates: PlanRow[];
      if (config.execution_mode === "sequential") {
        if (processing.length > 0) {
          return none(`sequential: ${childName(processing[0])} is processing, and one child runs at a time`);
        }
        candidates = [queued[0]];
      } else {
        if (processing.length >= config.max_parallel) {
          return none(`parallel: ${processing.length} children are processing, the max_parallel of ${config.max_parallel}`);
        }
        candidates = queued;
      }
      const busy = processing.map((p) => ({ row: p, issue: issueOf(plan, p.issue_id) }));
      const reasons: string[] = [];
      for (const c of candidates) {
        const issue = issueOf(plan, c.issue_id);
        if (!issue) {
          reasons.push(`${c.issue_id} is not in the plan`);
          continue;
        }
        const waiting = waitingOn(plan, issue);
        if (waiting) {
          reasons.push(waiting);
          continue;
        }
        const clash = busy.map((b) => ({ b, paths: b.issue ? sharedScope(issue, b.issue) : undefined })).find((x) => x.paths);
        if (clash) {
          reasons.push(`${issue.id} shares ${clash.paths![0]} with ${clash.b.row.issue_id}, which is processing`);
          continue;
        }
        await tx.updatePlan(c.plan_id, { processing_state: "processing", processing_started_at: at }, at);
        const deps = effectiveDeps(plan, issue).map((d) => d.id);
        const reason =
          `claimed ${childName(c)} in wave ${c.wave}: ` +
          (deps.length ? `its dependencies ${deps.join(", ")} are DONE` : "its issue has no dependencies") +
          `; ${processing.length + 1} processing` +
          (config.execution_mode === "parallel" ? ` of max_parallel ${config.max_parallel}` : " (sequential, next in wave-then-issue order)") +
          (processing.length ? "; no processing sibling shares its scope" : "") +
          (reasons.length ? `; passed over: ${reasons.join("; ")}` : "");
        await event(tx, (await tx.plan(c.plan_id))!, at, "claimed", reason, { issue: issue.id, wave: c.wave, dependencies: deps, passed_over: reasons });
        return { claimed: await view(tx, (await tx.plan(c.plan_id))!), reason };
      }
      const prefix = config.execution_mode === "sequential" ? "sequential: the next child cannot start" : "no queued child can start";
      return none(`${prefix}: ${reasons.join("; ")}`);
    }),
  );
}
