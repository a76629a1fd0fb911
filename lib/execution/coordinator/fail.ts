// Report a child's failure: retried or ended by the root's failure policy.
import { invalidInput } from "../../plan/errors";
import { loadPlan } from "../../repo";
import { checkErrorCategory } from "../failure";
import { withStore, type PlanRow } from "../store";
import { failResult, refuseReport, reportProblem, requireChild } from "./report";
import { failInTx, finishIfDone, settleQueued } from "./settle";
import { clock, iso } from "./shared";
import { tickInTx } from "./tick";
import type { CoordinatorOptions, FailResult } from "./views";

/**
 * A child reports failure (it may be queued or processing). The failure handler decides: retry ⇒
 * the child is errored and a new child (same parent, same issue, attempt + 1) is queued; stop
 * others ⇒ the queued siblings are cancelled and the processing ones marked cancelled.
 */
export async function fail(repo: string, childId: string, category: string, text: string, o: CoordinatorOptions = {}): Promise<FailResult> {
  const cat = checkErrorCategory(category);
  if (typeof text !== "string" || text.trim() === "") throw invalidInput("a failure says what went wrong (message)");
  const now = clock(o);
  const at = iso(now);
  return withStore(repo, o.config, async (store) => {
    const outcome = await store.write(async (tx): Promise<{ child: PlanRow; problem: string } | { result: FailResult }> => {
      await tickInTx(tx, repo, now);
      const child = await requireChild(tx, childId);
      const problem = reportProblem(child, `failure (${cat})`, true);
      if (problem) return { child, problem };
      const failed = await failInTx(tx, repo, child, cat, text, at);
      const root = (await tx.plan(child.root_plan_id))!;
      await settleQueued(tx, root, loadPlan(repo), at);
      await finishIfDone(tx, (await tx.plan(root.plan_id))!, at);
      return { result: await failResult(tx, childId, failed) };
    });
    if ("problem" in outcome) return refuseReport(store, outcome.child, outcome.problem, at);
    return outcome.result;
  });
}
