// Move a child to its next phase (execute → apply), starting or verifying its issue.
import { CapabilityError } from "../../plan/errors";
import { loadPlan } from "../../repo";
import { transition, type TransitionResult } from "../../repo/transition";
import { mergeInto, type MergeOutcome } from "../git";
import { movePhase, phaseMoveProblem, type Phase } from "../model";
import { withStore } from "../store";
import { beginReport, endReport, failFromReport, refuseReport, releaseReportLock } from "./report";
import { childName, clock, event, iso, issueOf } from "./shared";
import { type AdvanceOptions, type AdvanceResult, view } from "./views";

/**
 * One phase move of a processing child. Entering `execute` starts its issue (a refused start fails
 * the child with `validation`). Entering `apply` merges the child's branch, when it names one, into
 * the root's integration branch (a conflict fails the child with `conflict`), then verifies its issue.
 */
export async function advance(repo: string, childId: string, to: Phase, o: AdvanceOptions = {}): Promise<AdvanceResult> {
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, o.config, async (store) => {
    const { child, lock } = await beginReport(store, repo, childId, `move to ${to}`, now, async (c, tx) => {
      const problem = phaseMoveProblem(c.phase, to);
      if (problem) return `${childName(c)}: ${problem}`;
      if (to === "apply" && o.branch !== undefined) {
        const root = (await tx.plan(c.root_plan_id))!;
        if (!root.integration_branch) {
          return `${childName(c)} names branch ${o.branch}, but execution plan ${root.plan_id} has no integration branch (the repository had no commit when it was made)`;
        }
      }
      return undefined;
    });
    const from = child.phase;
    const issueId = child.issue_id!;
    try {
      if (to === "execute") {
        const earlier = await store.read(async (tx) => (await tx.children(child.parent_plan_id!)).some((s) => s.issue_id === issueId && s.attempt < child.attempt));
        const issue = earlier ? issueOf(loadPlan(repo), issueId) : undefined;
        let started: TransitionResult | undefined;
        let note: string;
        if (issue && (issue.status === "ACTIVE" || issue.status === "VERIFY")) {
          note = `issue ${issueId} is already ${issue.status} from an earlier attempt; it is not started again`;
        } else {
          try {
            started = await transition(repo, issueId, "start");
          } catch (error) {
            if (!(error instanceof CapabilityError)) throw error;
            const failure = await failFromReport(store, repo, childId, lock, "validation", `the start of issue ${issueId} was refused: ${error.message}`, at);
            return { child: failure.child, from, to, moved: false, failure };
          }
          note = `issue ${issueId} started (${started.from} → ${started.to})`;
        }
        return await endReport(store, childId, lock, at, note, async (c, tx) => {
          await tx.updatePlan(c.plan_id, { phase: movePhase(c, "execute").phase, report_lock: null }, at);
          await event(tx, c, at, "phase_moved", `${childName(c)} ${from} → execute: ${note}`, { from, to, issue_transition: started ?? null });
          return { child: await view(tx, (await tx.plan(childId))!), from, to, moved: true, ...(started ? { issue_transition: started } : {}) };
        });
      }

      if (to === "apply") {
        let merge: MergeOutcome | undefined;
        let mergeNote = "it names no branch, so it applies as is";
        if (o.branch !== undefined) {
          const root = await store.read(async (tx) => (await tx.plan(child.root_plan_id))!);
          const integration = root.integration_branch!;
          merge = await mergeInto(repo, integration, o.branch, `cockpit: merge ${o.branch} into ${integration} (issue ${issueId}, child ${childId})`);
          if (merge.kind === "error") {
            const problem = `${childName(child)}: cannot merge ${o.branch}: ${merge.detail}`;
            await releaseReportLock(store, childId, lock, at);
            await refuseReport(store, child, problem, at);
          }
          if (merge.kind === "conflict") {
            const text = `merging ${o.branch} into ${integration} conflicts in ${merge.files.join(", ") || "the tree"}${merge.detail ? ` (${merge.detail})` : ""}`;
            const failure = await failFromReport(store, repo, childId, lock, "conflict", text, at);
            return { child: failure.child, from, to, moved: false, merge, failure };
          }
          mergeNote =
            merge.kind === "merged"
              ? `${o.branch} merged into ${integration} as ${merge.commit} (git three-way merge)`
              : `${o.branch} is already contained in ${integration}`;
        }
        let verified: TransitionResult;
        try {
          verified = await transition(repo, issueId, "verify");
        } catch (error) {
          if (!(error instanceof CapabilityError)) throw error;
          const failure = await failFromReport(store, repo, childId, lock, "validation", `the verify of issue ${issueId} was refused: ${error.message}`, at);
          return { child: failure.child, from, to, moved: false, ...(merge ? { merge } : {}), failure };
        }
        const note = `${mergeNote}; issue ${issueId} verified (${verified.from} → ${verified.to})`;
        return await endReport(store, childId, lock, at, note, async (c, tx) => {
          await tx.updatePlan(c.plan_id, { phase: movePhase(c, "apply").phase, branch: o.branch ?? null, report_lock: null }, at);
          if (merge) await event(tx, c, at, "merged", mergeNote, { branch: o.branch, merge });
          await event(tx, c, at, "phase_moved", `${childName(c)} execute → apply: ${note}`, { from, to, issue_transition: verified });
          return { child: await view(tx, (await tx.plan(childId))!), from, to, moved: true, issue_transition: verified, ...(merge ? { merge } : {}) };
        });
      }

      // strategize (from action): no issue move.
      return await endReport(store, childId, lock, at, `the move to ${to}`, async (c, tx) => {
        await tx.updatePlan(c.plan_id, { phase: movePhase(c, to).phase, report_lock: null }, at);
        await event(tx, c, at, "phase_moved", `${childName(c)} ${from} → ${to}`, { from, to });
        return { child: await view(tx, (await tx.plan(childId))!), from, to, moved: true };
      });
    } finally {
      await releaseReportLock(store, childId, lock, at);
    }
  });
}
