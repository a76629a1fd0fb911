// Read a plan with its children and events, or list the plans.
import { notFound } from "../../plan/errors";
import { toCliDict } from "../cli-dict";
import { type ProcessingState } from "../model";
import { withExistingStore } from "../store";
import { clock } from "./shared";
import { tickInTx } from "./tick";
import { type CoordinatorOptions, type PlanDetail, type PlanSummary, detail } from "./views";

/** A plan as the CLI dict, with its tree of children (retries included) and its timeline. */
export async function getPlan(repo: string, id: string, o: CoordinatorOptions = {}): Promise<PlanDetail> {
  const now = clock(o);
  const missing = () => notFound(`no execution plan '${id}'`);
  return withExistingStore(
    repo,
    o.config,
    (store) =>
      store.preview(async (tx) => {
        await tickInTx(tx, repo, now);
        if (!(await tx.plan(id))) throw missing();
        return detail(tx, id);
      }),
    () => {
      throw missing();
    },
  );
}

/** Every root plan, newest first, with how many children are in each state. */
export async function listPlans(repo: string, o: CoordinatorOptions = {}): Promise<PlanSummary[]> {
  const now = clock(o);
  // No store yet: no plan was ever created here, and a read does not create one.
  return withExistingStore(
    repo,
    o.config,
    (store) =>
      store.preview(async (tx) => {
        await tickInTx(tx, repo, now);
        const summaries: PlanSummary[] = [];
        for (const r of await tx.roots()) {
          const counts: Record<ProcessingState, number> = { queued: 0, processing: 0, completed: 0, errored: 0, cancelled: 0 };
          for (const c of await tx.descendants(r.plan_id)) counts[c.processing_state]++;
          summaries.push({
            ...toCliDict(await tx.model(r.plan_id)),
            title: r.title,
            integration_branch: r.integration_branch,
            created_at: r.created_at,
            children_by_state: counts,
          });
        }
        return summaries;
      }),
    () => [],
  );
}
