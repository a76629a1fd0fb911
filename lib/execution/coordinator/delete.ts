// Delete an execution plan: the root, every child (retries included) and their timeline, and the
// integration branch it made, unless the branch is checked out or moved past what the plan made.
import { notFound, refused } from "../../plan/errors";
import { resolveCommit, runGit } from "../git";
import { withExistingStore } from "../store";
import type { CoordinatorOptions } from "./views";

export interface DeleteResult {
  deleted: string;
  /** The plans removed: the root and every plan under it. */
  plans: number;
  events: number;
  /** The integration branch, and whether it was deleted (why not, when kept). */
  branch: { name: string; deleted: boolean; kept_because?: string } | null;
}

/** Remove root plan `id` (refused for a child, and while a child is processing unless `force`). */
export async function deleteExecutionPlan(repo: string, id: string, o: CoordinatorOptions & { force?: boolean } = {}): Promise<DeleteResult> {
  const missing = () => notFound(`no execution plan '${id}'; cockpit plans list names them`);
  const gone = await withExistingStore(
    repo,
    o.config,
    (store) =>
      store.write(async (tx) => {
        const root = await tx.plan(id);
        if (!root) throw missing();
        if (root.parent_plan_id !== null) throw refused(`${id} is a child of ${root.root_plan_id}; delete its root, ${root.root_plan_id}, with every child`);
        const working = (await tx.descendants(id)).filter((c) => c.processing_state === "processing");
        if (working.length > 0 && !o.force) {
          throw refused(`${working.length} child(ren) of ${id} are being worked on (${working.map((c) => c.issue_id ?? c.plan_id).join(", ")}); fail them first, or delete with force`);
        }
        const counts = await tx.deletePlanTree(id);
        return { ...counts, branch: root.integration_branch, base: root.base_commit };
      }),
    () => {
      throw missing();
    },
  );
  return { deleted: id, plans: gone.plans, events: gone.events, branch: gone.branch ? await dropBranch(repo, gone.branch) : null };
}

/** Delete the plan's integration branch unless it is checked out; a branch that is not there is reported as kept. */
async function dropBranch(repo: string, name: string): Promise<NonNullable<DeleteResult["branch"]>> {
  const ref = `refs/heads/${name}`;
  const at = await resolveCommit(repo, ref);
  if (!at) return { name, deleted: false, kept_because: "it does not exist (any more)" };
  const head = await runGit(repo, ["symbolic-ref", "-q", "HEAD"]);
  if (head.status === 0 && head.stdout.trim() === ref) return { name, deleted: false, kept_because: "it is checked out" };
  // Deleted only if it still points where it was read: a branch moved meanwhile is someone's.
  const r = await runGit(repo, ["update-ref", "-m", "cockpit: execution plan deleted", "-d", "--end-of-options", ref, at]);
  return r.status === 0 ? { name, deleted: true } : { name, deleted: false, kept_because: `git update-ref -d refused: ${r.stderr.trim().slice(0, 200)}` };
}
