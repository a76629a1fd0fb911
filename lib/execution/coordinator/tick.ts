// Time passing: children past their time limit fail, and roots settle.
import { loadPlan } from "../../repo";
import { withStore, type PlanRow, type PlanTx } from "../store";
import { failInTx, finishIfDone, settleQueued } from "./settle";
import { clock, iso, rootConfig } from "./shared";
import type { CoordinatorOptions } from "./views";

/** Children processing longer than their root's timeout fail with `timeout`. */
export async function tickInTx(tx: PlanTx, repo: string, now: number): Promise<string[]> {
  const at = iso(now);
  const failed: string[] = [];
  const roots = new Map<string, PlanRow>();
  for (const c of await tx.inState("processing")) {
    if (c.parent_plan_id === null || c.processing_started_at === null) continue;
    const root = roots.get(c.root_plan_id) ?? (await tx.plan(c.root_plan_id))!;
    roots.set(root.plan_id, root);
    const timeout = rootConfig(root).timeout;
    if (timeout === null) continue;
    const ranMs = now - Date.parse(c.processing_started_at);
    if (ranMs <= timeout * 1000) continue;
    const current = (await tx.plan(c.plan_id))!;
    if (current.processing_state !== "processing") continue;
    await failInTx(tx, repo, current, "timeout", `processing for ${Math.round(ranMs / 1000)} s, longer than the timeout of ${timeout} s`, at);
    failed.push(c.plan_id);
  }
  const failedRoots = new Set<string>();
  for (const id of failed) failedRoots.add((await tx.plan(id))!.root_plan_id);
  for (const rootId of failedRoots) {
    const root = (await tx.plan(rootId))!;
    await settleQueued(tx, root, loadPlan(repo), at);
    await finishIfDone(tx, (await tx.plan(rootId))!, at);
  }
  return failed;
}

// ---- checks on reports -------------------------------------------------------------------------

/** Fail (with `timeout`) every child processing longer than its root's timeout; returns their ids. */
export async function tick(repo: string, o: CoordinatorOptions = {}): Promise<string[]> {
  const now = clock(o);
  return withStore(repo, o.config, (store) => store.write((tx) => tickInTx(tx, repo, now)));
}
