// Complete a child: record its evidence and move its issue to DONE.
import { CapabilityError, invalidInput } from "../../plan/errors";
import { loadPlan } from "../../repo";
import { recordEvidence, transition, type TransitionResult } from "../../repo/transition";
import { withStore } from "../store";
import { beginReport, endReport, failFromReport, releaseReportLock } from "./report";
import { finishIfDone, settleQueued } from "./settle";
import { childName, clock, event, iso, issueOf } from "./shared";
import { type CompleteResult, type CoordinatorOptions, type EvidenceEntry, view } from "./views";

/**
 * Complete a child in `apply`: record each evidence entry on its issue, then move the issue to DONE;
 * the child completes. A refused done fails the child with `validation`. Evidence that is refused
 * (a token the issue does not require, a malformed entry) refuses the call and leaves the child as it was.
 */
export async function complete(repo: string, childId: string, evidence: readonly EvidenceEntry[], o: CoordinatorOptions = {}): Promise<CompleteResult> {
  if (!Array.isArray(evidence)) throw invalidInput("evidence is a list of { covers, type, command | artifact, result? }");
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, o.config, async (store) => {
    const { child, lock } = await beginReport(store, repo, childId, "completion", now, async (c) =>
      c.phase === "apply" ? undefined : `${childName(c)} is in ${c.phase}; it completes from apply (advance it first)`,
    );
    const issueId = child.issue_id!;
    try {
      const covered: string[] = [];
      for (const e of evidence) {
        try {
          await recordEvidence(repo, { ...e, record: issueId });
        } catch (error) {
          if (!(error instanceof CapabilityError)) throw error;
          const problem = `${childName(child)}: evidence ${JSON.stringify(e?.covers)} was refused (${error.message}); the child stays in apply${covered.length ? ` (recorded before it: ${covered.join(", ")})` : ""}`;
          await store.write((tx) => event(tx, child, at, "report_refused", problem, { code: error.code }));
          throw error;
        }
        covered.push(e.covers);
      }
      let done: TransitionResult | undefined;
      let note: string;
      try {
        done = await transition(repo, issueId, "done");
        note = `issue ${issueId} is DONE (${done.from} → ${done.to})`;
      } catch (error) {
        if (!(error instanceof CapabilityError)) throw error;
        // Already DONE (an earlier attempt, or someone outside the plan, finished it): nothing to move.
        if (issueOf(loadPlan(repo), issueId)?.status === "DONE") {
          note = `issue ${issueId} is already DONE`;
        } else {
          const failure = await failFromReport(store, repo, childId, lock, "validation", `the done of issue ${issueId} was refused: ${error.message}`, at);
          return { child: failure.child, completed: false, evidence: covered, failure };
        }
      }
      return await endReport(store, childId, lock, at, note, async (c, tx) => {
        await tx.updatePlan(c.plan_id, { processing_state: "completed", finished_at: at, report_lock: null }, at);
        await event(
          tx,
          c,
          at,
          "completed",
          `${childName(c)} completed: ${covered.length ? `evidence recorded for ${covered.join(", ")}; ` : ""}${note}`,
          { evidence: covered, issue_transition: done ?? null },
        );
        const root = (await tx.plan(c.root_plan_id))!;
        await settleQueued(tx, root, loadPlan(repo), at);
        await finishIfDone(tx, (await tx.plan(root.plan_id))!, at);
        return { child: await view(tx, (await tx.plan(childId))!), completed: true, evidence: covered, ...(done ? { issue_transition: done } : {}) };
      });
    } finally {
      await releaseReportLock(store, childId, lock, at);
    }
  });
}
